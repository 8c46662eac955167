import { z } from 'zod';
import { isoDate, oneLineName, uuid } from './common.ts';
import { reservationStatus } from './reservations.ts';
import { floorSection } from './floor.ts';
import { tableStates } from '../domain/floor-live.ts';

/** The host view (decision 245): every table's state now, the day's parties per table, and the host's actions. */

export const WALK_IN_PARTY_MAX = 40;

export const floorLiveQuery = z.object({ date: isoDate.optional() });

/** One party on the floor today: a booking that has (or had) a table, or a walk-in. */
export const floorParty = z.object({
  /** The table assignment's id: moves and a walk-in's finish name it. */
  assignmentId: z.string(),
  kind: z.enum(['booking', 'walkIn']),
  reservationId: z.string().nullable(),
  status: reservationStatus.nullable(),
  /** The diner's name, the walk-in's name, or '' for a walk-in who gave none. */
  name: z.string(),
  partySize: z.number().int(),
  tableIds: z.array(z.string()),
  tableNames: z.array(z.string()),
  startsAt: z.string(),
  endsAt: z.string(),
  seatedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type FloorParty = z.infer<typeof floorParty>;

export const liveTable = z.object({
  id: z.string(),
  name: z.string(),
  section: floorSection,
  minCovers: z.number().int(),
  maxCovers: z.number().int(),
  state: z.enum(tableStates),
  /** See common/domain/floor-live.ts TableNow.minutes. */
  minutes: z.number().int().nullable(),
  turnMinutes: z.number().int().nullable(),
  /** The party the state is about (seated, late, next to arrive), when there is one. */
  assignmentId: z.string().nullable(),
});
export type LiveTable = z.infer<typeof liveTable>;

/** GET /api/admin/floor/live?date: the floor now and the day's timeline. */
export const floorLive = z.object({
  date: z.string(),
  now: z.string(),
  /** The first and last instants of the day's shifts, for the timeline's axis. */
  opensAt: z.string().nullable(),
  closesAt: z.string().nullable(),
  tables: z.array(liveTable),
  parties: z.array(floorParty),
});
export type FloorLive = z.infer<typeof floorLive>;

const tableIds = z
  .array(uuid)
  .min(1, { error: 'Choose a table' })
  .max(8, { error: 'Choose at most 8 tables' })
  .refine((ids) => new Set(ids).size === ids.length, { error: 'Choose each table once' });

export const floorReservationParams = z.object({ reservationId: uuid });
export const floorAssignmentParams = z.object({ assignmentId: uuid });

/** POST /api/admin/floor/live/bookings/{reservationId}/seat: at its own table (no tableIds) or at these free ones. */
export const seatBookingBody = z.object({ tableIds: tableIds.optional() }).strict();
export type SeatBookingBody = z.infer<typeof seatBookingBody>;

/** POST /api/admin/floor/live/walk-ins: a party without a booking, seated now at free tables for its turn. */
export const seatWalkInBody = z
  .object({
    tableIds,
    partySize: z
      .number()
      .int()
      .min(1, { error: 'partySize must be at least 1' })
      .max(WALK_IN_PARTY_MAX, { error: `partySize must be at most ${WALK_IN_PARTY_MAX}` }),
    name: z
      .string()
      .trim()
      .max(80, { error: 'name must be at most 80 characters' })
      .refine(...oneLineName('name'))
      .optional(),
    phone: z
      .string()
      .trim()
      .regex(/^(\+?[\d\s()-]{7,24})?$/, { error: 'Enter a valid phone number' })
      .optional(),
  })
  .strict();
export type SeatWalkInBody = z.infer<typeof seatWalkInBody>;

/** POST /api/admin/floor/live/parties/{assignmentId}/move: the party (seated or expected) to other free tables. */
export const moveFloorPartyBody = z.object({ tableIds }).strict();
export type MoveFloorPartyBody = z.infer<typeof moveFloorPartyBody>;
