/**
 * How the app compresses its answers (decisions 074, 075, 186), in its own module so the bench's
 * bare baseline can compress exactly as the app does without loading the app.
 */
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What Fastify itself sends with a JSON answer. The public reads send JSON text they wrote once, as
 * the contract's serialiser would have written it: Fastify passes a string with a JSON content type
 * straight to the onSend hooks, unserialised.
 */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Bodies smaller than this are sent uncompressed. */
export const COMPRESSION_THRESHOLD_BYTES = 2048;

/** The @fastify/compress options of every route: its defaults (brotli at quality 4), above the threshold. */
export const compressionOptions = { threshold: COMPRESSION_THRESHOLD_BYTES } as const;

export type KeptEncoding = 'br' | 'gzip';

/** The encoding to send a kept answer in: brotli, else gzip, else none (q=0 refuses). */
export function preferredEncoding(request: FastifyRequest): KeptEncoding | undefined {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string') return undefined;
  const accepted = new Set(
    header
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(\.0*)?$/.test(part))
      .map((part) => part.split(';')[0].trim()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

/**
 * A text compressed once to be sent many times (the shared answers, the first-screen pages):
 * brotli one step above @fastify/compress's per-request quality 4, since the cost is paid once.
 */
export function compressText(body: string, encoding: KeptEncoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT, [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
    : gzipSync(body);
}

/**
 * Sends a text as @fastify/compress would, for a reply its per-request hook does not see (a route
 * with `compress: false`, the not-found handler): as it is below the threshold or to a client that
 * accepts no encoding, else compressed by `encode` (once per text where the caller keeps it).
 */
export function sendText(
  request: FastifyRequest,
  reply: FastifyReply,
  text: string,
  encode: (encoding: KeptEncoding) => Buffer = (encoding) => compressText(text, encoding),
): FastifyReply {
  const encoding = text.length >= COMPRESSION_THRESHOLD_BYTES ? preferredEncoding(request) : undefined;
  if (!encoding) return reply.send(text);
  return reply.header('vary', 'accept-encoding').header('content-encoding', encoding).send(encode(encoding));
}
