// Enforces web/bundle-budget.json against the production build in dist/web:
// the JavaScript the home route loads first, gzipped; how many script files the
// pages opened cold load before their first paint (each is a round trip on a phone,
// decision 228); and that Leaflet lives only in the map's chunk.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const budget = JSON.parse(readFileSync('web/bundle-budget.json', 'utf8'));
const dist = 'dist/web';
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entryScripts = [
  ...html.matchAll(/<script[^>]+src="\/(assets\/[^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/(assets\/[^"]+\.js)"/g),
].map((m) => m[1]);
const gz = (file) => gzipSync(readFileSync(join(dist, file))).length;

const assets = readdirSync(join(dist, 'assets'));
const homeChunk = assets.find((file) => /^home-.*\.js$/.test(file));
const initial = [...new Set([...entryScripts, ...(homeChunk ? [`assets/${homeChunk}`] : [])])];
const initialKb = initial.reduce((sum, file) => sum + gz(file), 0) / 1024;

// The entry's scripts and the screen's, with their static imports, as the build manifest lists them.
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const closure = (key, seen = new Set()) => {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) closure(imported, seen);
  return seen;
};
const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
const firstScreenFiles = Object.entries(budget.firstScreenScriptFilesMax).map(([screen, max]) => {
  if (!manifest[screen]) return { screen, files: Infinity, max };
  return { screen, files: new Set([...closure(entry), ...closure(screen)].map((key) => manifest[key].file)).size, max };
});

const failures = [];
for (const { screen, files, max } of firstScreenFiles) {
  if (files > max)
    failures.push(`${screen} loads ${files === Infinity ? 'no chunk of its own in the manifest' : `${files} script files`} before its first paint > ${max}`);
}
if (initialKb > budget.homeInitialJsKbGzip) failures.push(`home initial JS ${initialKb.toFixed(1)} KB > ${budget.homeInitialJsKbGzip} KB`);
const leafletChunks = assets.filter((file) => file.endsWith('.js') && readFileSync(join(dist, 'assets', file), 'utf8').includes('Leaflet'));
const misplaced = leafletChunks.filter((file) => !budget.leafletAllowedChunkPrefixes.some((prefix) => file.startsWith(prefix)));
if (misplaced.length) failures.push(`Leaflet found outside the map chunk: ${misplaced.join(', ')}`);

console.log(
  `bundle budget: home initial JS ${initialKb.toFixed(1)} KB gzip (budget ${budget.homeInitialJsKbGzip} KB); script files before the first paint: ${firstScreenFiles.map(({ screen, files, max }) => `${screen} ${files} (budget ${max})`).join(', ')}; Leaflet in: ${leafletChunks.join(', ') || 'no chunk yet'}`,
);
if (failures.length) {
  console.error(`bundle budget exceeded:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
