/**
 * The baseline of `npm run bench`: a bare Fastify handler returning a constant JSON, run as its
 * own process like the app, on the same machine in the same run. Its body has the shape and
 * size of an availability answer (16 slots), so the two differ by what the app does, not by bytes;
 * `/constant-with-headers` adds the app's headers too.
 * With BENCH_PAGE_FILE it also serves that restaurant page's HTML as a constant (`/page`).
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { compressText, preferredEncoding } from '#server/http-compression.ts';
import { SECURITY_HEADERS } from '#server/plugins/security-headers.ts';
import { CONSTANT_BODY } from './constant-body.ts';

const body = CONSTANT_BODY;

const app = Fastify({ logger: false });
app.get('/constant', async () => body);

/**
 * The same body with the headers every app answer carries: the security headers and a request
 * id of the same length (a constant: making one is the app's work). The cost of HTTP alone for the
 * same bytes on the wire, which the server writes and the load generator reads and parses.
 */
const REQUEST_ID = '00000000-0000-4000-8000-000000000000';
app.get('/constant-with-headers', async (_request, reply) => {
  reply.headers(SECURITY_HEADERS).header('x-request-id', REQUEST_ID);
  return body;
});

/**
 * A restaurant page's HTML as the app sent it (BENCH_PAGE_FILE), served as the constant it is:
 * compressed once at start, as the app keeps its pages compressed, and sent as those bytes to a
 * browser that accepts them. The cost of HTTP alone for the same bytes.
 */
const pageFile = process.env.BENCH_PAGE_FILE;
if (pageFile) {
  const page = readFileSync(pageFile, 'utf8');
  const encoded = { br: compressText(page, 'br'), gzip: compressText(page, 'gzip') };
  app.get('/page', (request, reply) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    const encoding = preferredEncoding(request);
    return encoding ? reply.header('content-encoding', encoding).send(encoded[encoding]) : reply.send(page);
  });
}
await app.listen({ port: Number(process.env.PORT ?? 3108), host: process.env.HOST ?? '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
