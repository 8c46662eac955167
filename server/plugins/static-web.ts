import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { restaurantKeyParams } from '#common/contract/restaurants.ts';
import { PAGE_DATA_ELEMENT_ID } from '#common/domain/page-data.ts';
import { compressText, sendText } from '#server/http-compression.ts';
import { escapeMarkup, jsonTextForScriptElement } from '#server/markup.ts';
import { anonymous, type Principal } from '#server/modules/accounts/principal.ts';
import type { FirstScreen, PagesService } from '#server/modules/pages/pages.service.ts';
import { createKeptAnswers } from './kept-answers.ts';
import { readViteManifest, routeAssets, type ViteManifest } from './web-build.ts';

/**
 * The pages whose HTML carries their first screen (decisions 078, 079): which paths, which
 * screen module the build manifest names for them (web/router.tsx), and where the data comes
 * from. A key the API would refuse gets the plain page, which then shows its own "not found".
 */
const FIRST_SCREEN_PAGES: {
  /** The routes that serve the page: wildcards, since a parameter's length is limited and an overlong key must still get the page. */
  routes: string[];
  path: RegExp;
  screen: string;
  /**
   * The font faces whose preload the page keeps (file names without their hash), when not every
   * face the shell preloads (vite.config.ts). The restaurant page's largest paint is its cover
   * photo: it keeps the display face of its name and lets the body face come with the stylesheet,
   * so the photo and the scripts do not share a phone's first second with 49 KB of font (decision 228).
   */
  fonts?: string[];
  load: (pages: PagesService, principal: Principal, key: string, search: URLSearchParams) => Promise<FirstScreen | null>;
}[] = [
  { routes: ['/'], path: /^\/$/, screen: 'routes/home.tsx', load: (pages, principal) => pages.home(principal) },
  {
    routes: ['/r/*', '/restaurant/*'],
    path: /^\/(?:r|restaurant)\/([^/]+)\/?$/,
    screen: 'routes/restaurant.tsx',
    fonts: ['fraunces-latin-wght-normal'],
    load: async (pages, principal, key, search) => (restaurantKeyParams.safeParse({ slug: key }).success ? pages.restaurant(principal, key, search) : null),
  },
];

type Assets = { scripts: string[]; styles: string[] };

/**
 * How many screens' pages are kept with their compressed forms, and their size in all (characters
 * of HTML plus compressed bytes); past either, the least recently sent go first (decision 200).
 */
export const KEPT_PAGES = 2048;
export const KEPT_PAGES_MAX_SIZE = 48 * 1024 * 1024;

/** A page as last sent at an address: the screen it was made from, its HTML, and its compressed forms, made on first demand. */
interface KeptPage {
  screen: FirstScreen;
  html: string;
  br?: Buffer;
  gzip?: Buffer;
}

/** The same page: the same title, image and JSON pieces (kept pieces are the same strings, compared at once). */
function isSameScreen(a: FirstScreen, b: FirstScreen): boolean {
  return (
    a.title === b.title &&
    a.image === b.image &&
    a.imageSrcSet === b.imageSrcSet &&
    a.json.length === b.json.length &&
    a.json.every((piece, index) => piece === b.json[index])
  );
}

/**
 * Serves the built web app (dist/web) with long-lived caching for hashed assets,
 * and index.html for every other non-API path so client-side routes load directly.
 */
export const staticWebPlugin = fp(async (app, options: { webDistDir: string }) => {
  const root = resolve(options.webDistDir);
  const hasBuild = existsSync(resolve(root, 'index.html'));
  /** index.html as it is: every client route without a first screen of its own. */
  const sendShell = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile('index.html', root);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The build writes each script and stylesheet compressed beside it (vite.config.ts, decision 228).
      preCompressed: true,
      // @fastify/static 10 hands over Fastify's reply here (it was the raw response before).
      setHeaders(reply, path) {
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    const shell = readFileSync(resolve(root, 'index.html'), 'utf8');
    const manifest = readViteManifest(root);
    const pages = FIRST_SCREEN_PAGES.map((page) => ({ ...page, render: firstScreenTemplate(shell, screenAssets(manifest, page.screen), page.fonts) }));

    const sendFirstScreen = async (request: FastifyRequest, reply: FastifyReply, page: (typeof pages)[number], key: string) => {
      let screen: FirstScreen | null = null;
      try {
        // The first screens are public and the same for everyone, so no session is looked up for them.
        screen = await page.load(app.services.pages, anonymous, key, new URLSearchParams(request.url.split('?')[1] ?? ''));
      } catch (error) {
        // The page still loads without it and asks the API itself, which answers the error.
        request.log.warn({ err: error }, 'first screen unavailable; serving the plain page');
      }
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
      if (!screen) return sendText(request, reply, shell);
      // Made, and compressed, once per screen; reused while the screen's key gives the same screen.
      const kept = keptPage(screen, page.render);
      return sendText(request, reply, kept.html, (encoding) => {
        let bytes = kept[encoding];
        if (!bytes) {
          bytes = kept[encoding] = compressText(kept.html, encoding);
          keptPages.grow(screen.key, bytes.length);
        }
        return bytes;
      });
    };

    const keptPages = createKeptAnswers<KeptPage>({ maxEntries: KEPT_PAGES, maxSize: KEPT_PAGES_MAX_SIZE });
    app.deps.metrics?.keepsAnswers('pages', keptPages);
    /** The screen's kept page when its content is the same (compared by content, so never stale), else the page made afresh and kept. */
    const keptPage = (screen: FirstScreen, render: (screen: FirstScreen) => string): KeptPage => {
      const kept = keptPages.get(screen.key);
      if (kept !== undefined && isSameScreen(kept.screen, screen)) return kept;
      const made: KeptPage = { screen, html: render(screen) };
      keptPages.set(screen.key, made, made.html.length);
      return made;
    };
    app.addHook('onClose', async () => keptPages.clear());

    for (const page of pages) {
      for (const url of page.routes) {
        app.get(
          url,
          {
            // Public and the same for everyone (decision 186): no cookie, session or async context.
            config: { publicRead: true },
            // Compressed once per text above, not per request by @fastify/compress.
            compress: false,
            // A page, not an API operation.
            schema: { hide: true },
          },
          (request, reply) => {
            const match = page.path.exec(request.url.split('?')[0]);
            // A deeper path under /r/ is a client route like any other: the plain page.
            return match ? sendFirstScreen(request, reply, page, safeDecode(match[1] ?? '')) : sendShell(reply);
          },
        );
      }
    }
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
    return sendShell(reply);
  });
});

function screenAssets(manifest: ViteManifest | null, screen: string): Assets {
  return manifest ? routeAssets(manifest, screen) : { scripts: [], styles: [] };
}

/** The shell without the font preloads of faces other than `kept` (a face's build file is `/assets/{face}-{hash}.woff2`). */
export function withoutFontPreloads(shell: string, kept: string[]): string {
  return shell.replace(/^[ \t]*<link rel="preload" as="font"[^>]*\bhref="([^"]*)"[^>]*>\r?\n?/gm, (line, href: string) =>
    kept.some((face) => href.startsWith(`/assets/${face}-`)) ? line : '',
  );
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * index.html with, in its head: the page's title, its first image, the screen's scripts and
 * styles to fetch alongside the app's, and the data of the first screen. Everything typed by
 * people is escaped. The shell is cut once, so a page is joined, not searched, per request.
 * With `fonts`, the shell's font preloads for other faces are left out.
 */
export function firstScreenTemplate(page: string, assets: Assets, fonts?: string[]): (screen: FirstScreen) => string {
  const shell = fonts ? withoutFontPreloads(page, fonts) : page;
  const title = /<title>[^<]*<\/title>/.exec(shell);
  const headEnd = shell.indexOf('</head>');
  if (headEnd < 0) throw new Error("The web build's index.html has no </head>");
  // Cut at the title (when it comes before </head>) and at </head>: [before title, between, from </head> on].
  const titleAt = title && title.index < headEnd ? title.index : -1;
  const beforeTitle = titleAt >= 0 ? shell.slice(0, titleAt) : '';
  const shellTitle = titleAt >= 0 ? title![0] : '';
  const beforeHeadEnd = shell.slice(titleAt >= 0 ? titleAt + shellTitle.length : 0, headEnd);
  const fromHeadEnd = shell.slice(headEnd);
  const line = (text: string) => `    ${text}\n`;
  const assetLines = [
    ...assets.styles.map((href) => line(`<link rel="stylesheet" href="${escapeMarkup(href)}">`)),
    ...assets.scripts.map((href) => line(`<link rel="modulepreload" href="${escapeMarkup(href)}">`)),
  ].join('');
  return (screen) =>
    beforeTitle +
    (screen.title && titleAt >= 0 ? `<title>${escapeMarkup(screen.title)}</title>` : shellTitle) +
    beforeHeadEnd +
    (screen.image
      ? line(
          `<link rel="preload" as="image" href="${escapeMarkup(screen.image)}"${
            screen.imageSrcSet ? ` imagesrcset="${escapeMarkup(screen.imageSrcSet)}" imagesizes="${escapeMarkup(screen.imageSizes ?? '100vw')}"` : ''
          } fetchpriority="high">`,
        )
      : '') +
    assetLines +
    line(`<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">${jsonTextForScriptElement(screen.json.join(''))}</script>`) +
    '  ' +
    fromHeadEnd;
}
