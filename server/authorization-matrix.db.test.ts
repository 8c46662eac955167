import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, toPgArray } from '#server/db/client.ts';
import { bearer, createTestApp, type TestApp, requestHold } from '#server/test/app.ts';
import { signBytes } from '#server/signing.ts';
import { DEFAULT_FLOOR_SETTINGS } from '#common/domain/floor.ts';
import { buildDiner, buildModerator, buildRestaurant, buildSlot, buildStaff, type BuiltAccount } from '#server/test/factories.ts';

/**
 * Who may call what, as one table: every endpoint × {anonymous, diner A, diner B, staff of X,
 * staff of Y, a Tablefair moderator} → the status expected. Resources in paths belong to diner A
 * and restaurant X. A moderator's token is no diner's, staff's or dating credential: a row that
 * names no status for the moderator expects 401 (decision 185).
 *
 * One call's effect must not change another's answer. A call that is expected to succeed and is
 * not a read (a hold confirmed, a policy saved, a sign-out) gets a fixture of its own. Every read
 * and every refusal changes nothing, so they share one fixture, built once; the last test checks
 * that they left it exactly as it was built (decision 197).
 */
type Caller = 'anonymous' | 'dinerA' | 'dinerB' | 'staffX' | 'staffY' | 'moderator';
const callers: Caller[] = ['anonymous', 'dinerA', 'dinerB', 'staffX', 'staffY', 'moderator'];
type Expectation = Record<Exclude<Caller, 'moderator'>, number> & { moderator?: number };
const expected = (row: Row, caller: Caller): number => row.expect[caller] ?? 401;

interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Placeholders: {slugX} {restaurantX} {reservationA} {confirmedA} {slotX} {dinerA} (diner A's account) {dropX} {waitlistA} {paymentA} {provider} {missingId} (an id nothing has) {foreignLink} (a link signed with another key) {photoWidth} (a stored photo width); {photoId} is sent as written (no photo has that id) */
  path: string;
  /** A server-sent event stream: called over real HTTP and closed once the status is known. */
  stream?: boolean;
  body?: (fixture: Fixture) => unknown;
  expect: Expectation;
}

const all = (status: number): Expectation => ({ anonymous: status, dinerA: status, dinerB: status, staffX: status, staffY: status, moderator: status });
const staffOnly = (ok: number): Expectation => ({ anonymous: 401, dinerA: 401, dinerB: 401, staffX: ok, staffY: ok, moderator: 401 });
const dinerOnly = (ok: number): Expectation => ({ anonymous: 401, dinerA: ok, dinerB: ok, staffX: 401, staffY: 401, moderator: 401 });
const moderatorOnly = (ok: number): Expectation => ({ anonymous: 401, dinerA: 401, dinerB: 401, staffX: 401, staffY: 401, moderator: ok });

let signupCounter = 0;

/** A well-formed one-tap link for diner A's kind of reservation, signed with a key the app does not have. */
const FOREIGN_LINK = signBytes(Buffer.alloc(21, 1), 'not-the-app-signing-key-0123456789');

export const authorizationTable: Row[] = [
  {
    method: 'POST',
    path: '/api/auth/signup',
    body: () => ({ username: `matrix_${Date.now() % 1e6}_${signupCounter++}`, password: 'password123' }),
    expect: all(201),
  },
  { method: 'POST', path: '/api/auth/login', body: () => ({ username: 'nobody_here', password: 'wrong-password' }), expect: all(401) },
  { method: 'POST', path: '/api/auth/restaurant-login', body: () => ({ username: 'nobody_here', password: 'wrong-password' }), expect: all(401) },
  // Forgot password (decision 230): open to anyone, and the same 202 whether or not an account matches.
  { method: 'POST', path: '/api/auth/password-reset', body: () => ({ account: 'diner', identifier: `nobody_${signupCounter++}` }), expect: all(202) },
  {
    method: 'POST',
    path: '/api/auth/password-reset/confirm',
    body: () => ({ resetId: '00000000-0000-4000-8000-000000000000', code: '123456', password: 'new-password-1' }),
    expect: all(404),
  },
  { method: 'POST', path: '/api/auth/email/confirm', body: () => ({ token: 'forged.token' }), expect: all(404) },
  // A restaurant login's new password from the platform (decision 231): Tablefair moderators only.
  { method: 'GET', path: '/api/moderation/staff-accounts?q=kitchen', expect: moderatorOnly(200) },
  { method: 'PUT', path: '/api/moderation/staff-accounts/{missingId}/password', body: () => ({ password: 'new-password-1' }), expect: moderatorOnly(404) },
  { method: 'GET', path: '/api/restaurants', expect: all(200) },
  // A restaurant's photos (decision 234): public to read; staff add, order and remove their own.
  { method: 'GET', path: '/api/restaurant-photos/{missingId}/{photoWidth}', expect: all(404) },
  { method: 'POST', path: '/api/admin/restaurant/photos', body: () => ({ purpose: 'gallery' }), expect: staffOnly(415) },
  { method: 'DELETE', path: '/api/admin/restaurant/photos/{missingId}', expect: staffOnly(404) },
  { method: 'POST', path: '/api/admin/restaurant/photos/{missingId}/cover', body: () => ({}), expect: staffOnly(404) },
  // Find a booking (decision 236): the staff's own restaurant's bookings only.
  { method: 'GET', path: '/api/admin/bookings/search?q=asha', expect: staffOnly(200) },
  { method: 'GET', path: '/api/restaurants/{slugX}', expect: all(200) },
  { method: 'GET', path: '/api/restaurants/{slugX}/availability?date=2026-11-23&partySize=2', expect: all(200) },
  { method: 'GET', path: '/api/restaurants/{slugX}/calendar', expect: all(200) },
  { method: 'GET', path: '/api/restaurant/{restaurantX}/hero-image', expect: all(200) },
  { method: 'GET', path: '/api/discover/available-today', expect: all(200) },
  { method: 'GET', path: '/api/auth/me', expect: dinerOnly(200) },
  { method: 'POST', path: '/api/auth/logout', expect: all(204) },
  // "Delete my account" (decision 266): the signed-in diner's own only.
  { method: 'DELETE', path: '/api/auth/me', expect: dinerOnly(200) },
  { method: 'GET', path: '/api/reservations', expect: dinerOnly(200) },
  { method: 'GET', path: '/api/reservations/status', expect: dinerOnly(200) },
  {
    method: 'POST',
    path: '/api/reservations',
    body: (f) => ({ restaurantSlug: f.slugX, date: '2026-11-23', time: '20:00', partySize: 2 }),
    expect: dinerOnly(201),
  },
  // The hold screen works with the id alone while it is a hold (diner A's is HELD); a diner token sent must be the owner's.
  { method: 'GET', path: '/api/reservations/{reservationA}', expect: { anonymous: 200, dinerA: 200, dinerB: 403, staffX: 401, staffY: 401 } },
  {
    method: 'POST',
    path: '/api/reservations/{reservationA}/confirm',
    body: () => ({}),
    expect: { anonymous: 200, dinerA: 200, dinerB: 403, staffX: 401, staffY: 401 },
  },
  {
    method: 'POST',
    path: '/api/reservations/{reservationA}/cancel',
    body: () => ({}),
    expect: { anonymous: 200, dinerA: 200, dinerB: 403, staffX: 401, staffY: 401 },
  },
  // An accepted (CONFIRMED) booking of diner A: still readable by id, but only its owner's token moves it (decision 097).
  { method: 'GET', path: '/api/reservations/{confirmedA}', expect: { anonymous: 200, dinerA: 200, dinerB: 403, staffX: 401, staffY: 401 } },
  {
    method: 'POST',
    path: '/api/reservations/{confirmedA}/confirm',
    body: () => ({}),
    expect: { anonymous: 401, dinerA: 409, dinerB: 403, staffX: 401, staffY: 401 },
  },
  {
    method: 'POST',
    path: '/api/reservations/{confirmedA}/cancel',
    body: () => ({}),
    expect: { anonymous: 401, dinerA: 200, dinerB: 403, staffX: 401, staffY: 401 },
  },
  // What a diner tells the restaurant (decision 260): the id alone while a hold, the owner's token after.
  {
    method: 'PUT',
    path: '/api/reservations/{reservationA}/request',
    body: () => ({ occasion: 'birthday', picks: ['jain'], note: 'A window seat' }),
    expect: { anonymous: 200, dinerA: 200, dinerB: 403, staffX: 401, staffY: 401 },
  },
  { method: 'DELETE', path: '/api/reservations/{confirmedA}/request', expect: { anonymous: 401, dinerA: 200, dinerB: 403, staffX: 401, staffY: 401 } },
  // Knowing your guests (decisions 261-265): a restaurant's own guests only; another's guest or booking is not found.
  { method: 'GET', path: '/api/admin/guests?q=a&tag=vip&lastVisitWithin=90&minVisits=0', expect: staffOnly(200) },
  { method: 'GET', path: '/api/admin/guests.csv', expect: staffOnly(200) },
  { method: 'GET', path: '/api/admin/guests/brief?date=2026-11-23', expect: staffOnly(200) },
  { method: 'GET', path: '/api/admin/guest-cards/{reservationA}', expect: { anonymous: 401, dinerA: 401, dinerB: 401, staffX: 200, staffY: 404 } },
  { method: 'GET', path: '/api/admin/guests/{dinerA}', expect: { anonymous: 401, dinerA: 401, dinerB: 401, staffX: 200, staffY: 404 } },
  {
    method: 'PUT',
    path: '/api/admin/guests/{dinerA}/notes',
    body: () => ({ tags: ['vip'], note: 'Window seat' }),
    expect: { anonymous: 401, dinerA: 401, dinerB: 401, staffX: 200, staffY: 404 },
  },
  // Changing a booking (decision 280): its owner only; to another diner it does not exist.
  {
    method: 'GET',
    path: '/api/reservations/{confirmedA}/change-terms?date=2026-11-23&time=20:00&partySize=2',
    expect: { anonymous: 401, dinerA: 200, dinerB: 404, staffX: 401, staffY: 401 },
  },
  {
    method: 'POST',
    path: '/api/reservations/{confirmedA}/change',
    body: () => ({ date: '2026-11-23', time: '20:00', partySize: 2 }),
    expect: { anonymous: 401, dinerA: 200, dinerB: 404, staffX: 401, staffY: 401 },
  },
  { method: 'GET', path: '/api/reservations/{confirmedA}/changes', expect: { anonymous: 401, dinerA: 200, dinerB: 404, staffX: 401, staffY: 401 } },
  // The portal: every call is the staff's own restaurant; another restaurant's things are not found.
  { method: 'GET', path: '/api/admin/restaurant', expect: staffOnly(200) },
  { method: 'PUT', path: '/api/admin/restaurant', body: () => ({ name: 'Renamed Place', neighborhood: 'Indiranagar' }), expect: staffOnly(200) },
  { method: 'GET', path: '/api/admin/deposit-policy', expect: staffOnly(200) },
  {
    method: 'PUT',
    path: '/api/admin/deposit-policy',
    body: () => ({
      defaultCharge: { kind: 'deposit', perCoverPaise: 50_000 },
      rules: [],
      freeCancelMinutes: 120,
      lateCancelKeepPercent: 100,
      noShowKeepPercent: 100,
    }),
    expect: staffOnly(200),
  },
  // Reminders before reservations: the staff's own restaurant's setting (decision 150).
  { method: 'GET', path: '/api/admin/reminders', expect: staffOnly(200) },
  { method: 'PUT', path: '/api/admin/reminders', body: () => ({ remindersOn: true }), expect: staffOnly(200) },
  // The one-tap links and the calendar file: the signed link is the access, whoever calls; one
  // signed with another key is refused alike (reminder-links.db.test.ts covers genuine ones).
  { method: 'GET', path: '/api/reminder-links/{foreignLink}', expect: all(400) },
  { method: 'POST', path: '/api/reminder-links/{foreignLink}', body: () => ({}), expect: all(400) },
  { method: 'GET', path: '/api/calendar/{foreignLink}', expect: all(400) },
  // The calendar link of diner A's reservation: only for its owner; to another diner it does not exist.
  {
    method: 'GET',
    path: '/api/reservations/{reservationA}/calendar-link',
    expect: { anonymous: 401, dinerA: 200, dinerB: 404, staffX: 401, staffY: 401 },
  },
  // Hosting Tablefair dates: the staff's own restaurant only (decision 183).
  { method: 'GET', path: '/api/admin/date-partner', expect: staffOnly(200) },
  {
    method: 'PUT',
    path: '/api/admin/date-partner',
    body: () => ({ budget: 'INR_1000_2500', neighbourhood: 'Indiranagar', cuisines: ['ITALIAN'], dateTypes: ['DINNER'] }),
    expect: staffOnly(200),
  },
  { method: 'DELETE', path: '/api/admin/date-partner', expect: staffOnly(200) },
  // Tablefair dates at the staff's own restaurant (decision 184); a plan of another restaurant does not exist.
  { method: 'GET', path: '/api/admin/dates?date=2026-11-23', expect: staffOnly(200) },
  { method: 'POST', path: '/api/admin/dates/{missingId}/arrivals', body: () => ({ memberId: '00000000-0000-4000-8000-000000000001' }), expect: staffOnly(404) },
  { method: 'DELETE', path: '/api/admin/dates/{missingId}/arrivals/{missingId}', expect: staffOnly(404) },
  { method: 'GET', path: '/api/admin/slots?date=2026-11-23', expect: staffOnly(200) },
  {
    method: 'POST',
    path: '/api/admin/slots/bulk',
    body: () => ({ date: '2026-11-24', start: '18:00', end: '19:00', interval: 30, capacity: 4 }),
    expect: staffOnly(201),
  },
  {
    method: 'PATCH',
    path: '/api/admin/slots/{slotX}',
    body: () => ({ status: 'full' }),
    expect: { anonymous: 401, dinerA: 401, dinerB: 401, staffX: 200, staffY: 404 },
  },
  // The floor (decision 240): the staff's own tables, settings and table assignments only.
  { method: 'GET', path: '/api/admin/floor', expect: staffOnly(200) },
  {
    method: 'PUT',
    path: '/api/admin/floor/tables',
    body: () => ({ tables: [{ name: 'T1', section: 'indoor', minCovers: 1, maxCovers: 2, onlineBookable: true }], combinations: [] }),
    expect: staffOnly(200),
  },
  {
    method: 'PUT',
    path: '/api/admin/floor/settings',
    body: () => ({ ...DEFAULT_FLOOR_SETTINGS, pacing: { maxCovers: 20, maxParties: null } }),
    expect: staffOnly(200),
  },
  { method: 'GET', path: '/api/admin/floor/day?date=2026-11-23', expect: staffOnly(200) },
  // Restaurant X has no tables yet, so its staff are told to add them; Y's staff do not find A's booking.
  {
    method: 'PUT',
    path: '/api/admin/floor/assignments/{reservationA}',
    body: () => ({ tableIds: ['00000000-0000-4000-8000-000000000000'] }),
    expect: { anonymous: 401, dinerA: 401, dinerB: 401, staffX: 409, staffY: 404 },
  },
  { method: 'DELETE', path: '/api/admin/floor/assignments/{reservationA}', expect: staffOnly(404) },
  { method: 'DELETE', path: '/api/admin/slots/{missingId}', expect: staffOnly(404) },
  { method: 'GET', path: '/api/admin/bookings', expect: staffOnly(200) },
  // Diner A's booking is still HELD, which staff cannot move: refused by the state machine, or not found.
  {
    method: 'PATCH',
    path: '/api/admin/bookings/{reservationA}',
    body: () => ({ status: 'CANCELLED' }),
    expect: { anonymous: 401, dinerA: 401, dinerB: 401, staffX: 409, staffY: 404 },
  },
  // Diner A's hold carries no deposit: there is no fee to waive, or the booking is not found.
  {
    method: 'POST',
    path: '/api/admin/bookings/{reservationA}/waive-fee',
    body: () => ({}),
    expect: { anonymous: 401, dinerA: 401, dinerB: 401, staffX: 409, staffY: 404 },
  },
  { method: 'GET', path: '/api/admin/deposits?date=2026-11-23', expect: staffOnly(200) },
  { method: 'GET', path: '/api/admin/ledger.csv?month=2026-11', expect: staffOnly(200) },
  { method: 'GET', path: '/api/admin/statement.csv?month=2026-11', expect: staffOnly(200) },
  { method: 'GET', path: '/api/admin/events', stream: true, expect: staffOnly(200) },
  // The floor, live (decision 245): restaurant X has no tables, so X's staff are told to add them (409), and diner A's hold
  // cannot be marked a no-show (409); another restaurant's staff find neither the booking nor the party (404).
  { method: 'GET', path: '/api/admin/floor/live?date=2026-11-23', expect: staffOnly(200) },
  {
    method: 'POST',
    path: '/api/admin/floor/live/bookings/{reservationA}/seat',
    body: () => ({}),
    expect: { anonymous: 401, dinerA: 401, dinerB: 401, staffX: 409, staffY: 404 },
  },
  {
    method: 'POST',
    path: '/api/admin/floor/live/bookings/{reservationA}/no-show',
    body: () => ({}),
    expect: { anonymous: 401, dinerA: 401, dinerB: 401, staffX: 409, staffY: 404 },
  },
  {
    method: 'POST',
    path: '/api/admin/floor/live/walk-ins',
    body: () => ({ tableIds: ['00000000-0000-4000-8000-000000000000'], partySize: 2 }),
    expect: staffOnly(409),
  },
  {
    method: 'POST',
    path: '/api/admin/floor/live/parties/{missingId}/move',
    body: () => ({ tableIds: ['00000000-0000-4000-8000-000000000000'] }),
    expect: staffOnly(404),
  },
  { method: 'POST', path: '/api/admin/floor/live/parties/{missingId}/finish', body: () => ({}), expect: staffOnly(404) },
  // A JSON body is not an upload: staff learn the media type is wrong, others that they are not staff.
  { method: 'POST', path: '/api/upload', body: () => ({ restaurantId: 'x' }), expect: staffOnly(415) },
  // Dating: its own cookie session (dating.db.test.ts covers it); a diner or staff bearer token is no dating sign-in.
  { method: 'POST', path: '/dating/auth/signup', body: () => ({}), expect: all(400) },
  { method: 'POST', path: '/dating/auth/signup/verify', body: () => ({ signupId: '00000000-0000-4000-8000-000000000000', code: '123456' }), expect: all(404) },
  { method: 'GET', path: '/dating/dev/mailbox?signup=00000000-0000-4000-8000-000000000000', expect: all(200) },
  { method: 'POST', path: '/dating/auth/login', body: () => ({ phone: '9000000001', password: 'wrong-password' }), expect: all(401) },
  { method: 'GET', path: '/dating/auth/me', expect: all(401) },
  { method: 'POST', path: '/dating/auth/logout', body: () => ({}), expect: all(204) },
  { method: 'POST', path: '/dating/uploads/presign', body: () => ({ count: 1, userHint: 'signup' }), expect: all(200) },
  { method: 'PUT', path: '/dating/uploads/put/{photoId}?grant=forged', body: () => ({}), expect: all(403) },
  { method: 'GET', path: '/dating/photos/{photoId}', expect: all(401) },
  {
    method: 'PUT',
    path: '/dating/me/preferences',
    body: () => ({ wantAgeMin: 25, wantAgeMax: 35, neighbourhoods: ['HSR'], freeEvenings: ['FRI_LATE'], intent: 'LONG_TERM' }),
    expect: all(401),
  },
  { method: 'GET', path: '/dating/suggestions', expect: all(401) },
  { method: 'POST', path: '/dating/suggestions/{missingId}/answer', body: () => ({ answer: 'YES' }), expect: all(401) },
  { method: 'POST', path: '/dating/suggestions/{missingId}/block', body: () => ({}), expect: all(401) },
  { method: 'POST', path: '/dating/suggestions/{missingId}/report', body: () => ({ reason: 'OTHER' }), expect: all(401) },
  // Date plans are for their two members only (date-plans.db.test.ts covers members and strangers).
  { method: 'GET', path: '/dating/plans', expect: all(401) },
  // A dating member's push subscriptions and choice (decision 219): the member's cookie session only (date-plans-push.db.test.ts signs one in).
  {
    method: 'POST',
    path: '/dating/me/push-subscriptions',
    body: () => ({ endpoint: 'https://fcm.googleapis.com/fcm/send/none', keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } }),
    expect: all(401),
  },
  { method: 'DELETE', path: '/dating/me/push-subscriptions', body: () => ({ endpoint: 'https://fcm.googleapis.com/fcm/send/none' }), expect: all(401) },
  { method: 'GET', path: '/dating/me/notification-preferences', expect: all(401) },
  { method: 'PUT', path: '/dating/me/notification-preferences', body: () => ({ push: false }), expect: all(401) },
  { method: 'PUT', path: '/dating/plans/{missingId}/after-date', body: () => ({ showedUp: true, meetAgain: true }), expect: all(401) },
  // A shared plan's link is its own access: anyone holding a genuine one may read it; a forged one is refused alike.
  { method: 'GET', path: '/api/date-share/{foreignLink}', expect: all(400) },
  { method: 'DELETE', path: '/dating/plans/{missingId}/share', expect: all(401) },
  ...(['accept', 'decline', 'another', 'cancel', 'share'] as const).map((move) => ({
    method: 'POST' as const,
    path: `/dating/plans/{missingId}/${move}`,
    body: () => ({}),
    expect: all(401),
  })),
  // The moderation list of reported dating members: Tablefair moderators only (decision 185).
  { method: 'POST', path: '/api/moderation/auth/login', body: () => ({ username: 'nobody_here', password: 'wrong-password' }), expect: all(401) },
  { method: 'POST', path: '/api/moderation/auth/logout', expect: all(204) },
  { method: 'GET', path: '/api/moderation/reports', expect: moderatorOnly(200) },
  { method: 'GET', path: '/api/moderation/reports?status=REVIEWED', expect: moderatorOnly(200) },
  { method: 'POST', path: '/api/moderation/members/{missingId}/review', body: () => ({ decision: 'DISMISS' }), expect: moderatorOnly(404) },
  { method: 'GET', path: '/api/moderation/photos/{photoId}', expect: moderatorOnly(404) },
  // Fair access: phone verification, drops, the waitlist and the diner's live events.
  { method: 'GET', path: '/api/auth/phone', expect: dinerOnly(200) },
  { method: 'POST', path: '/api/auth/phone/start', body: () => ({ phone: `+9198${String(Date.now()).slice(-8)}` }), expect: dinerOnly(202) },
  // No code was sent to this phone: a diner is told so (409), others that they are not diners.
  { method: 'POST', path: '/api/auth/phone/verify', body: () => ({ phone: '+919800000000', code: '000000' }), expect: dinerOnly(409) },
  { method: 'GET', path: '/api/me/events', stream: true, expect: dinerOnly(200) },
  // Web Push and the diner's channels (decision 212): the key is public, the rest the signed-in diner's own.
  { method: 'GET', path: '/api/push/vapid-public-key', expect: all(200) },
  {
    method: 'POST',
    path: '/api/me/push-subscriptions',
    body: () => ({ endpoint: `https://fcm.googleapis.com/fcm/send/matrix-${signupCounter++}`, keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } }),
    expect: dinerOnly(201),
  },
  { method: 'DELETE', path: '/api/me/push-subscriptions', body: () => ({ endpoint: 'https://fcm.googleapis.com/fcm/send/none' }), expect: dinerOnly(200) },
  { method: 'GET', path: '/api/me/notification-preferences', expect: dinerOnly(200) },
  { method: 'PUT', path: '/api/me/notification-preferences', body: () => ({ push: true, whatsapp: true, sms: true }), expect: dinerOnly(200) },
  // Outside production each diner reads only their own messages (decision 093).
  { method: 'GET', path: '/api/dev/mailbox', expect: dinerOnly(200) },
  { method: 'GET', path: '/api/drops', expect: all(200) },
  { method: 'GET', path: '/api/drops/{dropX}', expect: all(200) },
  // The window is open, but these diners have no verified phone.
  { method: 'POST', path: '/api/drops/{dropX}/entries', body: () => ({ partySize: 2 }), expect: dinerOnly(403) },
  { method: 'DELETE', path: '/api/drops/{dropX}/entries', expect: dinerOnly(404) },
  // The draw is public, once there is one.
  { method: 'GET', path: '/api/drops/{dropX}/draw', expect: all(409) },
  { method: 'GET', path: '/api/admin/drops', expect: staffOnly(200) },
  {
    method: 'POST',
    path: '/api/admin/drops',
    body: () => dropBody('2026-11-27'),
    expect: { anonymous: 401, dinerA: 401, dinerB: 401, staffX: 201, staffY: 201 },
  },
  { method: 'GET', path: '/api/admin/drops/{dropX}', expect: { anonymous: 401, dinerA: 401, dinerB: 401, staffX: 200, staffY: 404 } },
  {
    method: 'POST',
    path: '/api/waitlist',
    body: (f) => ({ restaurantSlug: f.slugX, date: '2026-11-28', partySize: 2, windowStart: '12:00', windowEnd: '13:00' }),
    expect: dinerOnly(201),
  },
  { method: 'GET', path: '/api/waitlist', expect: dinerOnly(200) },
  // No-show strikes (decision 122): the diner's own; a strike id that is not theirs is not found.
  { method: 'GET', path: '/api/me/strikes', expect: dinerOnly(200) },
  { method: 'GET', path: '/api/me/deposits', expect: dinerOnly(200) },
  {
    method: 'POST',
    path: '/api/me/strikes/{missingId}/dispute',
    body: () => ({ reason: 'I was there' }),
    expect: dinerOnly(404),
  },
  { method: 'GET', path: '/api/admin/strike-disputes', expect: staffOnly(200) },
  {
    method: 'PATCH',
    path: '/api/admin/strike-disputes/{missingId}',
    body: () => ({ outcome: 'uphold' }),
    expect: staffOnly(404),
  },
  { method: 'DELETE', path: '/api/waitlist/{waitlistA}', expect: { anonymous: 401, dinerA: 200, dinerB: 404, staffX: 401, staffY: 401 } },
  // Payments: a diner sees their own; staff see their restaurant's; webhooks answer to signatures, not tokens.
  { method: 'GET', path: '/api/payments/intents', expect: { anonymous: 401, dinerA: 200, dinerB: 200, staffX: 200, staffY: 200 } },
  { method: 'GET', path: '/api/payments/intents/{paymentA}', expect: { anonymous: 401, dinerA: 200, dinerB: 404, staffX: 200, staffY: 404 } },
  { method: 'POST', path: '/api/payments/webhooks/{provider}', body: () => ({ event: 'payment.authorized' }), expect: all(400) },
  // Message receipts answer to the provider's secret (decisions 210, 211), never to a token: this server has none configured.
  { method: 'POST', path: '/api/notifications/receipts/exotel/{missingId}', body: () => ({ SmsSid: 'exo1', Status: 'delivered' }), expect: all(403) },
  { method: 'GET', path: '/api/notifications/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1', expect: all(403) },
  { method: 'POST', path: '/api/notifications/webhooks/whatsapp', body: () => ({ object: 'whatsapp_business_account', entry: [] }), expect: all(403) },
  // The sandbox gateway's page stands in for the bank's: it works with the payment's id alone.
  { method: 'GET', path: '/api/payments/sandbox/{paymentA}', expect: all(200) },
  { method: 'POST', path: '/api/payments/sandbox/{paymentA}/decision', body: () => ({ decision: 'decline' }), expect: all(200) },
];

/** A drop of restaurant X whose entry window is open at the test clock's now. */
function dropBody(date: string) {
  return {
    title: 'Friday tasting',
    dateFrom: date,
    dateTo: date,
    times: ['19:00'],
    capacity: 10,
    entryOpensAt: '2026-11-23T04:00:00.000Z',
    entryClosesAt: '2026-11-24T04:00:00.000Z',
    releaseAt: '2026-11-24T04:00:00.000Z',
  };
}

interface Fixture {
  slugX: string;
  restaurantX: string;
  restaurantY: string;
  slotX: string;
  /** Diner A's account id (a guest of restaurant X once it holds there). */
  dinerA: string;
  tokens: Record<Exclude<Caller, 'anonymous'>, string>;
  /** Every account the fixture made, for the check that shared calls left their sessions alone. */
  accountIds: string[];
  /** Diner A's hold, and what hangs off diner A and restaurant X: made when a row's path names them. */
  reservationA?: string;
  dropX?: string;
  waitlistA?: string;
  paymentA?: string;
  /** Diner A's accepted booking. */
  confirmedA?: string;
}

/** What a fixture holds beyond its restaurants, slots and accounts; each takes a few requests to make. */
type Part = 'reservationA' | 'dropX' | 'waitlistA' | 'paymentA' | 'confirmedA';
const ALL_PARTS: Part[] = ['reservationA', 'dropX', 'waitlistA', 'paymentA', 'confirmedA'];
/** The parts a row's path names ({paymentA} is diner A's hold's payment, so it needs the hold). */
function partsNamedBy(row: Row): Part[] {
  const named = ALL_PARTS.filter((part) => row.path.includes(`{${part}}`));
  // {paymentA} is diner A's hold's payment, and diner A is restaurant X's guest ({dinerA}) through that hold.
  return named.includes('paymentA') || row.path.includes('{dinerA}') ? [...named, 'reservationA'] : named;
}

let t: TestApp;
let baseUrl: string;

/** The status of a stream, read over real HTTP, then the connection is closed. */
async function streamStatus(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${url}`, { headers, signal: controller.signal });
  const body = response.ok ? '' : await response.text();
  controller.abort();
  return { status: response.status, body };
}

/** An accepted booking of diner A at restaurant X (held, confirmed by A, accepted by X's staff), for the rows that name it. */
async function buildConfirmedBooking(fixture: Fixture): Promise<string> {
  const slot = await buildSlot(t.database.db, fixture.restaurantX, { date: '2026-11-23', time: '21:00', capacity: 20 });
  const held = await requestHold(t.app, fixture.tokens.dinerA, { restaurantSlug: fixture.slugX, date: slot.date, time: slot.time, partySize: 2 });
  expect(held.statusCode, held.body).toBe(201);
  const id: string = held.json().id;
  const confirm = await t.app.inject({ method: 'POST', url: `/api/reservations/${id}/confirm`, headers: bearer(fixture.tokens.dinerA), payload: {} });
  expect(confirm.statusCode, confirm.body).toBe(200);
  const accept = await t.app.inject({
    method: 'PATCH',
    url: `/api/admin/bookings/${id}`,
    headers: bearer(fixture.tokens.staffX),
    payload: { status: 'CONFIRMED' },
  });
  expect(accept.statusCode, accept.body).toBe(200);
  return id;
}

/** Two restaurants (X with two evening slots), the five callers' accounts, and the parts asked for. */
async function buildFixture(parts: Part[]): Promise<Fixture> {
  const db = t.database.db;
  const x = await buildRestaurant(db);
  const y = await buildRestaurant(db);
  const slotX = await buildSlot(db, x.id, { date: '2026-11-23', time: '19:00', capacity: 20 });
  await buildSlot(db, x.id, { date: '2026-11-23', time: '20:00', capacity: 20 });
  const dinerA: BuiltAccount = await buildDiner(db);
  const dinerB = await buildDiner(db);
  const staffX = await buildStaff(db, x.id);
  const staffY = await buildStaff(db, y.id);
  const moderator = await buildModerator(db);
  const fixture: Fixture = {
    slugX: x.slug,
    restaurantX: x.id,
    restaurantY: y.id,
    slotX: slotX.id,
    dinerA: dinerA.id,
    accountIds: [dinerA.id, dinerB.id, staffX.id, staffY.id, moderator.id],
    tokens: { dinerA: dinerA.token, dinerB: dinerB.token, staffX: staffX.token, staffY: staffY.token, moderator: moderator.token },
  };
  if (parts.includes('reservationA')) {
    const held = await requestHold(t.app, dinerA.token, { restaurantSlug: x.slug, date: '2026-11-23', time: '19:00', partySize: 2 });
    expect(held.statusCode, held.body).toBe(201);
    fixture.reservationA = held.json().id;
  }
  if (parts.includes('dropX')) {
    const drop = await t.app.inject({ method: 'POST', url: '/api/admin/drops', headers: bearer(staffX.token), payload: dropBody('2026-11-25') });
    expect(drop.statusCode, drop.body).toBe(201);
    fixture.dropX = drop.json().id;
  }
  if (parts.includes('waitlistA')) {
    const waiting = await t.app.inject({
      method: 'POST',
      url: '/api/waitlist',
      headers: bearer(dinerA.token),
      payload: { restaurantSlug: x.slug, date: '2026-11-26', partySize: 2, windowStart: '12:00', windowEnd: '13:00' },
    });
    expect(waiting.statusCode, waiting.body).toBe(201);
    fixture.waitlistA = waiting.json().id;
  }
  if (parts.includes('paymentA')) {
    const payment = await t.app.services.payments.startAuthorisation({
      accountId: dinerA.id,
      restaurantId: x.id,
      reservationId: fixture.reservationA!,
      amountPaise: 50_000,
      purpose: 'reservation_deposit',
      idempotencyKey: `matrix:${fixture.reservationA}`,
    });
    fixture.paymentA = payment.intentId;
  }
  if (parts.includes('confirmedA')) fixture.confirmedA = await buildConfirmedBooking(fixture);
  return fixture;
}

/** The row's path with the fixture's ids in its placeholders ({photoId} stays as written: no such photo exists). */
function fillPath(path: string, fixture: Fixture): string {
  const { tokens: _tokens, accountIds: _accountIds, ...ids } = fixture;
  const values: Record<string, string | undefined> = {
    ...ids,
    provider: 'sandbox',
    missingId: '00000000-0000-4000-8000-000000000000',
    photoWidth: '480',
    foreignLink: FOREIGN_LINK,
  };
  return path.replace(/\{(\w+)\}/g, (placeholder, name: string) => {
    if (name === 'photoId') return placeholder;
    const value = values[name];
    if (typeof value !== 'string') throw new Error(`${path}: the fixture has no ${placeholder}`);
    return value;
  });
}

/** A call expected to succeed that is not a read changes the fixture (a sign-out, a hold confirmed): it gets its own. */
const changesFixture = (row: Row, caller: Caller): boolean => row.method !== 'GET' && expected(row, caller) < 300;

let shared: Promise<Fixture> | undefined;
/** The fixture every read and every refusal shares, with every part: built on first use. */
function sharedFixture(): Promise<Fixture> {
  shared ??= buildFixture(ALL_PARTS);
  return shared;
}

/** Everything the rows could change for a fixture's restaurants, reservations, drop, waitlist entry, payment and sessions, as JSON. */
async function fixtureState(fixture: Fixture): Promise<unknown> {
  const restaurants = [fixture.restaurantX, fixture.restaurantY];
  const rows = (query: ReturnType<typeof sql>) => queryRows<{ row: unknown }>(t.database.db, query).then((result) => result.map(({ row }) => row));
  return {
    restaurants: await rows(sql`SELECT to_jsonb(r) AS row FROM restaurants r WHERE id = ANY(${toPgArray(restaurants)}::uuid[]) ORDER BY id`),
    slots: await rows(sql`SELECT to_jsonb(s) AS row FROM slots s WHERE restaurant_id = ANY(${toPgArray(restaurants)}::uuid[]) ORDER BY id`),
    reservations: await rows(
      sql`SELECT to_jsonb(r) AS row FROM reservations r JOIN slots s ON s.id = r.slot_id
          WHERE s.restaurant_id = ANY(${toPgArray(restaurants)}::uuid[]) ORDER BY r.id`,
    ),
    floorTables: await rows(sql`SELECT to_jsonb(f) AS row FROM floor_tables f WHERE restaurant_id = ANY(${toPgArray(restaurants)}::uuid[]) ORDER BY id`),
    floorSettings: await rows(sql`SELECT to_jsonb(f) AS row FROM floor_settings f WHERE restaurant_id = ANY(${toPgArray(restaurants)}::uuid[])`),
    drops: await rows(sql`SELECT to_jsonb(d) AS row FROM drops d WHERE restaurant_id = ANY(${toPgArray(restaurants)}::uuid[]) ORDER BY id`),
    dropEntries: await rows(sql`SELECT to_jsonb(e) AS row FROM drop_entries e WHERE drop_id = ${fixture.dropX} ORDER BY id`),
    waitlist: await rows(sql`SELECT to_jsonb(w) AS row FROM waitlist_entries w WHERE restaurant_id = ANY(${toPgArray(restaurants)}::uuid[]) ORDER BY id`),
    depositPolicies: await rows(sql`SELECT to_jsonb(p) AS row FROM deposit_policies p WHERE restaurant_id = ANY(${toPgArray(restaurants)}::uuid[])`),
    datePartners: await rows(sql`SELECT to_jsonb(p) AS row FROM dating_partners p WHERE restaurant_id = ANY(${toPgArray(restaurants)}::uuid[])`),
    reminderOptOuts: await rows(
      sql`SELECT to_jsonb(o) AS row FROM restaurant_reminder_opt_outs o WHERE restaurant_id = ANY(${toPgArray(restaurants)}::uuid[]) ORDER BY 1`,
    ),
    payment: await rows(sql`SELECT to_jsonb(p) AS row FROM payment_intents p WHERE id = ${fixture.paymentA}`),
    sessions: await rows(
      sql`SELECT jsonb_build_object('subject', subject_id, 'revoked', revoked_at, 'expires', expires_at) AS row FROM sessions
          WHERE subject_id = ANY(${toPgArray(fixture.accountIds)}::uuid[]) ORDER BY subject_id`,
    ),
  };
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => t.close());

describe('authorisation matrix', () => {
  let sharedStateAsBuilt: unknown;
  beforeAll(async () => {
    sharedStateAsBuilt = await fixtureState(await sharedFixture());
  });

  for (const row of authorizationTable) {
    for (const caller of callers) {
      it(`${row.method} ${row.path} as ${caller} → ${expected(row, caller)}`, async () => {
        const fixture = changesFixture(row, caller) ? await buildFixture(partsNamedBy(row)) : await sharedFixture();
        const url = fillPath(row.path, fixture);
        const headers = caller === 'anonymous' ? {} : bearer(fixture.tokens[caller]);
        if (row.stream) {
          const { status, body } = await streamStatus(url, headers);
          expect(status, body.slice(0, 300)).toBe(expected(row, caller));
          if (status >= 400) expect(typeof JSON.parse(body).error).toBe('string');
          return;
        }
        const response = await t.app.inject({
          method: row.method,
          url,
          headers,
          payload: row.body ? (row.body(fixture) as object) : undefined,
        });
        expect(response.statusCode, response.body.slice(0, 300)).toBe(expected(row, caller));
        if (response.statusCode >= 400) expect(typeof response.json().error).toBe('string');
      });
    }
  }

  it('covers every documented endpoint', async () => {
    const document = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((m) => m !== 'parameters')
        .map((method) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`),
    );
    const inTable = new Set(authorizationTable.map((row) => `${row.method} ${row.path.split('?')[0].replace(/\{[^}]+\}/g, '{}')}`));
    const missing = documented.filter((route) => !inTable.has(route));
    expect(missing, 'add these endpoints to the authorisation table').toEqual([]);
  });

  it('left the fixture that reads and refusals share exactly as it was built', async () => {
    const sharedCalls = authorizationTable.flatMap((row) => callers.filter((caller) => !changesFixture(row, caller)));
    expect(sharedCalls.length).toBeGreaterThan(400);
    expect(await fixtureState(await sharedFixture())).toEqual(sharedStateAsBuilt);
  });
});
