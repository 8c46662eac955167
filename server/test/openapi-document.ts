import { format, resolveConfig } from 'prettier';
import { buildApp } from '#server/app.ts';
import { ManualClock } from '#server/clock.ts';
import { loadConfig } from '#server/config.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { DOCUMENT_PATH } from '../../scripts/client-types.ts';

/**
 * The OpenAPI document as the app builds it, Prettier-formatted as committed in docs/openapi.json,
 * so that a test can compare it with the file.
 */
export async function openApiDocument(database: DatabaseHandle): Promise<string> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database, clock: new ManualClock('2026-11-23T04:30:00.000Z'), runBackgroundJobs: false });
  try {
    await app.ready();
    return await format(JSON.stringify(app.swagger()), { ...(await resolveConfig(DOCUMENT_PATH)), filepath: DOCUMENT_PATH });
  } finally {
    await app.close();
  }
}
