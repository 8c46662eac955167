import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Vite's build manifest (build.manifest in vite.config.ts): each source module's chunk and what it imports. */
export type ViteManifest = Record<string, { file: string; imports?: string[]; css?: string[]; isEntry?: boolean }>;

export function readViteManifest(webDistDir: string): ViteManifest | null {
  const path = join(webDistDir, '.vite/manifest.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ViteManifest) : null;
}

/** A manifest entry and its static imports, transitively (what loading that chunk fetches). */
export function chunkClosure(manifest: ViteManifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) chunkClosure(manifest, imported, seen);
  return seen;
}

export function entryKey(manifest: ViteManifest): string {
  const key = Object.keys(manifest).find((candidate) => manifest[candidate].isEntry);
  if (!key) throw new Error('The web build manifest names no entry chunk');
  return key;
}

/**
 * The scripts and stylesheets a lazily loaded route adds to what index.html already loads, as
 * absolute paths: what a page can announce up front so the browser fetches them with the HTML.
 */
export function routeAssets(manifest: ViteManifest, routeSource: string): { scripts: string[]; styles: string[] } {
  const loaded = chunkClosure(manifest, entryKey(manifest));
  const route = [...chunkClosure(manifest, routeSource)].filter((key) => !loaded.has(key));
  return {
    scripts: route.map((key) => `/${manifest[key].file}`),
    styles: [...new Set(route.flatMap((key) => manifest[key].css ?? []))].map((file) => `/${file}`),
  };
}
