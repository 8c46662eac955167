// The typed client's types (api-client/schema.ts), generated from the committed OpenAPI document
// (docs/openapi.json) by openapi-typescript. The file is generated output and not committed
// (docs/decisions/293-client-types-generated-at-install.md): `npm install` writes it (the
// postinstall script), `npm run openapi` rewrites it beside the document, and
// server/openapi.db.test.ts fails while it differs from what the document gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const DOCUMENT_PATH = 'docs/openapi.json';
export const CLIENT_TYPES_PATH = 'api-client/schema.ts';

/** openapi-typescript's types for an OpenAPI document, Prettier-formatted, with a header that says where they come from. */
export async function clientTypesOf(document: object): Promise<string> {
  const [{ default: openapiTS, astToString }, { format, resolveConfig }] = await Promise.all([import('openapi-typescript'), import('prettier')]);
  const header = `// Generated from ${DOCUMENT_PATH} by openapi-typescript (scripts/client-types.ts): not committed, do not edit.\n`;
  const types = header + astToString(await openapiTS(document as never));
  return format(types, { ...(await resolveConfig(CLIENT_TYPES_PATH)), filepath: CLIENT_TYPES_PATH });
}

/** Writes api-client/schema.ts from docs/openapi.json as it is on disk. */
export async function writeClientTypes(): Promise<void> {
  writeFileSync(CLIENT_TYPES_PATH, await clientTypesOf(JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8')) as object));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // An install without the development packages (`npm ci --omit=dev`) runs the app, which never
  // reads these types: say so and leave them unwritten instead of failing the install.
  const hasGenerator = await import('openapi-typescript').then(
    () => true,
    () => false,
  );
  if (hasGenerator) {
    await writeClientTypes();
    console.log(`Wrote ${CLIENT_TYPES_PATH} from ${DOCUMENT_PATH}`);
  } else {
    console.log(`${CLIENT_TYPES_PATH} not written: openapi-typescript, a development package, is not installed`);
  }
}
