import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';

/**
 * A typed client of the Tablefair API, generated from the OpenAPI document (docs/openapi.json →
 * schema.ts by `npm run openapi`): paths, parameters, bodies and answers are checked by tsc.
 * With a token, every call sends it as the bearer credential.
 */
export function createTablefairClient(baseUrl: string, token?: string) {
  return createClient<paths>({ baseUrl, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

export type TablefairClient = ReturnType<typeof createTablefairClient>;
