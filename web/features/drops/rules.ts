import type { DropDrawAudit, DropEntryResult, DropPhase, DropSummary } from '#common/contract/drops.ts';
import { drawOrder, entryListHash, seedCommitment } from '#common/domain/draw.ts';
import { formatDateShort, formatInstantKolkata, formatTime12h } from '#common/domain/time.ts';
import { formatWait, secondsBetween } from './clock.ts';

/** The badge each phase shows. */
export const phaseLabel: Record<DropPhase, string> = {
  upcoming: 'Opens soon',
  open: 'Entries open',
  closed: 'Draw soon',
  released: 'Drawn',
  ended: 'Ended',
};

/** The next moment that matters in a drop's life, for its countdown; null once drawn. */
export function nextMilestone(drop: Pick<DropSummary, 'phase' | 'entryOpensAt' | 'entryClosesAt' | 'releaseAt'>): { label: string; at: string } | null {
  switch (drop.phase) {
    case 'upcoming':
      return { label: 'Entries open in', at: drop.entryOpensAt };
    case 'open':
      return { label: 'Entries close in', at: drop.entryClosesAt };
    case 'closed':
      return { label: 'Draw in', at: drop.releaseAt };
    default:
      return null;
  }
}

/** "Sat 28 Nov – Sun 29 Nov · 7:00 PM, 9:00 PM". */
export function dropWhen(drop: Pick<DropSummary, 'dateFrom' | 'dateTo' | 'times'>): string {
  const dates = drop.dateFrom === drop.dateTo ? formatDateShort(drop.dateFrom) : `${formatDateShort(drop.dateFrom)} – ${formatDateShort(drop.dateTo)}`;
  return `${dates} · ${drop.times.map(formatTime12h).join(', ')}`;
}

/**
 * The diner's result in the words of the spec: "You got a table — complete booking in 9:41",
 * "You are number 37 in line", "Not this time".
 */
export function resultHeadline(result: DropEntryResult, nowMs: number): string {
  switch (result.state) {
    case 'entered':
      return 'You are in the draw';
    case 'won':
      return `You got a table — complete booking in ${formatWait(secondsBetween(nowMs, result.holdExpiresAt))}`;
    case 'booked':
      return 'Your table is booked';
    case 'waiting':
      return `You are number ${result.placeInLine} in line`;
    case 'lapsed':
      return 'Your hold ran out, so the table went to the next in line';
    case 'not_this_time':
      return 'Not this time';
    case 'withdrawn':
      return 'You left the line';
  }
}

/** One line of context under the headline. */
export function resultDetail(result: DropEntryResult): string {
  switch (result.state) {
    case 'entered':
      return 'Everyone who entered has the same chance: the order is drawn at random when entries close. Arriving early gives no advantage.';
    case 'won':
      return `${formatDateShort(result.slot.date)} at ${formatTime12h(result.slot.time)}. The table is held for you alone until the timer runs out.`;
    case 'booked':
      return `${formatDateShort(result.slot.date)} at ${formatTime12h(result.slot.time)} — the restaurant will accept it shortly.`;
    case 'waiting':
      return 'When a winner lets a table go, it is offered to the next in line. We will tell you here and by email.';
    case 'lapsed':
      return 'A held table is kept only for a few minutes. Watch for the next drop.';
    case 'not_this_time':
      return 'Every table went to someone earlier in the drawn order. Watch for the next drop.';
    case 'withdrawn':
      return 'Your place was given up; the tables go to the others in line.';
  }
}

/** What a drop screen says when a call fails without a sentence of the server's own. */
export const DROP_FALLBACKS = { server: 'That did not work. Please try again.', network: 'We could not reach Tablefair. Check your connection and try again.' };

/**
 * The draw checked in the browser (decision 100), with WebCrypto through common/domain/draw.ts:
 * the revealed seed hashes to the commitment published before entries opened, the entry ids hash
 * to the list fixed at the close, and drawOrder(seed, entryIds) gives the published order.
 * A check is null when the drop predates commitments (nothing to compare with).
 */
export async function verifyDraw(
  audit: Pick<DropDrawAudit, 'seed' | 'seedCommitment' | 'entriesHash' | 'entryIds' | 'order'>,
): Promise<{ seedMatches: boolean | null; entriesMatch: boolean | null; orderMatches: boolean }> {
  const [commitment, entriesHash, order] = await Promise.all([
    seedCommitment(audit.seed),
    entryListHash(audit.entryIds),
    drawOrder(audit.seed, audit.entryIds).catch(() => [] as string[]),
  ]);
  return {
    seedMatches: audit.seedCommitment === null ? null : commitment === audit.seedCommitment,
    entriesMatch: audit.entriesHash === null ? null : entriesHash === audit.entriesHash,
    orderMatches: order.length === audit.order.length && order.every((id, i) => id === audit.order[i]),
  };
}

/** The check in a few words: "Seed matches the commitment published on Fri, 20 Nov, 6:00 PM ✓ · Order recomputed in your browser ✓". */
export function drawCheckSummary(check: Awaited<ReturnType<typeof verifyDraw>>, committedAt: string | null): { text: string; ok: boolean } {
  const parts: string[] = [];
  if (check.seedMatches === true) parts.push(`Seed matches the commitment published on ${committedAt ? formatInstantKolkata(committedAt) : 'creation'} ✓`);
  else if (check.seedMatches === false) parts.push('Seed does NOT match the published commitment ✗');
  if (check.entriesMatch === false) parts.push('Entry list differs from the one fixed at the close ✗');
  parts.push(check.orderMatches ? 'Order recomputed in your browser ✓' : 'Order does NOT match the recomputed one ✗');
  return { text: parts.join(' · '), ok: check.seedMatches !== false && check.entriesMatch !== false && check.orderMatches };
}
