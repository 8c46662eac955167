// `npm run openapi`: writes the OpenAPI document the app serves at /docs/json to docs/openapi.json,
// and the typed client's types generated from it by openapi-typescript to
// api-client/schema.ts. Both are committed; server/openapi.db.test.ts fails when either is
// stale (docs/decisions/171-generated-client-committed.md).
import { writeFileSync } from 'node:fs';
import { openApiArtifacts } from '#server/test/openapi-artifacts.ts';
import { openPglite } from '#server/db/client.ts';

const database = await openPglite();
await database.migrate();
try {
  const artifacts = await openApiArtifacts(database);
  writeFileSync('docs/openapi.json', artifacts.document);
  writeFileSync('api-client/schema.ts', artifacts.clientTypes);
  console.log('Wrote docs/openapi.json and api-client/schema.ts');
} finally {
  await database.close();
}
