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

/** The web app: Vite root is web/, the production build lands in dist/web and is served by Fastify. */
export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [react(), preloadFonts()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    // Maps each route's source file to its chunks, for the per-route size report (npm run bench:web).
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/dating': { target: 'http://localhost:3000', bypass: (req) => (req.headers.accept?.includes('text/html') ? req.url : undefined) },
    },
  },
});
