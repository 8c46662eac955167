import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { inject } from 'vitest';
import { copyPgliteTemplate } from './database.ts';

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `server/main.ts` as its own process, as `npm start` does but from the run's bundle of it
 * (the global setup's, docs/decisions/288-started-servers-run-a-bundle.md), and waits until it
 * answers.
 * On the embedded database, a DATA_DIR without a database yet gets a copy of the run's migrated
 * one, so the server starts as it would on its second day instead of running initdb and every
 * migration (docs/decisions/271-test-databases-are-copied-folders.md); the migration of an
 * empty folder is the global setup's, on the same code. A folder that has one keeps it.
 */
export async function startServerProcess(env: Record<string, string>, port: number): Promise<ServerProcess> {
  const embedded = (env.DATABASE_URL ?? process.env.DATABASE_URL ?? '') === '';
  if (embedded && env.DATA_DIR && !existsSync(join(env.DATA_DIR, 'pglite'))) {
    copyPgliteTemplate(inject('pgliteTemplateDir'), join(env.DATA_DIR, 'pglite'));
  }
  const child = spawn(process.execPath, [inject('serverBundle')], {
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), WEB_DIST_DIR: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return { child, baseUrl, output: () => output, exited };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${output}`);
}
