import type { ReminderLinkAction } from '#common/contract/reminders.ts';
import { readSignedBytes, signBytes } from '#server/signing.ts';

/**
 * The signed links a reminder and a calendar email carry (decision 152). Each token names its
 * purpose inside what is signed, so an "I'm coming" token can never release a table nor a
 * calendar token answer anything. Answer links are bound to the reservation and to the start
 * they were sent for, and expire at that start; calendar links last a week past it.
 *
 * A token is 21 signed bytes (purpose, reservation id, start in seconds) and a 128-bit signature,
 * in base64url: 50 characters, short enough for a text message and for one path segment.
 */

const purposes = { coming: 1, release: 2, calendar: 3 } as const;
type LinkPurpose = keyof typeof purposes;
const PAYLOAD_BYTES = 1 + 16 + 4;
const CALENDAR_LINK_SECONDS_AFTER_START = 7 * 86_400;

function pack(purpose: LinkPurpose, reservationId: string, startsAt: Date): Buffer {
  const bytes = Buffer.alloc(PAYLOAD_BYTES);
  bytes.writeUInt8(purposes[purpose], 0);
  Buffer.from(reservationId.replace(/-/g, ''), 'hex').copy(bytes, 1);
  bytes.writeUInt32BE(Math.floor(startsAt.getTime() / 1000), 17);
  return bytes;
}

function unpack(bytes: Buffer): { purpose: LinkPurpose; reservationId: string; startsAt: Date } | undefined {
  if (bytes.length !== PAYLOAD_BYTES) return undefined;
  const purpose = (Object.keys(purposes) as LinkPurpose[]).find((name) => purposes[name] === bytes.readUInt8(0));
  if (!purpose) return undefined;
  const hex = bytes.subarray(1, 17).toString('hex');
  const reservationId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { purpose, reservationId, startsAt: new Date(bytes.readUInt32BE(17) * 1000) };
}

export function signAnswerLink(action: ReminderLinkAction, reservationId: string, startsAt: Date, secret: string): string {
  return signBytes(pack(action, reservationId, startsAt), secret);
}

export function signCalendarLink(reservationId: string, startsAt: Date, secret: string): string {
  return signBytes(pack('calendar', reservationId, startsAt), secret);
}

/** A genuine answer link: what it does, for which reservation and start, and whether it has expired at `now`. */
export interface AnswerLink {
  action: ReminderLinkAction;
  reservationId: string;
  startsAt: Date;
  expired: boolean;
}

/** The answer link `token` stands for, or undefined when it is not one (tampered, another kind, garbage). */
export function readAnswerLink(token: string, secret: string, now: Date): AnswerLink | undefined {
  const bytes = readSignedBytes(token, secret);
  const link = bytes && unpack(bytes);
  if (!link || link.purpose === 'calendar') return undefined;
  return { action: link.purpose, reservationId: link.reservationId, startsAt: link.startsAt, expired: link.startsAt.getTime() <= now.getTime() };
}

/** The reservation a calendar link stands for, or undefined when it is not a genuine, unexpired one. */
export function readCalendarLink(token: string, secret: string, now: Date): string | undefined {
  const bytes = readSignedBytes(token, secret);
  const link = bytes && unpack(bytes);
  if (!link || link.purpose !== 'calendar') return undefined;
  return link.startsAt.getTime() + CALENDAR_LINK_SECONDS_AFTER_START * 1000 > now.getTime() ? link.reservationId : undefined;
}
