import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '#server/test/database.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { openApiDocument } from '#server/test/openapi-document.ts';
import { CLIENT_TYPES_PATH, clientTypesOf, DOCUMENT_PATH } from '../scripts/client-types.ts';

type Operation = { operationId?: string; security?: unknown[]; responses?: Record<string, unknown> };

/**
 * The OpenAPI document is the contract client generators read: every operation is named and says
 * who may call it, the committed document is what the app serves today
 * (docs/decisions/171-generated-client-committed.md), and the client types installed beside it are
 * what the document gives (docs/decisions/293-client-types-generated-at-install.md).
 */
describe('the OpenAPI document', () => {
  let database: DatabaseHandle;
  let served: string;
  let operations: Array<{ route: string; operation: Operation }>;

  beforeAll(async () => {
    database = await createTestDatabase();
    served = await openApiDocument(database);
    const document = JSON.parse(served) as { paths: Record<string, Record<string, Operation>> };
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation })),
    );
  });
  afterAll(() => database.close());

  it('names every operation with a unique camelCase operationId (schema.operationId on the route)', () => {
    expect(operations.length).toBeGreaterThan(60);
    const unnamed = operations.filter(({ operation }) => !/^[a-z][a-zA-Z0-9]*$/.test(operation.operationId ?? '')).map(({ route }) => route);
    expect(unnamed, 'give these routes a camelCase schema.operationId').toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(
      ids.filter((id, index) => ids.indexOf(id) !== index),
      'operationIds must be unique',
    ).toEqual([]);
  });

  it('says who may call every operation (schema.security from common/contract/openapi-security.ts)', () => {
    const undeclared = operations.filter(({ operation }) => !Array.isArray(operation.security)).map(({ route }) => route);
    expect(undeclared).toEqual([]);
  });

  it('is the committed docs/openapi.json (run `npm run openapi` after changing a route)', () => {
    expect(readFileSync(DOCUMENT_PATH, 'utf8') === served, 'docs/openapi.json is stale: run `npm run openapi`').toBe(true);
  });

  it('has the client types the committed document gives in api-client/schema.ts (written by `npm install` and `npm run openapi`)', async () => {
    const expected = await clientTypesOf(JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8')) as object);
    expect(readFileSync(CLIENT_TYPES_PATH, 'utf8') === expected, 'api-client/schema.ts is stale: run `npm run openapi`').toBe(true);
  });
});
