import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The web app: Vite root is web/, the production build lands in dist/web and is served by Fastify. */
export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    // Maps each route's source file to its chunks, for the per-route size report (npm run bench:web).
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/dating': { target: 'http://localhost:3000', bypass: (req) => (req.headers.accept?.includes('text/html') ? req.url : undefined) } },
  },
});
