import Fastify, { type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import { compressionOptions } from './http-compression.ts';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { systemClock, type Clock } from './clock.ts';
import { fastifyTrustProxy, type AppConfig } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { connectModules, createServices, stopServices } from './composition.ts';
import type { AppDeps } from './deps.ts';
import { createEarlyAnswers, type EarlyAnswers } from './early-answers.ts';
import { AppEvents } from './events.ts';
import { AccessLogController, loggerOptions, type LogDestination } from './logging.ts';
import { AppMetrics } from './metrics.ts';
import { healthPlugin } from './plugins/health.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { requestIdGenerator, requestIdPlugin } from './plugins/request-id.ts';
import { answerFrameworkError, errorHandlerPlugin } from './plugins/error-handler.ts';
import { etagPlugin } from './plugins/etag.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { routeFactsPlugin } from './plugins/public-reads.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { sessionsPlugin } from './plugins/sessions.ts';
import { slowClientsPlugin } from './plugins/slow-clients.ts';
import { staticWebPlugin } from './plugins/static-web.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { phoneVerificationRoutes } from './modules/accounts/phone-verification.routes.ts';
import { passwordResetRoutes } from './modules/accounts/password-reset.routes.ts';
import { availabilityRoutes } from './modules/availability/availability.routes.ts';
import { datingRoutes } from './modules/dating/dating.routes.ts';
import { datingAdminRoutes } from './modules/dating/dating.admin.routes.ts';
import { datingModerationRoutes } from './modules/dating/dating.moderation.routes.ts';
import { dropsAdminRoutes } from './modules/drops/drops.admin.routes.ts';
import { dropsRoutes } from './modules/drops/drops.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { pushRoutes } from './modules/notifications/push.routes.ts';
import { remindersAdminRoutes } from './modules/reminders/reminders.admin.routes.ts';
import { remindersRoutes } from './modules/reminders/reminders.routes.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { reservationsAdminRoutes } from './modules/reservations/reservations.admin.routes.ts';
import { reservationsRoutes } from './modules/reservations/reservations.routes.ts';
import { guestsAdminRoutes } from './modules/guests/guests.admin.routes.ts';
import { bookingChangeRoutes } from './modules/reservations/booking-change.routes.ts';
import { bookingSearchAdminRoutes } from './modules/reservations/booking-search.admin.routes.ts';
import { depositsRoutes } from './modules/reservations/deposits.routes.ts';
import { restaurantsAdminRoutes } from './modules/restaurants/restaurants.admin.routes.ts';
import { restaurantsRoutes } from './modules/restaurants/restaurants.routes.ts';
import { restaurantPhotosRoutes } from './modules/restaurants/restaurant-photos.routes.ts';
import { floorAdminRoutes } from './modules/floor/floor.admin.routes.ts';
import { floorLiveAdminRoutes } from './modules/floor/floor-live.admin.routes.ts';
import { slotsAdminRoutes } from './modules/slots/slots.admin.routes.ts';
import { waitlistRoutes } from './modules/waitlist/waitlist.routes.ts';
import { strikesAdminRoutes } from './modules/strikes/strikes.admin.routes.ts';
import { strikesRoutes } from './modules/strikes/strikes.routes.ts';

export interface BuildAppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  clock?: Clock;
  /** Start the background jobs of server/composition.ts (off in tests that drive time by hand). */
  runBackgroundJobs?: boolean;
  /** Where log lines go (a test reads them); stdout when unset. */
  logDestination?: LogDestination;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Kept public answers sent before Fastify routes the request (decision 285). */
    earlyAnswers: EarlyAnswers;
  }
}

/** Builds the HTTP app: infrastructure plugins first, then the modules. Tests build it too. */
export async function buildApp({ config, database, clock = systemClock, runBackgroundJobs = true, logDestination }: BuildAppOptions): Promise<FastifyInstance> {
  const earlyAnswers = createEarlyAnswers();
  // One id per request, a trusted proxy's when it sent one (x-request-id or traceparent).
  const genReqId = requestIdGenerator(config.trustProxy);
  const app = Fastify({
    logger: loggerOptions(config, logDestination),
    // One access line per request instead of Fastify's two (decision 270).
    logController: new AccessLogController(),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Node's own backstop for slow clients; slowClientsPlugin answers them on time (decision 096).
    requestTimeout: Math.ceil(config.requestTimeouts.requestSeconds * 1000),
    bodyLimit: 256 * 1024,
    frameworkErrors: answerFrameworkError,
    genReqId,
    // Node's HTTP server as Fastify makes it, asking the kept answers first (decision 285).
    serverFactory: earlyAnswers.serverFactory,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const deps: AppDeps = {
    db: database.db,
    clock,
    config,
    events: new AppEvents(database.eventRelay),
    log: app.log,
    availabilityChanges: database.availabilityChanges,
    // The outbox figures come from the service once it exists (read at scrape time only).
    metrics: new AppMetrics({ outbox: () => services.notifications.outboxStats(), pool: () => database.poolStats?.() }),
  };
  app.decorate('deps', deps);
  const services = createServices(deps);
  app.decorate('services', services);
  // Every listener, move step and background job between modules is connected here (decision 189).
  const wiring = connectModules(services, deps);
  app.decorate('wiring', wiring);
  app.decorate('earlyAnswers', earlyAnswers);
  earlyAnswers.connect({ log: app.log, genReqId, metrics: deps.metrics });
  // Fastify answers 503 once it starts closing; the early answers stop before it does.
  app.addHook('preClose', (done) => {
    earlyAnswers.close();
    done();
  });
  app.addHook('onClose', async () => {
    wiring.stop();
    stopServices(services);
    await deps.events.close();
  });

  await app.register(routeFactsPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(requestIdPlugin);
  await app.register(metricsPlugin, { config, metrics: deps.metrics! });
  await app.register(healthPlugin, { database });
  await app.register(slowClientsPlugin, { config });
  await app.register(securityHeadersPlugin);
  // Small answers (one date's availability, about 1.2 KB) go out as they are: compressing them
  // costs more CPU than the bytes are worth (decision 074).
  await app.register(compress, compressionOptions);
  await app.register(sessionsPlugin);
  await app.register(etagPlugin);
  await app.register(rateLimitPlugin, { config, db: database.db });
  await app.register(openApiPlugin);

  // Routes only translate HTTP; each concept registers its public and its staff (admin) routes.
  await app.register(accountsRoutes);
  await app.register(phoneVerificationRoutes);
  await app.register(passwordResetRoutes);
  await app.register(restaurantsRoutes);
  await app.register(restaurantsAdminRoutes);
  await app.register(restaurantPhotosRoutes);
  await app.register(remindersAdminRoutes);
  await app.register(remindersRoutes);
  await app.register(slotsAdminRoutes);
  await app.register(floorAdminRoutes);
  await app.register(floorLiveAdminRoutes);
  await app.register(availabilityRoutes);
  await app.register(reservationsRoutes);
  await app.register(reservationsAdminRoutes);
  await app.register(bookingChangeRoutes);
  await app.register(bookingSearchAdminRoutes);
  await app.register(guestsAdminRoutes);
  await app.register(depositsRoutes);
  await app.register(datingRoutes);
  await app.register(datingAdminRoutes);
  await app.register(datingModerationRoutes);
  await app.register(notificationsRoutes);
  await app.register(pushRoutes);
  await app.register(dropsRoutes);
  await app.register(dropsAdminRoutes);
  await app.register(waitlistRoutes);
  await app.register(paymentsRoutes);
  await app.register(strikesRoutes);
  await app.register(strikesAdminRoutes);

  app.get('/api/health', { schema: { hide: true } }, async () => ({ ok: true }));
  app.get('/api/ready', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await database.ping();
      return { ok: true };
    } catch {
      return reply.code(503).send({ error: 'The database is not reachable' });
    }
  });

  await app.register(staticWebPlugin, { webDistDir: config.webDistDir });

  if (runBackgroundJobs) wiring.startJobs();

  return app;
}
