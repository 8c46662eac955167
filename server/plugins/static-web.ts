import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';

/**
 * Serves the built web app (dist/web) with long-lived caching for hashed assets,
 * and index.html for every other non-API path so client-side routes load directly.
 */
export const staticWebPlugin = fp(async (app, options: { webDistDir: string }) => {
  const root = resolve(options.webDistDir);
  const hasBuild = existsSync(resolve(root, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const isApiPath = (url: string) => /^\/(api|docs|dating\/(auth|uploads|me|photos|api))(\/|$|\?)/.test(url);

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(404).send({ error: `No such endpoint: ${request.method} ${path}` });
    }
    if (isApiPath(request.url) || /\.[a-z0-9]+$/i.test(path)) {
      return reply.code(404).send({ error: `Not found: ${path}` });
    }
    if (!hasBuild) {
      return reply.code(503).type('text/plain').send('The web app is not built yet. Run `npm run build`.');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', root);
  });
});
