import { bulkSlotsBody, SLOT_CAPACITY_MAX, SLOT_CAPACITY_MIN, SLOT_INTERVAL_MAX, SLOT_INTERVAL_MIN, type AdminBooking } from '#common/contract/portal.ts';
import type { ReminderReply } from '#common/contract/reminders.ts';
import type { DepositState } from '#common/domain/deposit-receipts.ts';
import { movesFrom, NO_SHOW_GRACE_MINUTES, type ReservationStatus, type ReservationTransition } from '#common/domain/reservation-status.ts';
import { addDays, clockTimeOf, formatDateShort, formatTime12h, minutesOfDay } from '#common/domain/time.ts';

/**
 * The moves the admin screen offers (spec section 4): Confirm and Cancel on PENDING, Seat on
 * CONFIRMED, Complete on SEATED, plus No-show once the start time is 15 minutes past.
 * Taken from the state machine's data, then narrowed to these.
 */
const OFFERED_MOVES = new Set(['PENDING>CONFIRMED', 'PENDING>CANCELLED', 'CONFIRMED>SEATED', 'SEATED>COMPLETED', 'CONFIRMED>NO_SHOW']);

export function staffActions(booking: Pick<AdminBooking, 'status' | 'startsAt'>, now: Date): ReservationTransition[] {
  return movesFrom(booking.status, 'staff').filter((move) => {
    if (!OFFERED_MOVES.has(`${move.from}>${move.to}`)) return false;
    if (move.guard === 'noShowWindowOpen') return now.getTime() >= Date.parse(booking.startsAt) + NO_SHOW_GRACE_MINUTES * 60_000;
    return true;
  });
}

/** What staff read for the diner's answer to a reminder (decision 152): whether to expect them. */
export const reminderReplyLabels: Record<ReminderReply, string> = {
  coming: 'Diner confirmed',
  released: 'Released by diner',
  unanswered: 'No reply to reminder',
};

/** What staff read for each status. */
export const staffStatusLabels: Record<ReservationStatus, string> = {
  HELD: 'Held',
  PENDING: 'Pending',
  CONFIRMED: 'Confirmed',
  SEATED: 'Seated',
  COMPLETED: 'Completed',
  CANCELLED: 'Cancelled',
  NO_SHOW: 'No-show',
};

/**
 * Staff may waive a fee (POST /api/admin/bookings/{id}/waive-fee): a no-show's, or a late
 * cancel's. Offered where the fee was taken ('kept'), or on a no-show whose capture is still
 * on its way ('held'); a cancel whose deposit is still held may be a release on its way, which
 * has no fee, so it waits until the fee shows as kept.
 */
export function mayWaiveFee(status: ReservationStatus, depositState: DepositState | undefined): boolean {
  if (depositState === 'kept') return status === 'NO_SHOW' || status === 'CANCELLED';
  return depositState === 'held' && status === 'NO_SHOW';
}

/** Finished bookings are shown quietly: nothing left to do. */
export function isSettled(status: ReservationStatus): boolean {
  return status === 'COMPLETED' || status === 'CANCELLED' || status === 'NO_SHOW';
}

export interface BookingDay {
  date: string;
  label: string;
  bookings: AdminBooking[];
}

/** Groups bookings by date; today always comes first, even when empty. */
export function groupByDay(bookings: AdminBooking[], today: string): BookingDay[] {
  const days = new Map<string, AdminBooking[]>([[today, []]]);
  for (const booking of bookings) {
    const list = days.get(booking.slot.date) ?? [];
    list.push(booking);
    days.set(booking.slot.date, list);
  }
  return [...days.entries()]
    .filter(([date]) => date >= today)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, list]) => ({ date, label: dayLabel(date, today), bookings: list }));
}

export function dayLabel(date: string, today: string): string {
  if (date === today) return `Today · ${formatDateShort(date)}`;
  if (date === addDays(today, 1)) return `Tomorrow · ${formatDateShort(date)}`;
  return formatDateShort(date);
}

/** The times a bulk request would create: every interval from start up to and including end. */
export function bulkTimes(start: string, end: string, interval: number): string[] {
  if (!/^\d\d:\d\d$/.test(start) || !/^\d\d:\d\d$/.test(end) || !Number.isInteger(interval) || interval < SLOT_INTERVAL_MIN || interval > SLOT_INTERVAL_MAX)
    return [];
  // The contract refuses a start that is not before the end: no preview then, only the field's error.
  if (minutesOfDay(start) >= minutesOfDay(end)) return [];
  const times: string[] = [];
  for (let minute = minutesOfDay(start); minute <= minutesOfDay(end); minute += interval) times.push(clockTimeOf(minute));
  return times;
}

/** The bulk-add form's fields, as typed. */
export type BulkForm = { start: string; end: string; interval: string; capacity: string };

/** The form's own words for each field the contract refuses, with the contract's bounds. */
const BULK_FIELD_MESSAGES: Partial<Record<keyof BulkForm, string>> = {
  start: 'Choose a start time before the end time.',
  interval: `Choose a whole number of minutes from ${SLOT_INTERVAL_MIN} to ${SLOT_INTERVAL_MAX}.`,
  capacity: `Choose a whole number of covers from ${SLOT_CAPACITY_MIN} to ${SLOT_CAPACITY_MAX}.`,
};

/**
 * What the bulk-add form must fix before it is sent, by field (empty when the server would take
 * it): the shared contract decides, the form says it in its own words beside the field.
 */
export function bulkFormErrors(date: string, form: BulkForm): Partial<Record<keyof BulkForm, string>> {
  // A blank number would be coerced to 0 by the contract; it is refused the same way.
  const number = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));
  const parsed = bulkSlotsBody.safeParse({ date, start: form.start, end: form.end, interval: number(form.interval), capacity: number(form.capacity) });
  const errors: Partial<Record<keyof BulkForm, string>> = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0];
    const message = typeof field === 'string' ? BULK_FIELD_MESSAGES[field as keyof BulkForm] : undefined;
    if (message) errors[field as keyof BulkForm] ??= message;
  }
  return errors;
}

export function describeBulk(times: string[]): string {
  if (times.length === 0) return '';
  if (times.length === 1) return `Adds 1 time: ${formatTime12h(times[0])}`;
  return `Adds up to ${times.length} times, ${formatTime12h(times[0])} – ${formatTime12h(times[times.length - 1])}`;
}
