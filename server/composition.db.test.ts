import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/test/app.ts';

/**
 * The composition root connects the modules by name (decision 189), and docs/architecture.md lists
 * the same connections in three tables: the listeners, the steps of every reservation move, and
 * the background jobs. This test builds the real app and fails when the tables and the
 * registrations differ, or when a name does not lead to a function of the services.
 */
const ARCHITECTURE = readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8');

/** The rows of the first table under `### heading`, as trimmed cells without code marks (header and rule left out). */
function tableUnder(heading: string): string[][] {
  const lines = ARCHITECTURE.split('\n');
  const start = lines.indexOf(`### ${heading}`);
  if (start === -1) throw new Error(`docs/architecture.md has no "### ${heading}" section`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (!line.startsWith('|')) {
      if (rows.length > 0) break;
      continue;
    }
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim().replaceAll('`', '')),
    );
  }
  return rows.slice(2);
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The service function a `service.function` name leads to, if any. */
function serviceFunction(name: string): unknown {
  const [service, member] = name.split('.');
  const found = (t.app.services as unknown as Record<string, Record<string, unknown> | undefined>)[service ?? ''];
  return found?.[member ?? ''];
}

describe('the connections between modules (server/composition.ts and docs/architecture.md)', () => {
  it('lists every listener the app connected, and no other', () => {
    const documented = tableUnder('Listeners').map(([event, listener]) => ({ event, listener }));
    expect(documented.length).toBeGreaterThan(0);
    expect(t.app.wiring.listeners).toEqual(documented);
  });

  it('lists the steps of every reservation move in the order they run', () => {
    const documented = tableUnder('Move steps').map(([order, step]) => ({ order: Number(order), step }));
    expect(documented.length).toBeGreaterThan(0);
    expect(t.app.wiring.moveSteps.map((step, index) => ({ order: index + 1, step }))).toEqual(documented);
  });

  it('lists every background job, the setting of its interval and what it runs, in the order they run', () => {
    const documented = tableUnder('Background jobs').map(([job, every, runs]) => ({ job, every, runs }));
    expect(documented.length).toBeGreaterThan(0);
    expect(t.app.wiring.jobs.map(({ job, every, runs }) => ({ job, every, runs }))).toEqual(documented);
    for (const job of t.app.wiring.jobs) expect(job.seconds, job.job).toBe(t.config.holdSweepSeconds);
  });

  it('names only functions the services have', () => {
    const names = [
      ...t.app.wiring.listeners.flatMap(({ event, listener }) => (event.startsWith('events ') ? [listener] : [event, listener])),
      ...t.app.wiring.moveSteps,
      ...t.app.wiring.jobs.map((job) => job.runs),
    ];
    expect(names.filter((name) => typeof serviceFunction(name) !== 'function')).toEqual([]);
  });
});
