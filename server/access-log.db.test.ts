import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess } from '#server/test/server-process.ts';

type AccessLine = { msg?: string; reqId?: string; method?: string; route?: string | null; status?: number; ms?: number; url?: string; req?: unknown };

/**
 * The access log of the real server process (decision 270): one line per request, written through
 * the asynchronous destination, and none lost when SIGTERM stops the process right after.
 */
describe('access lines of the server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tablefair-access-log-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes one line per request, each with its id, and loses none on SIGTERM', async () => {
    const server = await startServerProcess(
      { DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: '0', LOG_LEVEL: 'info', SHUTDOWN_READINESS_DELAY_SECONDS: '0' },
      await freePort(),
    );
    const requests = 300;
    const ids: string[] = [];
    try {
      // In batches, so lines are written while earlier writes are still under way.
      for (let sent = 0; sent < requests; sent += 50) {
        const answers = await Promise.all(Array.from({ length: 50 }, () => fetch(`${server.baseUrl}/api/restaurants/nowhere-${sent}/calendar`)));
        for (const answer of answers) {
          expect(answer.status).toBe(404);
          ids.push(answer.headers.get('x-request-id')!);
          await answer.arrayBuffer();
        }
      }
    } finally {
      server.child.kill('SIGTERM');
    }
    expect((await server.exited).code).toBe(0);
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as AccessLine);
    const access = lines.filter((line) => line.msg === 'request completed' && line.route === '/api/restaurants/:slug/calendar');
    expect(access.map((line) => line.reqId).sort()).toEqual([...ids].sort());
    for (const line of access) {
      expect(line).toMatchObject({ method: 'GET', status: 404 });
      expect(line.ms).toBeGreaterThanOrEqual(0);
      expect(line.req).toBeUndefined();
    }
    // Fastify's own arrival line is not written: one line per request.
    expect(lines.filter((line) => line.msg === 'incoming request')).toEqual([]);
    expect(lines.at(-1)?.msg).toBe('stopped');
  }, 120_000);
});
