import type { AdminDropDetail, AdminDropSummary, DropEntryResult, DropPhase } from '#common/contract/drops.ts';
import { formatDateShort, formatInstantKolkata as formatInstant, formatTime12h, toKolkata } from '#common/domain/time.ts';
import { staffStatusLabels } from './bookings.ts';

/** How the portal shows drops: phases, instants in Bengaluru time, countdowns and entry results. */

/** Staff read the phase plainly (the diner pages say it their own way). */
export const dropPhaseLabels: Record<DropPhase, string> = {
  upcoming: 'Upcoming',
  open: 'Entries open',
  closed: 'Entries closed',
  released: 'Released',
  ended: 'Ended',
};

/** An instant in Bengaluru time: 'Sat, 28 Nov, 7:00 PM' (the one definition lives in common/domain/time.ts). */
export { formatInstant };

/** An instant's Bengaluru time of day only: '7:00 PM'. */
export function formatInstantTime(iso: string): string {
  return formatTime12h(toKolkata(new Date(iso)).time);
}

/** A drop's dates: 'Sat, 28 Nov' or 'Sat, 28 Nov – Fri, 4 Dec'. */
export function formatDateRange(from: string, to: string): string {
  return from === to ? formatDateShort(from) : `${formatDateShort(from)} – ${formatDateShort(to)}`;
}

/** '7:00 PM, 9:30 PM'. */
export function formatTimes(times: string[]): string {
  return times.map(formatTime12h).join(', ');
}

/** The entry window: 'Sat, 21 Nov, 7:00 PM → Sun, 22 Nov, 7:00 PM' (the second date dropped when it is the same day). */
export function formatWindow(opensAt: string, closesAt: string): string {
  const opens = toKolkata(new Date(opensAt));
  const closes = toKolkata(new Date(closesAt));
  const end = opens.date === closes.date ? formatTime12h(closes.time) : formatInstant(closesAt);
  return `${formatInstant(opensAt)} → ${end}`;
}

/** '+919812345678' → '+91 98123 45678'; other numbers as they are. */
export function formatPhone(phone: string): string {
  const match = /^\+91(\d{5})(\d{5})$/.exec(phone);
  return match ? `+91 ${match[1]} ${match[2]}` : phone;
}

/** The next moment in a drop's life its countdown runs to; null once released. */
export function nextMilestone(drop: Pick<AdminDropSummary, 'phase' | 'entryOpensAt' | 'entryClosesAt' | 'releaseAt'>): { label: string; at: string } | null {
  if (drop.phase === 'upcoming') return { label: 'Entries open in', at: drop.entryOpensAt };
  if (drop.phase === 'open') {
    // Entries close at the release: one countdown says it all.
    if (drop.entryClosesAt === drop.releaseAt) return { label: 'Entries close and the draw runs in', at: drop.releaseAt };
    return { label: 'Entries close in', at: drop.entryClosesAt };
  }
  if (drop.phase === 'closed') return { label: 'The draw runs in', at: drop.releaseAt };
  return null;
}

/** How often the staff's drop detail re-reads itself: often while entries and tables move, never once it has ended. */
export function dropRefreshMs(phase: DropPhase | undefined): number | false {
  if (phase === 'open' || phase === 'closed') return 5_000;
  if (phase === 'released') return 10_000;
  if (phase === 'upcoming') return 30_000;
  return false;
}

export type ResultTone = 'neutral' | 'accent' | 'success' | 'muted' | 'info';

/** An entry's result as staff read it: a short label, a detail and a tone for its badge. */
export function entryResultView(result: DropEntryResult): { label: string; detail: string; tone: ResultTone } {
  switch (result.state) {
    case 'entered':
      return { label: 'Entered', detail: 'In the draw', tone: 'neutral' };
    case 'won':
      return {
        label: 'Holding a table',
        detail: `${formatDateShort(result.slot.date)}, ${formatTime12h(result.slot.time)} · hold ends ${formatInstantTime(result.holdExpiresAt)}`,
        tone: 'accent',
      };
    case 'booked':
      return {
        label: 'Booked',
        detail: `${formatDateShort(result.slot.date)}, ${formatTime12h(result.slot.time)} · ${staffStatusLabels[result.status]}`,
        tone: 'success',
      };
    case 'waiting':
      return { label: 'Waiting', detail: `Number ${result.placeInLine} in line`, tone: 'info' };
    case 'lapsed':
      return { label: 'Lapsed', detail: 'Let the hold go; the table went down the line', tone: 'muted' };
    case 'not_this_time':
      return { label: 'No table', detail: 'The drop ended before a table came free', tone: 'muted' };
    case 'withdrawn':
      return { label: 'Withdrawn', detail: 'Left the line', tone: 'muted' };
  }
}

export interface DropSlotDay {
  date: string;
  slots: AdminDropDetail['slots'];
  capacity: number;
  coversBooked: number;
}

/** The drop's slots by date, in order, with each date's totals. */
export function groupDropSlots(slots: AdminDropDetail['slots']): DropSlotDay[] {
  const days = new Map<string, AdminDropDetail['slots']>();
  for (const slot of [...slots].sort((a, b) => (a.date + a.time).localeCompare(b.date + b.time))) {
    const list = days.get(slot.date) ?? [];
    list.push(slot);
    days.set(slot.date, list);
  }
  return [...days.entries()].map(([date, list]) => ({
    date,
    slots: list,
    capacity: list.reduce((sum, slot) => sum + slot.capacity, 0),
    coversBooked: list.reduce((sum, slot) => sum + slot.coversBooked, 0),
  }));
}

/** Active drops (anything not ended) first, in the server's order; then the past ones. */
export function splitDrops<T extends Pick<AdminDropSummary, 'phase'>>(drops: T[]): { current: T[]; past: T[] } {
  return { current: drops.filter((drop) => drop.phase !== 'ended'), past: drops.filter((drop) => drop.phase === 'ended') };
}
