import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyContextConfig, FastifyServerFactory } from 'fastify';
import type pino from 'pino';
import { COMPRESSION_THRESHOLD_BYTES, JSON_CONTENT_TYPE } from './http-compression.ts';
import type { AppMetrics } from './metrics.ts';
import { REQUEST_ID_HEADER } from './plugins/request-id.ts';
import { SECURITY_HEADERS } from './plugins/security-headers.ts';
import type { HistogramSeries } from './scrape-time-histogram.ts';

/**
 * How many URLs are remembered (about 200 bytes each: the URL, its values, the map's slot), the
 * oldest first out. A URL not remembered is answered by Fastify, as before, and remembered again.
 */
export const EARLY_ANSWER_MAX_URLS = 100_000;

/**
 * The hooks that run for an early answer's route under Fastify, each with what the early answer
 * does in its place (decision 285). `server/early-answers.db.test.ts` reads the route's hooks from
 * Fastify and fails when one is added that this list does not account for: a hook every request
 * must run has to run here too, or the route must stop answering early.
 */
export const HOOKS_AN_EARLY_ANSWER_STANDS_FOR: Readonly<Record<string, string>> = {
  'onRequest sendRequestId': 'the x-request-id header, from the same genReqId',
  'onRequest timeSlowBody': 'nothing: a public read has no body to time, and an early answer takes no request with one',
  'onRequest sendSecurityHeaders': 'SECURITY_HEADERS, the same frozen set',
  'onRequest parseCookies': 'nothing: a public read reads no cookie',
  'preParsing preParsing': "nothing: @fastify/compress's request decompression; an early answer takes no request with a body",
  'preValidation stopSlowBodyTimer': 'nothing: no timer was started',
  'preHandler sharedAnswer': 'nothing: the route keeps no shared answer (config.sharedAnswerSeconds unset)',
  'preHandler rateLimit': 'nothing: the route has no rateLimitGroup',
  'onSend etag': 'nothing: the route sends no ETag (config.etag unset)',
  'onSend refundRateLimit': 'nothing: no rate-limit hit to refund',
  'onSend fastifyCookieOnSendHandler': 'nothing: no cookie is set',
  'onResponse recordDuration': "the same histogram series, observed with the early answer's own duration",
};

/**
 * The route options under which the conditional hooks above do nothing. A route asking to answer
 * early with any of them set is refused when the app is built (route()).
 */
const OPTIONS_AN_EARLY_ANSWER_CANNOT_KEEP: readonly (keyof FastifyContextConfig)[] = ['rateLimitGroup', 'etag', 'sharedAnswerSeconds'];

/** One route that answers early: its pattern (as metrics and the access line name it) and its kept answer. */
interface EarlyRouteEntry<Values> {
  pattern: string;
  keptJson(values: Values): string | undefined;
  series?: HistogramSeries;
}

/** What the early answers need from the app, given once it is built. */
export interface EarlyAnswersConnection {
  log: FastifyBaseLogger;
  /** Fastify's own genReqId (request-id.ts), so an early answer's id is made by the same rule. */
  genReqId(request: IncomingMessage): string;
  metrics?: AppMetrics;
}

/** A route's handle: it remembers a URL once Fastify has routed and validated it. */
export interface EarlyRoute<Values> {
  /** This URL, exactly as sent, was routed to the route and validated to these values. */
  learn(rawUrl: string | undefined, values: Values): void;
}

/**
 * Kept public answers, sent before Fastify routes the request (decision 285). A route that keeps
 * its answers in memory (availability, the calendar) teaches the early answers each URL after Fastify has routed
 * and validated it; the next GET of exactly that URL, while the route still keeps an answer for
 * its values, is sent from here with the same head, access line and metrics as Fastify's, without
 * Fastify's per-request work (its request and reply objects, the router, twelve hooks). Anything
 * else, and any request to a URL not yet learned, goes to Fastify unchanged.
 */
export function createEarlyAnswers(maxUrls = EARLY_ANSWER_MAX_URLS) {
  const learned = new Map<string, { route: EarlyRouteEntry<never>; values: unknown }>();
  const routes: EarlyRouteEntry<never>[] = [];
  let connection: EarlyAnswersConnection | undefined;
  /** Off until connected, and again once the app starts closing (Fastify then answers 503). */
  let open = false;
  /** Answers sent early so far (tests and diagnostics). */
  let answered = 0;

  /** The histogram series Fastify's recordDuration observes for a 200 from this route. */
  const seriesOf = (pattern: string) => connection?.metrics?.httpDuration.series({ method: 'GET', route: pattern, status_code: '200' });

  function answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (!open || request.method !== 'GET' || request.url === undefined) return false;
    const hit = learned.get(request.url);
    // A request with a body is Fastify's to read and time (slow-clients.ts).
    if (!hit || request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined) return false;
    const started = performance.now();
    const { route, values } = hit;
    const json = route.keptJson(values as never);
    // Fastify would compress a larger answer for a client that accepts it; only small ones leave early.
    if (json === undefined || json.length >= COMPRESSION_THRESHOLD_BYTES) return false;
    const { log, genReqId, metrics } = connection!;
    const reqId = genReqId(request);
    // The head in Fastify's order: the request id and security headers (onRequest), the type
    // (the handler), the length (send); Node adds Date and the keep-alive headers to both.
    const head = HEAD_TEMPLATE.slice();
    head[1] = reqId;
    head[head.length - 1] = String(Buffer.byteLength(json));
    response.writeHead(200, head);
    response.end(json);
    answered += 1;
    const seconds = (performance.now() - started) / 1000;
    if (metrics && route.series) metrics.httpDuration.observe(route.series, seconds);
    // The access line as AccessLogController writes it (logging.ts): the request's logger names
    // the request id first, so it leads the fields here too.
    if ((log as FastifyBaseLogger & Pick<pino.Logger, 'isLevelEnabled'>).isLevelEnabled('info')) {
      log.info({ reqId, method: 'GET', route: route.pattern, status: 200, ms: Math.round(seconds * 10_000) / 10 }, 'request completed');
    }
    return true;
  }

  /** Fastify's serverFactory: Node's HTTP server as Fastify makes it, asking the early answers first. */
  const serverFactory: FastifyServerFactory = (handler, options) => {
    const server: Server = createServer((options.http ?? {}) as object, (request, response) => {
      if (!answer(request, response)) handler(request, response);
    });
    // What Fastify sets on the server it makes itself (fastify/lib/server.js), from the same options.
    server.keepAliveTimeout = options.keepAliveTimeout as number;
    server.requestTimeout = options.requestTimeout as number;
    server.setTimeout(options.connectionTimeout as number);
    const perSocket = options.maxRequestsPerSocket as number;
    if (perSocket > 0) server.maxRequestsPerSocket = perSocket;
    return server;
  };

  return {
    serverFactory,

    /** Sends the kept answer of a learned URL and says true; false leaves the request to Fastify. */
    answer,

    /** Gives the early answers what they need once the app is built, and opens them. */
    connect(given: EarlyAnswersConnection): void {
      connection = given;
      for (const route of routes) route.series = seriesOf(route.pattern);
      open = true;
    },

    /** Stops answering early (the app is closing: Fastify answers 503 from now on). */
    close(): void {
      open = false;
      learned.clear();
    },

    /**
     * Registers a route that answers early: its pattern, its config (a public read, without the
     * options whose hooks an early answer does not run) and its kept answer's JSON for validated values.
     */
    route<Values>(pattern: string, config: FastifyContextConfig, keptJson: (values: Values) => string | undefined): EarlyRoute<Values> {
      const kept = OPTIONS_AN_EARLY_ANSWER_CANNOT_KEEP.filter((option) => config[option] !== undefined);
      if (config.publicRead !== true || kept.length > 0) {
        throw new Error(`${pattern} cannot answer early: it must be a public read without ${OPTIONS_AN_EARLY_ANSWER_CANNOT_KEEP.join(', ')} (decision 285)`);
      }
      const entry: EarlyRouteEntry<Values> = { pattern, keptJson, series: seriesOf(pattern) };
      routes.push(entry as EarlyRouteEntry<never>);
      return {
        learn(rawUrl, values) {
          if (rawUrl === undefined || learned.has(rawUrl)) return;
          if (learned.size >= maxUrls) learned.delete(learned.keys().next().value!);
          learned.set(rawUrl, { route: entry as EarlyRouteEntry<never>, values });
        },
      };
    },

    /** How many URLs are remembered (tests and diagnostics). */
    size: () => learned.size,

    /** How many answers were sent early (tests and diagnostics). */
    answered: () => answered,
  };
}

export type EarlyAnswers = ReturnType<typeof createEarlyAnswers>;

/**
 * An early answer's head as name, value, name, value… (the form writeHead takes without copying an
 * object), its request id and length filled in per answer.
 */
const HEAD_TEMPLATE: readonly string[] = [
  REQUEST_ID_HEADER,
  '',
  ...Object.entries(SECURITY_HEADERS).flat(),
  'content-type',
  JSON_CONTENT_TYPE,
  'content-length',
  '',
];
