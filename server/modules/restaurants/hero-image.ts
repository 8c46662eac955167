import { escapeMarkup } from '#server/markup.ts';

/**
 * A generated hero image (SVG) so every restaurant has a picture with no internet:
 * a warm gradient chosen from the restaurant's id, a soft table-top pattern, and its emoji.
 */
const PALETTES: [string, string, string][] = [
  ['#F4A259', '#BC4B51', '#5B8E7D'],
  ['#E9C46A', '#E76F51', '#264653'],
  ['#F6BD60', '#F28482', '#84A59D'],
  ['#FFB703', '#FB8500', '#023047'],
  ['#DDA15E', '#BC6C25', '#283618'],
  ['#F2CC8F', '#E07A5F', '#3D405B'],
  ['#FFCDB2', '#E5989B', '#6D6875'],
  ['#F9C74F', '#F3722C', '#277DA1'],
];

function hashString(value: string): number {
  let hash = 2166136261;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return hash >>> 0;
}

export function renderHeroSvg(seed: string, emoji: string): string {
  const hash = hashString(seed);
  const [light, warm, deep] = PALETTES[hash % PALETTES.length];
  const angle = hash % 360;
  const plates = Array.from({ length: 7 }, (_, i) => {
    const x = ((hash >> (i * 3)) % 1100) + 50;
    const y = ((hash >> (i * 2 + 5)) % 500) + 60;
    const r = 40 + ((hash >> i) % 90);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="#fff" fill-opacity="0.07"/><circle cx="${x}" cy="${y}" r="${r * 0.72}" fill="none" stroke="#fff" stroke-opacity="0.12" stroke-width="3"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630" role="img">
<defs><linearGradient id="g" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="${light}"/><stop offset=".55" stop-color="${warm}"/><stop offset="1" stop-color="${deep}"/></linearGradient>
<radialGradient id="v" cx=".5" cy=".45" r=".75"><stop offset=".55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".35"/></radialGradient></defs>
<rect width="1200" height="630" fill="url(#g)"/>${plates}<rect width="1200" height="630" fill="url(#v)"/>
<text x="600" y="360" font-size="220" text-anchor="middle" dominant-baseline="middle" font-family="Noto Color Emoji, Apple Color Emoji, Segoe UI Emoji, sans-serif">${escapeMarkup(emoji)}</text>
</svg>`;
}
