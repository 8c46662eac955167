import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable, type PgColumn } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type DatabaseHandle } from '#server/db/client.ts';
import * as schema from '#server/db/schema.ts';
import { createTestDatabase } from '#server/test/database.ts';

/**
 * schema.ts (Drizzle's view) against the database the SQL migrations build (decision 003):
 * the same tables, and in each the same columns with the same type, nullability, presence of a
 * default and primary key. Read from information_schema for the current schema, which is
 * `public` on PGlite and the file's own schema on PostgreSQL.
 */
interface ColumnShape {
  type: string;
  nullable: boolean;
  hasDefault: boolean;
}

const declaredTables = Object.values(schema as Record<string, unknown>)
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableConfig(table));

/** Drizzle's SQL type in information_schema's words ('bigserial' is a bigint with a sequence default). */
function declaredType(column: PgColumn): string {
  const type = column.getSQLType();
  const serials: Record<string, string> = { serial: 'integer', smallserial: 'smallint', bigserial: 'bigint' };
  return serials[type] ?? type;
}

function declaredColumns(config: ReturnType<typeof getTableConfig>): Record<string, ColumnShape> {
  return Object.fromEntries(
    config.columns.map((column) => [column.name, { type: declaredType(column), nullable: !column.notNull, hasDefault: column.hasDefault }]),
  );
}

function declaredPrimaryKey(config: ReturnType<typeof getTableConfig>): string[] {
  const single = config.columns.filter((column) => column.primary).map((column) => column.name);
  const composite = config.primaryKeys.flatMap((key) => key.columns.map((column) => column.name));
  return [...single, ...composite].sort();
}

/** PostgreSQL's internal names of array element types, as Drizzle writes them. */
const arrayElementNames: Record<string, string> = { _int2: 'smallint', _int4: 'integer', _int8: 'bigint' };

let database: DatabaseHandle;
let actualColumns: Map<string, Record<string, ColumnShape>>;
let actualPrimaryKeys: Map<string, string[]>;

beforeAll(async () => {
  database = await createTestDatabase({ poolSize: 2 });
  const columns = await queryRows<{
    table_name: string;
    column_name: string;
    data_type: string;
    udt_name: string;
    is_nullable: string;
    column_default: string | null;
  }>(
    database.db,
    sql`SELECT c.table_name, c.column_name, c.data_type, c.udt_name, c.is_nullable, c.column_default
          FROM information_schema.columns c
          JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
         WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
         ORDER BY c.table_name, c.ordinal_position`,
  );
  actualColumns = new Map();
  for (const row of columns) {
    // Arrays are data_type 'ARRAY' with udt_name '_<element>': spell them as Drizzle does ('text[]', 'integer[]').
    const type = row.data_type === 'ARRAY' ? `${arrayElementNames[row.udt_name] ?? row.udt_name.replace(/^_/, '')}[]` : row.data_type;
    const table = actualColumns.get(row.table_name) ?? {};
    table[row.column_name] = { type, nullable: row.is_nullable === 'YES', hasDefault: row.column_default !== null };
    actualColumns.set(row.table_name, table);
  }
  // Tables without columns would not appear above: list the tables themselves too.
  const tables = await queryRows<{ table_name: string }>(
    database.db,
    sql`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  for (const { table_name } of tables) if (!actualColumns.has(table_name)) actualColumns.set(table_name, {});
  const keys = await queryRows<{ table_name: string; column_name: string }>(
    database.db,
    sql`SELECT k.table_name, k.column_name
          FROM information_schema.table_constraints tc
          JOIN information_schema.key_column_usage k
            ON k.constraint_schema = tc.constraint_schema AND k.constraint_name = tc.constraint_name AND k.table_name = tc.table_name
         WHERE tc.table_schema = current_schema() AND tc.constraint_type = 'PRIMARY KEY'`,
  );
  actualPrimaryKeys = new Map();
  for (const { table_name, column_name } of keys) actualPrimaryKeys.set(table_name, [...(actualPrimaryKeys.get(table_name) ?? []), column_name].sort());
});

afterAll(async () => {
  await database?.close();
});

describe('server/db/schema.ts matches the migrated database', () => {
  it('declares every table of the database, and no other', () => {
    expect(declaredTables.length).toBeGreaterThan(0);
    expect(declaredTables.map((config) => config.name).sort()).toEqual([...actualColumns.keys()].sort());
  });

  it.each(declaredTables.map((config) => [config.name, config] as const))('%s: same columns, types, nullability, defaults and primary key', (name, config) => {
    expect(config.schema ?? undefined, 'tables are unqualified (the migrations run in any schema)').toBeUndefined();
    expect(declaredColumns(config), `columns of ${name}`).toEqual(actualColumns.get(name));
    expect(declaredPrimaryKey(config), `primary key of ${name}`).toEqual(actualPrimaryKeys.get(name) ?? []);
  });
});
