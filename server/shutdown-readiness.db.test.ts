import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, type ServerProcess } from '#server/test/server-process.ts';

/**
 * The real server process on SIGTERM: /health/ready turns 503 at once while the instance still
 * answers everything else for SHUTDOWN_READINESS_DELAY_SECONDS, then it drains and exits 0.
 * Metrics on METRICS_PORT are served by the same process.
 */
describe('SIGTERM on the server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tablefair-shutdown-'));
  let server: ServerProcess | undefined;
  afterAll(() => {
    server?.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('turns readiness false before draining, and keeps serving meanwhile', async () => {
    const metricsPort = await freePort();
    server = await startServerProcess(
      { DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: '0', SHUTDOWN_READINESS_DELAY_SECONDS: '3', METRICS_PORT: String(metricsPort) },
      await freePort(),
    );
    let ready = 0;
    for (let attempt = 0; attempt < 40 && ready !== 200; attempt++) {
      ready = (await fetch(`${server.baseUrl}/health/ready`)).status;
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(ready).toBe(200);
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('tablefair_http_request_duration_seconds_count{method="GET",route="/health/ready",status_code="200"}');

    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const during = await fetch(`${server.baseUrl}/health/ready`);
    expect(during.status).toBe(503);
    expect(((await during.json()) as { checks: { notShuttingDown: boolean } }).checks.notShuttingDown).toBe(false);
    expect((await fetch(`${server.baseUrl}/health/live`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/restaurants`)).status).toBe(200);

    expect(await server.exited).toEqual({ code: 0, signal: null });
  }, 120_000);
});
