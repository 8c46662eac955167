import { z } from 'zod';
import { clockTime, isoDate, oneLineName, uuid } from './common.ts';
import { reservationStatus } from './reservations.ts';
import { bookingIntervals, floorSections, shiftNames, weekdays } from '../domain/floor.ts';
import { minutesOfDay } from '../domain/time.ts';

/** The floor as staff edit it in the portal (decision 240): tables, combinations, shifts, turn times, pacing. */

export const FLOOR_TABLES_MAX = 120;
export const TABLE_COVERS_MAX = 40;
export const COMBINATION_COVERS_MAX = 80;
export const TURN_MINUTES_MIN = 30;
export const TURN_MINUTES_MAX = 360;

export const floorSection = z.enum(floorSections);

export const floorTable = z.object({
  id: z.string(),
  name: z.string(),
  section: floorSection,
  minCovers: z.number().int(),
  maxCovers: z.number().int(),
  onlineBookable: z.boolean(),
});
export type FloorTableView = z.infer<typeof floorTable>;

export const tableCombination = z.object({
  id: z.string(),
  tableIds: z.array(z.string()),
  /** The joined tables' names, in the order given, for display ("T8 + T9"). */
  tableNames: z.array(z.string()),
  minCovers: z.number().int(),
  maxCovers: z.number().int(),
});
export type TableCombinationView = z.infer<typeof tableCombination>;

const coversRangeOk = (value: { minCovers: number; maxCovers: number }) => value.minCovers <= value.maxCovers;
const coversRangeError = { error: 'maxCovers must be at least minCovers', path: ['maxCovers'] };

export const floorTableInput = z
  .object({
    /** An existing table's id to keep it (and its bookings); absent for a new table. */
    id: uuid.optional(),
    name: z
      .string()
      .trim()
      .min(1, { error: 'name is required' })
      .max(40, { error: 'name must be at most 40 characters' })
      .refine(...oneLineName('name')),
    section: floorSection,
    minCovers: z.number().int().min(1, { error: 'minCovers must be at least 1' }).max(TABLE_COVERS_MAX),
    maxCovers: z
      .number()
      .int()
      .min(1, { error: 'maxCovers must be at least 1' })
      .max(TABLE_COVERS_MAX, { error: `maxCovers must be at most ${TABLE_COVERS_MAX}` }),
    onlineBookable: z.boolean(),
  })
  .strict()
  .refine(coversRangeOk, coversRangeError);

export const tableCombinationInput = z
  .object({
    /** The joined tables by name (names are unique in a restaurant). */
    tableNames: z
      .array(z.string().min(1))
      .min(2, { error: 'A combination joins at least two tables' })
      .max(8, { error: 'A combination joins at most 8 tables' }),
    minCovers: z.number().int().min(1).max(COMBINATION_COVERS_MAX),
    maxCovers: z
      .number()
      .int()
      .min(1)
      .max(COMBINATION_COVERS_MAX, { error: `maxCovers must be at most ${COMBINATION_COVERS_MAX}` }),
  })
  .strict()
  .refine(coversRangeOk, coversRangeError);

/** PUT /api/admin/floor/tables: the whole list of tables and combinations; tables left out are removed. */
export const replaceFloorTablesBody = z
  .object({
    tables: z.array(floorTableInput).max(FLOOR_TABLES_MAX, { error: `At most ${FLOOR_TABLES_MAX} tables` }),
    combinations: z.array(tableCombinationInput).max(FLOOR_TABLES_MAX),
  })
  .strict()
  .superRefine((value, context) => {
    const names = new Set<string>();
    for (const [index, table] of value.tables.entries()) {
      const key = table.name.trim().toLowerCase();
      if (names.has(key)) context.addIssue({ code: 'custom', message: `Two tables are called ${table.name}`, path: ['tables', index, 'name'] });
      names.add(key);
    }
    for (const [index, combination] of value.combinations.entries()) {
      const missing = combination.tableNames.find((name) => !names.has(name.trim().toLowerCase()));
      if (missing) context.addIssue({ code: 'custom', message: `No table is called ${missing}`, path: ['combinations', index, 'tableNames'] });
      if (new Set(combination.tableNames.map((name) => name.trim().toLowerCase())).size !== combination.tableNames.length) {
        context.addIssue({ code: 'custom', message: 'A combination names each table once', path: ['combinations', index, 'tableNames'] });
      }
    }
  });
export type ReplaceFloorTablesBody = z.infer<typeof replaceFloorTablesBody>;

export const shift = z
  .object({ name: z.enum(shiftNames), start: clockTime, end: clockTime })
  .strict()
  .refine((value) => minutesOfDay(value.start) < minutesOfDay(value.end), { error: 'A shift must end after it starts', path: ['end'] });

export const turnBand = z
  .object({
    fromPartySize: z.number().int().min(1).max(COMBINATION_COVERS_MAX),
    minutes: z
      .number()
      .int()
      .min(TURN_MINUTES_MIN, { error: `A turn is at least ${TURN_MINUTES_MIN} minutes` })
      .max(TURN_MINUTES_MAX, { error: `A turn is at most ${TURN_MINUTES_MAX} minutes` }),
  })
  .strict();

export const pacing = z.object({
  maxCovers: z.number().int().min(1, { error: 'Pacing covers must be at least 1' }).max(1000).nullable(),
  maxParties: z.number().int().min(1, { error: 'Pacing parties must be at least 1' }).max(500).nullable(),
});

export const floorSettings = z
  .object({
    /** Seven days, Monday first; each day's shifts (an empty list: closed). */
    shifts: z.array(z.array(shift).max(2, { error: 'A day has at most two shifts' })).length(weekdays.length, { error: 'Give the shifts of all seven days' }),
    intervalMinutes: z
      .number()
      .int()
      .refine((minutes) => (bookingIntervals as readonly number[]).includes(minutes), {
        error: `intervalMinutes must be one of ${bookingIntervals.join(', ')}`,
      }),
    turns: z
      .array(turnBand)
      .min(1, { error: 'Give at least one turn time' })
      .max(12)
      .refine((bands) => bands.some((band) => band.fromPartySize === 1), { error: 'The turn times must start at a party of 1' })
      .refine((bands) => new Set(bands.map((band) => band.fromPartySize)).size === bands.length, { error: 'Each party size starts one band only' }),
    pacing,
  })
  .strict();
export type FloorSettingsBody = z.infer<typeof floorSettings>;

/** GET /api/admin/floor: the restaurant's floor; `tables` ordered by section then name. */
export const adminFloor = z.object({
  tables: z.array(floorTable),
  combinations: z.array(tableCombination),
  settings: floorSettings,
  /** False until the restaurant saves tables: then availability counts covers alone (decision 240). */
  hasFloor: z.boolean(),
});
export type AdminFloor = z.infer<typeof adminFloor>;

export const floorDayQuery = z.object({ date: isoDate });

/** One table assignment of the day, with its reservation when it has one. */
export const tableAssignmentView = z.object({
  id: z.string(),
  tableIds: z.array(z.string()),
  tableNames: z.array(z.string()),
  combinationId: z.string().nullable(),
  partySize: z.number().int(),
  startsAt: z.string(),
  endsAt: z.string(),
  time: z.string(),
  reservation: z
    .object({
      id: z.string(),
      status: reservationStatus,
      dinerName: z.string(),
    })
    .nullable(),
});
export type TableAssignmentView = z.infer<typeof tableAssignmentView>;

export const floorDay = z.object({ date: z.string(), assignments: z.array(tableAssignmentView) });
export type FloorDay = z.infer<typeof floorDay>;

export const reservationIdParams = z.object({ reservationId: uuid });

/** PUT /api/admin/floor/assignments/{reservationId}: seat the booking at these tables instead. */
export const reassignTableBody = z.object({ tableIds: z.array(uuid).min(1, { error: 'Choose a table' }).max(8) }).strict();
export type ReassignTableBody = z.infer<typeof reassignTableBody>;
