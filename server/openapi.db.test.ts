import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '#server/test/database.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { openApiArtifacts } from '#server/test/openapi-artifacts.ts';

type Operation = { operationId?: string; security?: unknown[]; responses?: Record<string, unknown> };

/**
 * The OpenAPI document is the contract client generators read: every operation is named and says
 * who may call it, and the committed document and generated client types are what the app serves
 * today (docs/decisions/171-generated-client-committed.md).
 */
describe('the OpenAPI document', () => {
  let database: DatabaseHandle;
  let artifacts: { document: string; clientTypes: string };
  let operations: Array<{ route: string; operation: Operation }>;

  beforeAll(async () => {
    database = await createTestDatabase();
    artifacts = await openApiArtifacts(database);
    const document = JSON.parse(artifacts.document) as { paths: Record<string, Record<string, Operation>> };
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
    expect(readFileSync('docs/openapi.json', 'utf8') === artifacts.document, 'docs/openapi.json is stale: run `npm run openapi`').toBe(true);
  });

  it('has its generated client types committed in api-client/schema.ts (run `npm run openapi`)', () => {
    expect(readFileSync('api-client/schema.ts', 'utf8') === artifacts.clientTypes, 'api-client/schema.ts is stale: run `npm run openapi`').toBe(true);
  });
});
