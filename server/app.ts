import Fastify, { type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import { compressionOptions } from './http-compression.ts';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { systemClock, type Clock } from './clock.ts';
import { fastifyTrustProxy, type AppConfig } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { AppDeps } from './deps.ts';
import { AppEvents } from './events.ts';
import { loggerOptions, type LogDestination } from './logging.ts';
import { AppMetrics } from './metrics.ts';
import { healthPlugin } from './plugins/health.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { requestIdGenerator, requestIdPlugin } from './plugins/request-id.ts';
import { answerFrameworkError, errorHandlerPlugin } from './plugins/error-handler.ts';
import { etagPlugin } from './plugins/etag.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { sessionsPlugin } from './plugins/sessions.ts';
import { slowClientsPlugin } from './plugins/slow-clients.ts';
import { staticWebPlugin } from './plugins/static-web.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { createAccountsService } from './modules/accounts/accounts.service.ts';
import { createPhoneVerificationService } from './modules/accounts/phone-verification.service.ts';
import { phoneVerificationRoutes } from './modules/accounts/phone-verification.routes.ts';
import { createSessionsService } from './modules/accounts/sessions.service.ts';
import { createEmailVerification } from './modules/accounts/email-verification.service.ts';
import { createPasswordResetService } from './modules/accounts/password-reset.service.ts';
import { passwordResetRoutes } from './modules/accounts/password-reset.routes.ts';
import { createStaffPasswords } from './modules/accounts/staff-passwords.service.ts';
import { createDatingRecovery } from './modules/dating/dating-recovery.service.ts';
import { availabilityRoutes } from './modules/availability/availability.routes.ts';
import { createAvailabilityService } from './modules/availability/availability.service.ts';
import { datingRoutes } from './modules/dating/dating.routes.ts';
import { datingAdminRoutes } from './modules/dating/dating.admin.routes.ts';
import { datingModerationRoutes } from './modules/dating/dating.moderation.routes.ts';
import { createDatingModeration } from './modules/dating/dating-moderation.service.ts';
import { createDatingPartners } from './modules/dating/dating-partners.service.ts';
import { createDatingService } from './modules/dating/dating.service.ts';
import { createDropOffers } from './modules/drops/drop-offers.ts';
import { dropsAdminRoutes } from './modules/drops/drops.admin.routes.ts';
import { createDropsAdminService } from './modules/drops/drops.admin.service.ts';
import { dropsRoutes } from './modules/drops/drops.routes.ts';
import { createDropsService } from './modules/drops/drops.service.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { createRemindersService } from './modules/reminders/reminders.service.ts';
import { remindersAdminRoutes } from './modules/reminders/reminders.admin.routes.ts';
import { remindersRoutes } from './modules/reminders/reminders.routes.ts';
import { createPagesService } from './modules/pages/pages.service.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { createPaymentsService } from './modules/payments/payments.service.ts';
import { reservationsAdminRoutes } from './modules/reservations/reservations.admin.routes.ts';
import { createReservationsAdminService } from './modules/reservations/reservations.admin.service.ts';
import { reservationsRoutes } from './modules/reservations/reservations.routes.ts';
import { bookingSearchAdminRoutes } from './modules/reservations/booking-search.admin.routes.ts';
import { createBookingSearch } from './modules/reservations/booking-search.ts';
import { createDepositsService } from './modules/reservations/deposits.service.ts';
import { createDatePlans } from './modules/dating/date-plans.service.ts';
import { depositsRoutes } from './modules/reservations/deposits.routes.ts';
import { createReservationsService } from './modules/reservations/reservations.service.ts';
import { restaurantsAdminRoutes } from './modules/restaurants/restaurants.admin.routes.ts';
import { restaurantsRoutes } from './modules/restaurants/restaurants.routes.ts';
import { createRestaurantsService } from './modules/restaurants/restaurants.service.ts';
import { createRestaurantPhotos } from './modules/restaurants/restaurant-photos.service.ts';
import { restaurantPhotosRoutes } from './modules/restaurants/restaurant-photos.routes.ts';
import { slotsAdminRoutes } from './modules/slots/slots.admin.routes.ts';
import { createSlotsService } from './modules/slots/slots.service.ts';
import { createStorageService } from './modules/storage/storage.service.ts';
import { createWaitlistService } from './modules/waitlist/waitlist.service.ts';
import { waitlistRoutes } from './modules/waitlist/waitlist.routes.ts';
import { createStrikesService } from './modules/strikes/strikes.service.ts';
import { strikesAdminRoutes } from './modules/strikes/strikes.admin.routes.ts';
import { strikesRoutes } from './modules/strikes/strikes.routes.ts';

export interface BuildAppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  clock?: Clock;
  /** Start the periodic hold sweeper (off in tests that drive time by hand). */
  runBackgroundJobs?: boolean;
  /** Where log lines go (a test reads them); stdout when unset. */
  logDestination?: LogDestination;
}

/**
 * Wires every service from the shared dependencies: the one place services are constructed
 * (decision 091). Services call each other, never each other's SQL.
 */
function createServices(deps: AppDeps) {
  const sessions = createSessionsService(deps);
  const accounts = createAccountsService(deps, sessions);
  const storage = createStorageService(deps);
  const restaurantPhotos = createRestaurantPhotos(deps, storage);
  const restaurants = createRestaurantsService(deps, storage, restaurantPhotos);
  const slots = createSlotsService(deps);
  const availability = createAvailabilityService(deps, restaurants);
  const pages = createPagesService(availability);
  const strikes = createStrikesService(deps);
  const reservations = createReservationsService(deps, restaurants, availability, strikes);
  const notifications = createNotificationsService(deps);
  const reminders = createRemindersService(deps, notifications, reservations);
  const reservationsAdmin = createReservationsAdminService(deps, reservations, strikes, reminders);
  const bookingSearch = createBookingSearch(deps);
  const dating = createDatingService(deps, sessions, storage, notifications);
  const datingPartners = createDatingPartners(deps);
  // The moderation list of reported members (decision 185): a moderator's SUSPEND revokes the member's sessions.
  const datingModeration = createDatingModeration(deps, sessions);
  const phoneVerification = createPhoneVerificationService(deps, notifications);
  // Forgot password for the three sign-ins, and the welcome email that proves a diner's address (decisions 230, 231).
  const passwordReset = createPasswordResetService(deps, sessions, notifications, createDatingRecovery());
  const emailVerification = createEmailVerification(deps, notifications);
  accounts.onDinerSignup(emailVerification.queueConfirmation);
  const staffPasswords = createStaffPasswords(deps, sessions);
  const dropOffers = createDropOffers(deps, reservations, notifications, slots);
  const drops = createDropsService(deps, dropOffers, phoneVerification, strikes);
  const dropsAdmin = createDropsAdminService(deps, dropOffers, slots);
  const waitlist = createWaitlistService(deps, restaurants, reservations, notifications);
  // Payments knows no other module: reservations' deposits and dating's date plans subscribe to onStatusChange.
  const payments = createPaymentsService(deps);
  const deposits = createDepositsService(deps, reservations, payments, notifications, strikes);
  const datePlans = createDatePlans(deps, reservations, payments, restaurants, datingModeration);
  return {
    reminders,
    sessions,
    accounts,
    storage,
    restaurants,
    restaurantPhotos,
    slots,
    availability,
    pages,
    reservations,
    reservationsAdmin,
    bookingSearch,
    strikes,
    dating,
    datingPartners,
    datingModeration,
    datePlans,
    notifications,
    phoneVerification,
    passwordReset,
    emailVerification,
    staffPasswords,
    dropOffers,
    drops,
    dropsAdmin,
    waitlist,
    payments,
    deposits,
  };
}

/** Stops what services run in the background (listeners, caches, mail transports), when the app closes. */
function stopServices(services: ReturnType<typeof createServices>): void {
  services.dropOffers.stop();
  services.waitlist.stop();
  services.availability.close();
  services.notifications.close();
}

export type AppServices = ReturnType<typeof createServices>;

/** Builds the HTTP app: infrastructure plugins first, then the modules. Tests build it too. */
export async function buildApp({ config, database, clock = systemClock, runBackgroundJobs = true, logDestination }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, logDestination),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Node's own backstop for slow clients; slowClientsPlugin answers them on time (decision 096).
    requestTimeout: Math.ceil(config.requestTimeouts.requestSeconds * 1000),
    bodyLimit: 256 * 1024,
    frameworkErrors: answerFrameworkError,
    // One id per request, a trusted proxy's when it sent one (x-request-id or traceparent).
    genReqId: requestIdGenerator(config.trustProxy),
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
  app.addHook('onClose', async () => {
    stopServices(services);
    await deps.events.close();
  });

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
  await app.register(availabilityRoutes);
  await app.register(reservationsRoutes);
  await app.register(reservationsAdminRoutes);
  await app.register(bookingSearchAdminRoutes);
  await app.register(depositsRoutes);
  await app.register(datingRoutes);
  await app.register(datingAdminRoutes);
  await app.register(datingModerationRoutes);
  await app.register(notificationsRoutes);
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

  if (runBackgroundJobs) {
    const timer = setInterval(() => {
      app.services.reservations.expireDueHolds().catch((error) => app.log.warn({ err: error }, 'hold sweep failed'));
      // Fair access: draws due, tables freed for a drop's line or a waitlist, email and SMS to retry.
      // Each step is idempotent, so after a restart nothing an event would have done is lost.
      void (async () => {
        const { dropOffers, waitlist, notifications, dating, payments, deposits } = app.services;
        // …and dating photo uploads nobody claimed in time (issue 12 item 7), logging the storage in use;
        // payments nobody approved before their owner stopped waiting expire (a later approval is released),
        // and payment requests whose answer never came are sent again with their own keys.
        for (const step of [
          dropOffers.runDueWork,
          waitlist.runDueWork,
          // Deposit money moves left undone and authorisations whose listener never ran (decision 130).
          () => deposits.sweep(),
          // Date plans past their deadline or their arrival grace, and their deposit moves and payouts (decision 184).
          () => app.services.datePlans.sweep(),
          // Reminders due before reservations (issue 16), queued before the outbox sends what is due.
          () => app.services.reminders.sendDue(),
          () => notifications.deliverDue(),
          () => dating.sweepUploads(),
          () => payments.expireOverdue(),
          () => payments.retryUnansweredCalls(),
          // Payouts to a member whose send timed out (decision 184).
          () => payments.sendPendingPayouts(),
        ]) {
          await step().catch((error: unknown) => app.log.warn({ err: error }, 'fair-access sweep step failed'));
        }
      })();
    }, config.holdSweepSeconds * 1000);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }

  return app;
}
