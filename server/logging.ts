import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';
import type { FastifyLoggerOptions, PinoLoggerOptions } from 'fastify/types/logger.js';
import type { AppConfig } from './config.ts';
import { routeFacts } from './plugins/public-reads.ts';
import { currentRequestId } from './plugins/request-id.ts';

/** Where log lines go: anything with `write` (pino's destination streams); stdout when unset. */
export type LogDestination = { write(line: string): void };

/** pino's numbers for the info and error levels. */
const INFO_LEVEL = 30;
const ERROR_LEVEL = 50;
/** What Fastify logs when a reply's stream ends before it was fully sent (lib/log-controller.js). */
const FASTIFY_PREMATURE_CLOSE_MESSAGE = 'stream closed prematurely';

/**
 * A response the client stopped reading (a closed tab, a cancelled image, a page left while its
 * scripts load) ends the stream early. That is the browser's choice, not the server's fault.
 * Node's streams say so with a code; the `end-of-stream` package under the compression plugin
 * only with its message.
 */
export function isAbandonedResponse(value: unknown): boolean {
  if (!(value instanceof Error)) return false;
  return (value as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || value.message === 'premature close';
}

/**
 * Paths and query values that carry a signed token: whoever holds one may act with it (a one-tap
 * reminder answer, a calendar file, a shared date plan, an upload, an SMS receipt's secret path: decision 210), so a log line
 * shows where it went, not the token.
 */
const SIGNED_TOKEN_IN_URL =
  /(\/(?:reminder|api\/reminder-links|api\/calendar|dating\/share|api\/date-share|api\/notifications\/receipts\/exotel)\/)[^/?#]+|([?&]grant=)[^&#]*/g;

/** A request URL as the log may show it: signed tokens replaced by "…". */
export function urlForLog(url: string): string {
  return url.replace(SIGNED_TOKEN_IN_URL, (_whole, path: string | undefined, query: string | undefined) => `${path ?? query}…`);
}

/**
 * The app's logger: the configured level, credentials redacted (headers, and signed tokens in URLs), and a browser abandoning a
 * response said at debug instead of error (the compression plugin logs every failed stream as
 * an error, premature close included). Every other error stays at error.
 */
export function loggerOptions(config: Pick<AppConfig, 'logLevel'>, destination?: LogDestination): FastifyLoggerOptions & PinoLoggerOptions {
  return {
    level: config.logLevel,
    // Credentials never reach the log.
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    serializers: {
      // Fastify's own request serializer, with the URL's signed tokens taken out.
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: urlForLog(request.url),
        version: [request.headers?.['accept-version']].flat()[0],
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    // A line written outside the request's own logger (a service's) still names the request it served.
    // The request's own logger names it already: its bindings, kept by pino as serialised text,
    // are searched rather than parsed (bindings() parses them on every line).
    mixin(_object, _level, logger) {
      const bindings = (logger as unknown as Record<symbol, string | undefined>)[pino.symbols.chindingsSym];
      if (bindings?.includes('"reqId":')) return {};
      const reqId = currentRequestId.getStore();
      return reqId ? { reqId } : {};
    },
    hooks: {
      logMethod(args, method, level) {
        // Fastify itself says an abandoned stream at info; since @fastify/compress 9 hands its
        // streams to Fastify, that is where an abandoned compressed asset is reported.
        const fastifySaysAbandoned = level === INFO_LEVEL && args[1] === FASTIFY_PREMATURE_CLOSE_MESSAGE;
        if (fastifySaysAbandoned || (level >= ERROR_LEVEL && isAbandonedResponse(args[0]))) {
          this.debug(...args);
          return;
        }
        method.apply(this, args);
      },
    },
    ...(destination ? { stream: destination } : {}),
  };
}

/**
 * One access line per request, written when the answer is finished (decision 270): method, the
 * route's pattern (never the raw path, so no token or id in it), status, duration in ms and, from
 * the request's logger, its id. Fastify's own two lines per request (arrival, completion, each
 * with the whole request or reply serialised) are not written. A request without a pattern of its
 * own (a 404, a wildcard page) also says which path it asked for, signed tokens taken out.
 * A route's `logLevel` (the health checks and metrics at warn) still silences its line.
 */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const log = reply.log as FastifyReply['log'] & Pick<pino.Logger, 'isLevelEnabled'>;
    if (!error && !log.isLevelEnabled('info')) return;
    const route = routeFacts(request).url;
    const line: AccessLine = { method: request.method, route: route ?? null, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (route === undefined || route.endsWith('*')) line.url = urlForLog(request.url);
    if (error) log.error({ ...line, err: error }, 'request errored');
    else log.info(line, 'request completed');
  }
}

interface AccessLine {
  method: string;
  route: string | null;
  status: number;
  ms: number;
  url?: string;
}

/**
 * Where the server's log lines go: stdout through pino's asynchronous destination, which gathers
 * the lines written while a write is under way into the next write instead of one blocking system
 * call per line (decision 270). `end` waits for the write under way and writes what is left, so
 * the lines of a SIGTERM's last requests are out before the process exits (server/main.ts).
 */
export function asyncStdoutLog(): { destination: LogDestination; end(): Promise<void> } {
  const destination = pino.destination({ dest: 1, sync: false });
  return {
    destination,
    end: () =>
      new Promise<void>((resolve) => {
        // A stdout that no longer takes writes must not keep the process from exiting.
        const giveUp = setTimeout(resolve, 5_000);
        giveUp.unref();
        destination.once('close', () => {
          clearTimeout(giveUp);
          resolve();
        });
        destination.end();
      }),
  };
}
