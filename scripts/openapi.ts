// `npm run openapi`: writes the OpenAPI document the app serves at /docs/json to docs/openapi.json
// (committed; server/openapi.db.test.ts fails while it is stale, docs/decisions/171-generated-client-committed.md),
// then the typed client's types generated from it to api-client/schema.ts (not committed,
// docs/decisions/293-client-types-generated-at-install.md).
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '#server/test/openapi-document.ts';
import { openPglite } from '#server/db/client.ts';
import { DOCUMENT_PATH, writeClientTypes } from './client-types.ts';

const database = await openPglite();
await database.migrate();
try {
  writeFileSync(DOCUMENT_PATH, await openApiDocument(database));
  await writeClientTypes();
  console.log(`Wrote ${DOCUMENT_PATH} and api-client/schema.ts`);
} finally {
  await database.close();
}
