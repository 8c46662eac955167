/**
 * The availability reads: the paths the hot-path runs ask for (bench/hot-path.ts sends them from
 * a separate process), the first read of every restaurant, and the bursts. Also a scripted check that the restaurant list and the today strip answer with an ETag,
 * 304 on If-None-Match, and a compressed body.
 */
import { addDays, todayInKolkata } from '#common/domain/time.ts';
import { load, type LoadResult } from './lib.ts';

/** What a browser sends: the app compresses anything over 1 KiB for it. */
export const BROWSER_ENCODINGS = process.env.BENCH_ACCEPT_ENCODING ?? 'gzip, deflate, br';
/** The party sizes a read asks for, drawn with these weights. */
export const PARTY_SIZES = [2, 2, 2, 4, 4, 6, 8];

export interface ReadOptions {
  connections: number;
  seconds: number;
  restaurants: number;
}

/** A cheap deterministic random stream, so two runs ask for the same mix. */
export function randomStream(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The i-th city restaurant's slug, as bench/generate-city.ts names them (city-0001, …). */
export const citySlug = (i: number) => `city-${String(i).padStart(4, '0')}`;

/**
 * How many requests a read run prepares before it starts: the mix of restaurants, dates and party
 * sizes repeats no more often than the random stream itself would in a run of a few seconds.
 */
const PREPARED_REQUESTS = 65_536;

const prepare = (make: () => string) => Array.from({ length: PREPARED_REQUESTS }, make);

/** GET /api/restaurants/{slug}/availability for a random restaurant, date (30 days) and party size. */
export function availabilityPaths(restaurants: number, now: Date): string[] {
  const today = todayInKolkata(now);
  const random = randomStream(7);
  return prepare(() => {
    const slug = citySlug(1 + Math.floor(random() * restaurants));
    const date = addDays(today, Math.floor(random() * 30));
    const party = PARTY_SIZES[Math.floor(random() * PARTY_SIZES.length)];
    return `/api/restaurants/${slug}/availability?date=${date}&partySize=${party}`;
  });
}

/** GET /api/restaurants/{slug}/calendar for a random restaurant. */
export function calendarPaths(restaurants: number): string[] {
  const random = randomStream(11);
  return prepare(() => `/api/restaurants/${citySlug(1 + Math.floor(random() * restaurants))}/calendar`);
}

/**
 * GET /r/{slug} for a random restaurant, as a phone opening a shared link asks for it: the HTML
 * with the restaurant, its calendar and the first day's times in its head (decisions 078, 079).
 */
export function pagePaths(restaurants: number): string[] {
  const random = randomStream(13);
  return prepare(() => `/r/${citySlug(1 + Math.floor(random() * restaurants))}`);
}

/**
 * The first read of every restaurant, one calendar call each at `connections` concurrency: the
 * app then holds every restaurant's next 30 days in memory (decision 073), as a running server
 * does after its first minutes. Measured, so the cost of a cold start is on record too.
 */
export async function warmEveryRestaurant(baseUrl: string, options: ReadOptions): Promise<LoadResult> {
  let next = 0;
  return load({
    url: baseUrl,
    connections: options.connections,
    amount: options.restaurants,
    timeoutSeconds: 300,
    next: () => ({ path: `/api/restaurants/${citySlug(1 + (next++ % options.restaurants))}/calendar` }),
  });
}

/**
 * The first answer of every distinct (restaurant, date, party size) the availability runs will ask
 * for, each asked once at `connections` concurrency, before the timed rounds: the app keeps each
 * answer until a change (decision 073), so a running server serves the popular ones from memory,
 * and the timed rounds measure that, the per-request work (decision 238), rather than how many of
 * 24,000 answers the first seconds happen to build. Building an answer is measured here instead,
 * as the rate of this pass.
 */
export async function warmEveryAnswer(baseUrl: string, paths: readonly string[], connections: number): Promise<LoadResult> {
  const distinct = [...new Set(paths)];
  let next = 0;
  return load({
    url: baseUrl,
    connections,
    amount: distinct.length,
    timeoutSeconds: 300,
    headers: { 'accept-encoding': BROWSER_ENCODINGS },
    next: () => ({ path: distinct[next++ % distinct.length] }),
  });
}

/** One restaurant page's HTML as the app sends it, for the baseline to serve as a constant. */
export async function samplePage(baseUrl: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/r/${citySlug(1)}`, { headers: { 'accept-encoding': 'identity' } });
  const html = await answer.text();
  if (!answer.ok || !html.includes('application/json')) throw new Error(`/r/${citySlug(1)} answered ${answer.status} without its first screen`);
  return html;
}

/**
 * A whole-city answer (the restaurant list, the today strip), fetched whole (compressed) or
 * conditionally (If-None-Match with its current ETag). These answers are large at city scale,
 * so each is measured as one burst of `connections` concurrent requests (every one answered,
 * none abandoned mid-flight), after a single warm-up request.
 */
export async function measureBurst(baseUrl: string, options: ReadOptions, path: string, conditional: boolean): Promise<LoadResult> {
  const headers: Record<string, string> = { 'accept-encoding': BROWSER_ENCODINGS };
  const first = await fetch(`${baseUrl}${path}`, { headers });
  await first.arrayBuffer();
  if (conditional) {
    const etag = first.headers.get('etag');
    if (!etag) throw new Error(`${path} answered without an ETag`);
    headers['if-none-match'] = etag;
  }
  return load({ url: baseUrl, connections: options.connections, amount: options.connections, timeoutSeconds: 300, next: () => ({ path, headers }) });
}

export interface HeaderCheck {
  path: string;
  etag: string | null;
  encoding: string | null;
  identityBytes: number;
  compressedBytes: number;
  conditionalStatus: number;
  conditionalBytes: number;
  ok: boolean;
}

/** ETag present, the body compressed for a browser, and 304 with no body on If-None-Match. */
export async function checkCaching(baseUrl: string, path: string): Promise<HeaderCheck> {
  const identity = await fetch(`${baseUrl}${path}`, { headers: { 'accept-encoding': 'identity' } });
  const identityBytes = (await identity.arrayBuffer()).byteLength;
  // fetch would decode the body, so the compressed size is read from a raw request.
  const { request } = await import('node:http');
  const compressed = await new Promise<{ encoding: string | null; bytes: number; etag: string | null }>((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { headers: { 'accept-encoding': BROWSER_ENCODINGS } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ encoding: (res.headers['content-encoding'] as string) ?? null, bytes, etag: (res.headers.etag as string) ?? null }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  const conditional = await fetch(`${baseUrl}${path}`, {
    headers: { 'accept-encoding': BROWSER_ENCODINGS, 'if-none-match': compressed.etag ?? '"none"' },
  });
  const conditionalBytes = (await conditional.arrayBuffer()).byteLength;
  const ok =
    Boolean(compressed.etag) &&
    Boolean(identity.headers.get('etag')) &&
    (compressed.encoding === 'gzip' || compressed.encoding === 'br') &&
    compressed.bytes < identityBytes &&
    conditional.status === 304 &&
    conditionalBytes === 0;
  return {
    path,
    etag: compressed.etag,
    encoding: compressed.encoding,
    identityBytes,
    compressedBytes: compressed.bytes,
    conditionalStatus: conditional.status,
    conditionalBytes,
    ok,
  };
}
