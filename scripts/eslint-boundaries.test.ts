import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * The import boundaries of docs/architecture.md, as eslint.config.js enforces them: each case lints
 * a snippet as if it lived at `file` and expects the boundary rule to report it, or not.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: ROOT });
// Loading the config and its plugins is the slow part (seconds on a busy machine); each lint after it takes milliseconds.
vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => eslint.lintText('export {};', { filePath: path.join(ROOT, 'web/warm-up.ts') }), 120_000);

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((message) => message.ruleId === 'tablefair/import-boundaries' && message.severity === 2).map((message) => message.message);
}

describe('web/ never imports from server/', () => {
  it.each([
    ['an alias', `import { loadConfig } from '#server/config.ts';`],
    ['a relative path', `import { AppError } from '../../../server/errors.ts';`],
    ['a type-only import', `import type { AppConfig } from '#server/config.ts';`],
    ['a dynamic import', `export const load = () => import('#server/markup.ts');`],
    ['a re-export', `export * from '../../../server/clock.ts';`],
  ])('reports %s', async (_, code) => {
    expect(await boundaryErrors('web/features/example/example.ts', code)).toEqual([expect.stringContaining('web/ must not import from server/')]);
  });

  it('allows common/, web/ and packages', async () => {
    const code = `import { z } from 'zod';\nimport { useState } from 'react';\nimport type { X } from '#common/contract/x.ts';\nimport { y } from '#web/api/client.ts';\nimport { w } from '../../components/ui/w.tsx';\nexport { z, useState, y, w };\nexport type { X };`;
    expect(await boundaryErrors('web/features/example/example.tsx', code)).toEqual([]);
  });
});

describe('common/ imports no Node built-ins, server/ or web/', () => {
  it.each([
    ['node:crypto', `import { randomBytes } from 'node:crypto';`, 'Node built-in'],
    ['bare fs', `import { readFileSync } from 'fs';`, 'Node built-in'],
    ['bare crypto', `import crypto from 'crypto';`, 'Node built-in'],
    ['a server alias', `import { AppError } from '#server/errors.ts';`, 'must not import from server/'],
    ['a relative path into web/', `import { api } from '../../web/api/client.ts';`, 'must not import from web/'],
    ['a web alias', `import { api } from '#web/api/client.ts';`, 'must not import from web/'],
  ])('reports %s', async (_, code, expected) => {
    expect(await boundaryErrors('common/domain/example.ts', `${code}\nexport {};`)).toEqual([expect.stringContaining(expected)]);
  });

  it('allows packages and other common/ files', async () => {
    const code = `import { z } from 'zod';\nimport { a } from './time.ts';\nimport { b } from '#common/contract/b.ts';\nexport { z, a, b };`;
    expect(await boundaryErrors('common/domain/example.ts', code)).toEqual([]);
  });

  it('lets a test under common/ (run only in Node) use a built-in, but not server/', async () => {
    expect(await boundaryErrors('common/domain/example.test.ts', `import { createHash } from 'node:crypto';\nexport { createHash };`)).toEqual([]);
    expect(await boundaryErrors('common/domain/example.test.ts', `import { x } from '#server/x.ts';\nexport { x };`)).toHaveLength(1);
  });
});

describe('the generated API client stands apart (decision 195)', () => {
  it.each([
    ['common/', 'common/contract/example.ts'],
    ["the server's own code", 'server/modules/drops/drops.service.ts'],
  ])('is not imported by %s', async (_, file) => {
    expect(await boundaryErrors(file, `import { createTablefairClient } from '#api-client/client.ts';\nexport { createTablefairClient };`)).toEqual([
      expect.stringContaining('must not import the generated client'),
    ]);
  });

  it('is imported by tests, and imports nothing of ours', async () => {
    const code = `import { createTablefairClient } from '#api-client/client.ts';\nexport { createTablefairClient };`;
    expect(await boundaryErrors('server/api-client-journey.db.test.ts', code)).toEqual([]);
    expect(await boundaryErrors('api-client/client.ts', `import type { Contract } from '#common/contract/common.ts';\nexport type { Contract };`)).toEqual([
      expect.stringContaining('api-client/ must not import from common/'),
    ]);
    expect(
      await boundaryErrors(
        'api-client/client.ts',
        `import createClient from 'openapi-fetch';\nimport type { paths } from './schema.ts';\nexport { createClient, type paths };`,
      ),
    ).toEqual([]);
  });
});

describe("no module imports another module's repository", () => {
  it.each([
    ['an alias', `import { insertDrop } from '#server/modules/drops/drops.repository.ts';`],
    ['a relative path', `import { insertDrop } from '../drops/drops.repository.ts';`],
    ['a path without the extension', `import { insertDrop } from '../drops/drops.repository';`],
    ['a re-export', `export { insertDrop } from '../drops/drops.repository.ts';`],
    ['a repository that is not named after its module', `import { f } from '#server/modules/accounts/sessions.repository.ts';`],
  ])('reports %s', async (_, code) => {
    expect(await boundaryErrors('server/modules/reservations/reservations.service.ts', `${code}\nexport {};`)).toEqual([
      expect.stringContaining('must not import the'),
    ]);
  });

  it("allows the module's own repository and another module's service", async () => {
    const code = `import { a } from './reservations.repository.ts';\nimport { b } from '#server/modules/reservations/reservations.repository.ts';\nimport { c } from '../drops/drops.service.ts';\nimport { d } from '#server/db/schema.ts';\nexport { a, b, c, d };`;
    expect(await boundaryErrors('server/modules/reservations/reservations.service.ts', code)).toEqual([]);
  });

  it('exempts tests, which may read another module’s SQL (e.g. query-plan tests)', async () => {
    const code = `import { a } from '#server/modules/reservations/reservations.repository.ts';\nexport { a };`;
    expect(await boundaryErrors('server/modules/availability/query-plans.db.test.ts', code)).toEqual([]);
    expect(await boundaryErrors('server/modules/availability/availability.test.ts', code)).toEqual([]);
  });

  it('leaves code outside server/modules (seed, test harness) alone', async () => {
    const code = `import { insertDrop } from '#server/modules/drops/drops.repository.ts';\nexport { insertDrop };`;
    expect(await boundaryErrors('server/db/seed/seed.ts', code)).toEqual([]);
    expect(await boundaryErrors('server/test/factories.ts', code)).toEqual([]);
  });
});
