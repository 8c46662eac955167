import type { PaymentPurpose } from '#common/contract/payments.ts';
import type { AppDeps } from './deps.ts';
import { createAccountDeletion } from './modules/accounts/account-deletion.service.ts';
import { createAccountsService } from './modules/accounts/accounts.service.ts';
import { createEmailVerification } from './modules/accounts/email-verification.service.ts';
import { createPasswordResetService } from './modules/accounts/password-reset.service.ts';
import { createStaffPasswords } from './modules/accounts/staff-passwords.service.ts';
import { createPhoneVerificationService } from './modules/accounts/phone-verification.service.ts';
import { createSessionsService } from './modules/accounts/sessions.service.ts';
import { createAvailabilityService } from './modules/availability/availability.service.ts';
import { createDatingErasure } from './modules/dating/dating-erasure.ts';
import { createFloorService } from './modules/floor/floor.service.ts';
import { createFloorLive } from './modules/floor/floor-live.service.ts';
import { createDatePlans } from './modules/dating/date-plans.service.ts';
import { createDatingModeration } from './modules/dating/dating-moderation.service.ts';
import { createDatingRecovery } from './modules/dating/dating-recovery.service.ts';
import { createDatingPartners } from './modules/dating/dating-partners.service.ts';
import { createDatingService } from './modules/dating/dating.service.ts';
import { createGuestsService } from './modules/guests/guests.service.ts';
import { createDropOffers } from './modules/drops/drop-offers.ts';
import { createDropsAdminService } from './modules/drops/drops.admin.service.ts';
import { createDropsService } from './modules/drops/drops.service.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { createPushService } from './modules/notifications/push.service.ts';
import { createPagesService } from './modules/pages/pages.service.ts';
import { createPaymentsService } from './modules/payments/payments.service.ts';
import { createRemindersService } from './modules/reminders/reminders.service.ts';
import { createChangeBooking } from './modules/reservations/change-booking.ts';
import { createDepositsService } from './modules/reservations/deposits.service.ts';
import { createBookingSearch } from './modules/reservations/booking-search.ts';
import { createReservationsAdminService } from './modules/reservations/reservations.admin.service.ts';
import { createReservationsService } from './modules/reservations/reservations.service.ts';
import { createRestaurantPhotos } from './modules/restaurants/restaurant-photos.service.ts';
import { createRestaurantsService } from './modules/restaurants/restaurants.service.ts';
import { createSlotsService } from './modules/slots/slots.service.ts';
import { createStorageService } from './modules/storage/storage.service.ts';
import { createStrikesService } from './modules/strikes/strikes.service.ts';
import { createWaitlistService } from './modules/waitlist/waitlist.service.ts';

/**
 * The composition root (decision 189): every service is built here, and every connection between
 * modules is made here, by name: the listeners (who hears whom once the speaker's transaction has
 * committed), the steps every reservation move runs, and the background jobs with their interval.
 * No module subscribes to another inside its own factory; each exposes its handlers and this file
 * wires them. docs/architecture.md lists the same three tables; server/composition.db.test.ts fails
 * when the two differ.
 */

/**
 * Builds every service from the shared dependencies, in dependency order (decision 091). Services
 * call each other, never each other's SQL.
 */
export function createServices(deps: AppDeps) {
  const sessions = createSessionsService(deps);
  const accounts = createAccountsService(deps, sessions);
  const storage = createStorageService(deps);
  const restaurantPhotos = createRestaurantPhotos(deps, storage);
  const restaurants = createRestaurantsService(deps, storage, restaurantPhotos);
  const slots = createSlotsService(deps);
  const floor = createFloorService(deps);
  const availability = createAvailabilityService(deps, restaurants, floor);
  const pages = createPagesService(availability);
  const strikes = createStrikesService(deps);
  const notifications = createNotificationsService(deps);
  const push = createPushService(deps, notifications.vapidPublicKey);
  // Payments knows no other module: its owners hear it through the listeners wired below.
  const payments = createPaymentsService(deps);
  const reservations = createReservationsService(deps, restaurants, availability, strikes, floor);
  const deposits = createDepositsService(deps, reservations, payments, notifications, restaurants);
  const bookingChanges = createChangeBooking(deps, floor, payments, restaurants);
  const reminders = createRemindersService(deps, notifications, reservations, deposits);
  const reservationsAdmin = createReservationsAdminService(deps, reservations, strikes, reminders);
  const bookingSearch = createBookingSearch(deps);
  // Knowing your guests (decisions 261-265): the staff's card, list and brief.
  const guests = createGuestsService(deps, restaurants);
  // The host view (decision 245): seats, walk-ins, moves and finishes on the floor, through the reservation moves.
  const floorLive = createFloorLive(deps, floor, reservations, reservationsAdmin);
  const dating = createDatingService(deps, sessions, storage, notifications);
  const datingPartners = createDatingPartners(deps);
  // The moderation list of reported members (decision 185): a moderator's SUSPEND revokes the member's sessions.
  const datingModeration = createDatingModeration(deps, sessions);
  const datePlans = createDatePlans(deps, reservations, payments, restaurants, notifications);
  const phoneVerification = createPhoneVerificationService(deps, notifications);
  // Forgot password for the three sign-ins, and the welcome email that proves a diner's address (decisions 230, 231).
  const passwordReset = createPasswordResetService(deps, sessions, notifications, createDatingRecovery());
  const emailVerification = createEmailVerification(deps, notifications);
  const staffPasswords = createStaffPasswords(deps, sessions);
  const dropOffers = createDropOffers(deps, reservations, notifications, slots);
  const drops = createDropsService(deps, dropOffers, phoneVerification, strikes);
  const dropsAdmin = createDropsAdminService(deps, dropOffers, slots);
  const waitlist = createWaitlistService(deps, restaurants, reservations, notifications, strikes);
  // "Delete my account" (decision 266): reaches every module that holds something of the diner.
  const accountDeletion = createAccountDeletion(deps, {
    reservations,
    guests,
    notifications,
    datingErasure: createDatingErasure(storage, push),
    waitlist,
    drops,
  });
  return {
    accountDeletion,
    reminders,
    sessions,
    accounts,
    storage,
    restaurants,
    restaurantPhotos,
    slots,
    floor,
    floorLive,
    availability,
    pages,
    reservations,
    reservationsAdmin,
    bookingSearch,
    guests,
    strikes,
    dating,
    datingPartners,
    datingModeration,
    datePlans,
    notifications,
    push,
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
    bookingChanges,
  };
}

export type AppServices = ReturnType<typeof createServices>;

/** Stops what services run in the background themselves (caches, mail transports), when the app closes. */
export function stopServices(services: AppServices): void {
  services.availability.close();
  services.notifications.close();
}

/** A listener the root connected: the speaker's hook and the handler that hears it, as `service.function`. */
export interface ListenerRegistration {
  event: string;
  listener: string;
}

/** A background job: its name, the setting its interval comes from, and the service function it runs. */
export interface JobRegistration {
  job: string;
  every: string;
  runs: string;
}

/** The connections the root made, by name, and what undoes them. */
export class ModuleWiring {
  readonly listeners: ListenerRegistration[] = [];
  /** Steps of every reservation move, in the order they run. */
  readonly moveSteps: string[] = [];
  readonly jobs: (JobRegistration & { seconds: number; run: () => Promise<unknown> })[] = [];
  private readonly undo: (() => void)[] = [];
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly log: AppDeps['log']) {}

  /** Records a listener the caller has just subscribed (`unsubscribe` undoes it). */
  listener(event: string, listener: string, unsubscribe: () => void): void {
    this.listeners.push({ event, listener });
    this.undo.push(unsubscribe);
  }

  /** Records a reservation move step the caller has just added (`remove` undoes it). */
  moveStep(step: string, remove: () => void): void {
    this.moveSteps.push(step);
    this.undo.push(remove);
  }

  /** Registers a background job, run every `seconds` (from the setting `every`) once jobs start. */
  job(job: string, every: { setting: string; seconds: number }, runs: string, run: () => Promise<unknown>): void {
    this.jobs.push({ job, every: every.setting, runs, seconds: every.seconds, run });
  }

  /**
   * Starts the jobs: one timer per interval, whose tick runs its jobs one after another in the
   * order they were registered (a job may rely on an earlier one: reminders are queued before the
   * outbox delivers). Every job is idempotent, so after a restart nothing a listener would have
   * done is lost; a failure is logged with the job's name and the next job runs.
   */
  startJobs(): void {
    for (const seconds of new Set(this.jobs.map((job) => job.seconds))) {
      const due = this.jobs.filter((job) => job.seconds === seconds);
      const timer = setInterval(() => {
        void (async () => {
          for (const { job, run } of due) await run().catch((error: unknown) => this.log.warn({ err: error, job }, 'background job failed'));
        })();
      }, seconds * 1000);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** Stops the jobs and undoes every connection (the app is closing). */
  stop(): void {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    for (const undo of this.undo.splice(0)) undo();
  }
}

/** Payments' purposes the deposits code owns; dating's date plans own `dating_deposit`. */
const RESERVATION_MONEY: readonly PaymentPurpose[] = ['reservation_deposit', 'reservation_prepayment'];
const DATE_MONEY: readonly PaymentPurpose[] = ['dating_deposit'];

/** Connects the modules: every listener, move step and background job, in one place. */
export function connectModules(services: AppServices, deps: AppDeps): ModuleWiring {
  const {
    payments,
    deposits,
    bookingChanges,
    datePlans,
    strikes,
    datingModeration,
    reservations,
    reminders,
    waitlist,
    dropOffers,
    notifications,
    dating,
    accounts,
    emailVerification,
  } = services;
  const { events, config } = deps;
  const wiring = new ModuleWiring(deps.log);

  // Listeners: who hears whom, after the speaker's transaction has committed.
  wiring.listener('payments.onStatusChange', 'deposits.onPaymentChange', payments.onStatusChange(deposits.onPaymentChange, RESERVATION_MONEY));
  wiring.listener('payments.onStatusChange', 'bookingChanges.onPaymentChange', payments.onStatusChange(bookingChanges.onPaymentChange, RESERVATION_MONEY));
  wiring.listener('payments.onStatusChange', 'datePlans.onPaymentChange', payments.onStatusChange(datePlans.onPaymentChange, DATE_MONEY));
  wiring.listener('strikes.onDisputeUpheld', 'deposits.onDisputeUpheld', strikes.onDisputeUpheld(deposits.onDisputeUpheld));
  wiring.listener('datingModeration.onMemberSuspended', 'datePlans.onMemberSuspended', datingModeration.onMemberSuspended(datePlans.onMemberSuspended));
  wiring.listener('dating.onPairBlocked', 'datePlans.onPairBlocked', dating.onPairBlocked(datePlans.onPairBlocked));
  wiring.listener("events 'slot.freed'", 'waitlist.onSlotFreed', events.subscribe('slot.freed', waitlist.onSlotFreed));
  wiring.listener("events 'slot.freed'", 'dropOffers.onSlotFreed', events.subscribe('slot.freed', dropOffers.onSlotFreed));
  wiring.listener('accounts.onDinerSignup', 'emailVerification.queueConfirmation', accounts.onDinerSignup(emailVerification.queueConfirmation));
  wiring.listener('bookingChanges.onChangeApplied', 'reminders.queueChangeEmail', bookingChanges.onChangeApplied(reminders.queueChangeEmail));

  // Steps of every reservation move, in this order, inside the move's transaction.
  wiring.moveStep('deposits.moneyMoveStep', reservations.addMoveStep(deposits.moneyMoveStep));
  wiring.moveStep('bookingChanges.extraMoneyStep', reservations.addMoveStep(bookingChanges.extraMoneyStep));
  wiring.moveStep('reminders.calendarUpdateStep', reservations.addMoveStep(reminders.calendarUpdateStep));
  wiring.moveStep('datePlans.tableMoveStep', reservations.addMoveStep(datePlans.tableMoveStep));

  // Background jobs, each idempotent (run only when the app runs them: buildApp's runBackgroundJobs).
  const sweep = { setting: 'HOLD_SWEEP_SECONDS', seconds: config.holdSweepSeconds };
  wiring.job('holds past their expiry', sweep, 'reservations.expireDueHolds', reservations.expireDueHolds);
  wiring.job('drop draws and offers', sweep, 'dropOffers.runDueWork', dropOffers.runDueWork);
  wiring.job('waitlist offers', sweep, 'waitlist.runDueWork', waitlist.runDueWork);
  wiring.job('deposit money moves', sweep, 'deposits.sweep', deposits.sweep);
  wiring.job('date plans', sweep, 'datePlans.sweep', datePlans.sweep);
  wiring.job('reminders due', sweep, 'reminders.sendDue', reminders.sendDue);
  wiring.job('outbox delivery', sweep, 'notifications.deliverDue', notifications.deliverDue);
  wiring.job('unclaimed dating uploads', sweep, 'dating.sweepUploads', dating.sweepUploads);
  wiring.job('payments past their approval time', sweep, 'payments.expireOverdue', payments.expireOverdue);
  wiring.job('unanswered payment requests', sweep, 'payments.retryUnansweredCalls', payments.retryUnansweredCalls);
  wiring.job('payouts pending', sweep, 'payments.sendPendingPayouts', payments.sendPendingPayouts);
  return wiring;
}
