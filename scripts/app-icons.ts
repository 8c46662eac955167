import { mkdirSync } from 'node:fs';
import sharp from 'sharp';

/**
 * The installable app's icons (decision 212), drawn from the favicon's mark: the saffron plate on
 * the ink square. Full-bleed squares, the mark inside the central 60 % so a launcher's mask
 * (circle, squircle) never cuts it. Run `node --import tsx scripts/app-icons.ts`; the PNGs are committed.
 */
const INK = '#1C1917';
const SAFFRON = '#F4A53A';

function iconSvg(size: number): string {
  const c = size / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <rect width="${size}" height="${size}" fill="${INK}"/>
  <circle cx="${c}" cy="${c}" r="${size * 0.25}" fill="none" stroke="${SAFFRON}" stroke-width="${size * 0.07}"/>
  <circle cx="${c}" cy="${c}" r="${size * 0.1}" fill="${SAFFRON}"/>
</svg>`;
}

mkdirSync('web/public/icons', { recursive: true });
for (const size of [192, 512]) {
  await sharp(Buffer.from(iconSvg(size)))
    .png({ compressionLevel: 9, palette: true })
    .toFile(`web/public/icons/icon-${size}.png`);
}
