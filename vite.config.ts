import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** The faces the first screen needs (web/styles/fonts.css): fetched with the HTML, not after the CSS. */
const PRELOADED_FONTS = ['inter-latin-wght-normal', 'fraunces-latin-wght-normal'];

/** Adds <link rel="preload"> for PRELOADED_FONTS under their hashed build names (decision 077). */
function preloadFonts(): Plugin {
  return {
    name: 'tablefair-preload-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const files = Object.keys(context.bundle ?? {}).filter((file) => PRELOADED_FONTS.some((font) => file.includes(`${font}-`) && file.endsWith('.woff2')));
        return files.map((file) => ({
          tag: 'link',
          attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${file}`, crossorigin: '' },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/** The screens opened cold, from a link or the address bar, whose first paint waits on every script they import (decision 228). */
const FIRST_SCREENS = { home: 'routes/home.tsx', restaurant: 'routes/restaurant.tsx' };

/** Modules by where they are first needed, read from the module graph once it is complete (buildEnd runs before chunking). */
const firstNeeded = { shell: new Set<string>(), home: new Set<string>(), restaurant: new Set<string>() };

/**
 * Records which modules the app shell (main.tsx) and the first screens import statically, so the
 * chunk groups below can put each first screen's code in a couple of files instead of twenty-odd
 * files of a kilobyte each: every file is a request, and on a phone's connection a round trip.
 */
function firstScreenChunks(): Plugin {
  return {
    name: 'tablefair-first-screen-chunks',
    apply: 'build',
    buildEnd() {
      const imports = (id: string, seen = new Set<string>()): Set<string> => {
        if (seen.has(id)) return seen;
        seen.add(id);
        for (const next of this.getModuleInfo(id)?.importedIds ?? []) imports(next, seen);
        return seen;
      };
      const ids = [...this.getModuleIds()];
      const find = (suffix: string) => {
        const id = ids.find((candidate) => candidate.replaceAll('\\', '/').endsWith(`/web/${suffix}`));
        if (!id) throw new Error(`The build has no web/${suffix}`);
        return id;
      };
      firstNeeded.shell = imports(find('main.tsx'));
      firstNeeded.home = imports(find(FIRST_SCREENS.home));
      firstNeeded.restaurant = imports(find(FIRST_SCREENS.restaurant));
    },
  };
}

/** The app's own modules a screen imports beyond the shell (a screen's own module stays its chunk, named in the build manifest). */
const screenModule = (id: string, screen: Set<string>) =>
  screen.has(id) && !firstNeeded.shell.has(id) && !/node_modules/.test(id) && !/[\\/]web[\\/]routes[\\/]/.test(id);

/**
 * Writes each script and stylesheet beside itself compressed as hard as brotli and gzip go (.br,
 * .gz), once at build time: the server sends those (@fastify/static's preCompressed) instead of
 * compressing at brotli's quick setting on every request. The shell's script is 17 KB smaller
 * (100 KB against 117 KB) and a request costs the server a file read (decision 228).
 */
function precompressAssets(): Plugin {
  let outDir = '';
  return {
    name: 'tablefair-precompress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const [fileName, output] of Object.entries(bundle)) {
        if (!/^assets\/.*\.(js|css)$/.test(fileName)) continue;
        const bytes = Buffer.from(output.type === 'chunk' ? output.code : output.source);
        if (bytes.length < 1024) continue;
        writeFileSync(join(outDir, `${fileName}.br`), brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(join(outDir, `${fileName}.gz`), gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

/** The web app: Vite root is web/, the production build lands in dist/web and is served by Fastify. */
export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [react(), preloadFonts(), firstScreenChunks(), precompressAssets()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    // Maps each route's source file to its chunks, for the per-route size report (npm run bench:web).
    manifest: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // Three files for the first screens' code (decision 228): the shell (React, the router,
        // the query client and the app's frame, which every page loads), what the home page
        // imports, and what the restaurant page imports besides. Other screens keep automatic chunks.
        codeSplitting: {
          groups: [
            { name: 'shell', test: (id) => firstNeeded.shell.has(id) && !/[\\/]web[\\/]main\.tsx$/.test(id), priority: 3 },
            { name: 'first-screens', test: (id) => screenModule(id, firstNeeded.home), priority: 2 },
            { name: 'restaurant-page', test: (id) => screenModule(id, firstNeeded.restaurant), priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/dating': { target: 'http://localhost:3000', bypass: (req) => (req.headers.accept?.includes('text/html') ? req.url : undefined) },
    },
  },
});
