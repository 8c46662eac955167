import { z } from 'zod';
import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '#server/errors.ts';

const englishMessages = z.locales.en();

/** Fastify's own client errors, said the way a person would want to read them. */
const frameworkMessages: Record<string, { status: number; error: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, error: 'Send the body as JSON (Content-Type: application/json)' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, error: 'The request body does not match its Content-Length' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, error: 'The request body is too large' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, error: 'The request body is empty: send {} or the fields' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, error: 'The request body is not valid JSON' },
  FST_ERR_BAD_URL: { status: 400, error: 'The address is not valid' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, error: 'The address is too long' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, error: 'The request could not be routed' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, error: 'Send the file as multipart/form-data' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, error: 'The file is too large' },
  FST_FILES_LIMIT: { status: 413, error: 'Too many files in one request' },
  FST_PARTS_LIMIT: { status: 413, error: 'Too many parts in one request' },
};

interface ValidationItem {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/**
 * One sentence naming the field. A message the contract wrote itself ("Enter a valid
 * phone number") is shown as written; Zod's generic ones get the field put in front.
 */
function describeValidation(items: ValidationItem[], context: string | undefined): { error: string; details: { field: string; message: string }[] } {
  const details = items.map((item) => {
    const field = item.instancePath.replace(/^\//, '').replaceAll('/', '.') || context || 'body';
    const issue = { code: item.keyword, ...item.params, path: field.split('.'), message: item.message } as never;
    const generic = englishMessages.localeError(issue);
    const genericText = typeof generic === 'string' ? generic : generic?.message;
    const message = item.message ?? 'is not valid';
    // Zod keeps no input in its issues, so its default reads "received undefined" whatever was sent.
    const withoutReceived = (text: string | undefined) => text?.replace(/, received .*$/, '');
    const isGeneric = message === genericText || withoutReceived(message) === withoutReceived(genericText);
    return { field, message: isGeneric ? `${field}: ${message}` : message };
  });
  return { error: details[0]?.message ?? 'The request is not valid', details };
}

/**
 * Fastify's `frameworkErrors` option: failures found while routing (a broken %-escape, a path
 * segment over maxParamLength) never reach the error handler, and Fastify's own answer would echo
 * the path back in its own shape. These leave as `{error}` sentences like every other failure.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const known = frameworkMessages[error.code] ?? { status: 400, error: 'The request could not be routed' };
  void reply.code(known.status).send({ error: known.error });
}

/** Every failure leaves as `{error}` with the right status, and never with a stack trace. */
export const errorHandlerPlugin = fp(async (app) => {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.status).send(error.details === undefined ? { error: error.message } : { error: error.message, details: error.details });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send(describeValidation(error.validation as ValidationItem[], (error as FastifyError).validationContext));
    }
    const known = error.code ? frameworkMessages[error.code] : undefined;
    if (known) return reply.code(known.status).send({ error: known.error });
    if (error.statusCode === 429) {
      return reply.code(429).send({ error: 'Too many requests. Please wait a moment and try again.' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(error.statusCode).send({ error: 'The request could not be processed' });
    }
    if (isInputTheDatabaseRefused(error)) {
      return reply.code(400).send({ error: 'The request contains a value that cannot be stored (for example a NUL character or an out-of-range number)' });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ code: (error as { code?: string }).code }, 'database unavailable');
      // While the primary is away (a failover takes seconds), the client is told when to try again.
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return reply.code(503).send({ error: 'The service is briefly unavailable. Please try again in a moment.' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: 'Something went wrong on our side. Please try again.' });
  });
});

/**
 * PostgreSQL data exceptions caused by what the caller sent (a NUL byte in text, a number
 * out of range, malformed text for a typed column): the caller's mistake, so a 400.
 */
function isInputTheDatabaseRefused(error: unknown): boolean {
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return ['22021', '22P05', '22001', '22003', '22007', '22008', '22P02', '2201B'].includes(code ?? '');
}

/** Seconds a client is asked to wait after a 503 for an unreachable database. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * Connection failures from the driver, a primary turned read-only (25006, a demoted host) or
 * shut down (57P01/57P02), and the pool giving up waiting for a connection: the caller should
 * try again, not see a 500.
 */
function isDatabaseUnavailable(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause;
  for (const candidate of [error, cause]) {
    const code = (candidate as { code?: string })?.code ?? '';
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '25006', '08006', '08001', '08003', '08004'].includes(code))
      return true;
    const message = candidate instanceof Error ? candidate.message : '';
    if (/^(timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error)/.test(message)) return true;
  }
  return false;
}
