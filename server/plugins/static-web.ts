import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { restaurantKeyParams, type RestaurantPageData } from '#common/contract/restaurants.ts';
import { PAGE_DATA_ELEMENT_ID } from '#common/domain/page-data.ts';
import { escapeMarkup, jsonForScriptElement } from '#server/markup.ts';
import { readViteManifest, routeAssets } from './web-build.ts';

/** The source module of the restaurant screen, as the build manifest names it (web/router.tsx). */
const RESTAURANT_ROUTE_SOURCE = 'routes/restaurant.tsx';

/** /r/{slug} and /restaurant/{id}: the restaurant screen (web/router.tsx). */
const RESTAURANT_PAGE_PATH = /^\/(?:r|restaurant)\/([^/]+)\/?$/;

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Serves the built web app (dist/web) with long-lived caching for hashed assets,
 * and index.html for every other non-API path so client-side routes load directly.
 * The restaurant page's HTML also carries its first screen (decision 078).
 */
export const staticWebPlugin = fp(async (app, options: { webDistDir: string }) => {
  const root = resolve(options.webDistDir);
  const hasBuild = existsSync(resolve(root, 'index.html'));
  let restaurantPage: ((request: FastifyRequest, reply: FastifyReply, key: string) => Promise<FastifyReply>) | null = null;
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });

    const shell = readFileSync(resolve(root, 'index.html'), 'utf8');
    const manifest = readViteManifest(root);
    const restaurantAssets = manifest ? routeAssets(manifest, RESTAURANT_ROUTE_SOURCE) : { scripts: [], styles: [] };

    restaurantPage = async (request, reply, key) => {
      let page: RestaurantPageData | null = null;
      if (restaurantKeyParams.safeParse({ slug: key }).success) {
        try {
          page = await app.services.restaurantPage.firstScreen(await request.principal(), key);
        } catch (error) {
          // The page still loads without it and asks the API itself, which answers the error.
          request.log.warn({ err: error }, 'restaurant page data unavailable; serving the plain page');
        }
      }
      const html = page ? withRestaurantFirstScreen(shell, page, restaurantAssets) : shell;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
    };
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
    // Matched here rather than as routes, so a key longer than a route parameter may be still gets the page.
    const restaurantKey = RESTAURANT_PAGE_PATH.exec(path)?.[1];
    if (restaurantPage && restaurantKey) return restaurantPage(request, reply, safeDecode(restaurantKey));
    return reply.header('cache-control', 'no-cache').sendFile('index.html', root);
  });
});

/**
 * index.html with the restaurant's name as its title, and in its head: the hero image, the
 * screen's scripts and styles to fetch alongside the app's, and the data of the first screen.
 * Everything the restaurant's staff typed is escaped; replacements are functions so a `$&` in a
 * name stays text.
 */
export function withRestaurantFirstScreen(shell: string, page: RestaurantPageData, assets: { scripts: string[]; styles: string[] }): string {
  const head = [
    `<link rel="preload" as="image" href="${escapeMarkup(page.restaurant.heroImageUrl)}" fetchpriority="high">`,
    ...assets.styles.map((href) => `<link rel="stylesheet" href="${escapeMarkup(href)}">`),
    ...assets.scripts.map((href) => `<link rel="modulepreload" href="${escapeMarkup(href)}">`),
    `<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">${jsonForScriptElement(page)}</script>`,
  ]
    .map((line) => `    ${line}\n`)
    .join('');
  return shell
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeMarkup(page.restaurant.name)} · Tablefair</title>`)
    .replace('</head>', () => `${head}  </head>`);
}
