import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { openPglite } from '#server/db/client.ts';

/**
 * Once per run: migrate one PGlite in a folder of its own (the template), so every test file
 * starts its own database from a copy of that folder in a fraction of a migration's time, and a
 * spawned server starts on a copy instead of running initdb and every migration
 * (docs/decisions/271-test-databases-are-copied-folders.md). The copies are made in the same
 * run folder, on /dev/shm where there is one, and go with it at the end.
 * With DATABASE_URL set, each file makes its own schema instead (see database.ts).
 */
export default async function setup(project: TestProject) {
  if (process.env.CI === 'true' && process.env.REQUIRE_POSTGRES === '1' && !process.env.DATABASE_URL) {
    throw new Error('REQUIRE_POSTGRES=1 but DATABASE_URL is not set');
  }
  const [{ runDir, templateDir }, serverBundle] = await Promise.all([migratedTemplate(), bundledServer()]);
  project.provide('pgliteRunDir', runDir);
  project.provide('pgliteTemplateDir', templateDir);
  project.provide('serverBundle', serverBundle);
  return () => {
    rmSync(runDir, { recursive: true, force: true });
    rmSync(resolve(serverBundle, '..'), { recursive: true, force: true });
  };
}

/**
 * What `make` gives, made once per Vitest process. The db and e2e projects both run this setup in
 * that one process, so each of them gets the same migration (decision 180) and the same bundle
 * (decision 288) instead of paying for two before the first file starts.
 */
function oncePerRun<T>(name: string, make: () => Promise<T>): Promise<T> {
  const holder = globalThis as { [key: symbol]: Promise<unknown> | undefined };
  const key = Symbol.for(`tablefair.${name}`);
  holder[key] ??= make();
  return holder[key] as Promise<T>;
}

/**
 * `server/main.ts` and everything it imports from this repository, as one ES module that plain
 * Node runs; packages stay imports from node_modules. A server a test starts as a process then
 * loads in about 3.5 CPU seconds instead of about 6.8 through tsx's loader
 * (docs/decisions/288-started-servers-run-a-bundle.md). It is written under node_modules/.cache so
 * that those imports resolve as they do from server/. Each file's `import.meta.url` stays its own
 * file's address (the migrations folder is found from it).
 */
function bundledServer(): Promise<string> {
  return oncePerRun('serverBundle', async () => {
    const folder = join('node_modules', '.cache', 'tablefair-test-server');
    mkdirSync(folder, { recursive: true });
    const outfile = join(mkdtempSync(join(folder, 'run-')), 'main.mjs');
    await build({
      entryPoints: ['server/main.ts'],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
      plugins: [
        {
          name: 'own-import-meta-url',
          setup(builder) {
            builder.onLoad({ filter: /\.ts$/ }, (args) => ({
              contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
              loader: 'ts',
            }));
          },
        },
      ],
    });
    return resolve(outfile);
  });
}

function migratedTemplate(): Promise<{ runDir: string; templateDir: string }> {
  return oncePerRun('migratedTemplate', async () => {
    // A RAM-backed folder when the machine has one: the copies are written and read like memory.
    const runDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'tablefair-test-'));
    const templateDir = join(runDir, 'migrated');
    const handle = await openPglite({ dataDir: templateDir });
    await handle.migrate();
    // A clean close checkpoints, so a copy opens without replaying the log.
    await handle.close();
    return { runDir, templateDir };
  });
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's folder on a fast disk: the templates and every file's copy live in it. */
    pgliteRunDir: string;
    /** A migrated, closed PGlite data directory to copy, never to open. */
    pgliteTemplateDir: string;
    /** The absolute path of `server/main.ts` bundled for plain Node (startServerProcess runs it). */
    serverBundle: string;
  }
}
