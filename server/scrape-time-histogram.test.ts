import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { ScrapeTimeHistogram } from './scrape-time-histogram.ts';

const OPTIONS = {
  name: 'tablefair_http_request_duration_seconds',
  help: 'Time to answer a request, per route template, method and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
};

/** The same observations through prom-client's Histogram and through ours, each in its own registry. */
function both(observations: [labels: { method: string; route: string; status_code: string }, seconds: number][]) {
  const theirs = new Registry();
  const ours = new Registry();
  const histogram = new Histogram({ ...OPTIONS, registers: [theirs] });
  const scrapeTime = new ScrapeTimeHistogram({ ...OPTIONS, registers: [ours] });
  for (const [labels, seconds] of observations) {
    histogram.observe(labels, seconds);
    scrapeTime.observe(scrapeTime.series(labels), seconds);
  }
  return { theirs, ours, scrapeTime };
}

const availability = { method: 'GET', route: '/api/restaurants/:slug/availability', status_code: '200' };
const hold = { method: 'POST', route: '/api/reservations', status_code: '201' };

describe('ScrapeTimeHistogram (decision 238)', () => {
  it('writes exactly the exposition prom-client’s Histogram writes for the same observations', async () => {
    const observations: [typeof availability, number][] = [
      [availability, 0.0004],
      [hold, 0.03],
      [availability, 0.005],
      [availability, 0.0051],
      [{ ...availability, status_code: '404' }, 0.2],
      [hold, 12],
      [availability, 0.75],
    ];
    const { theirs, ours } = both(observations);
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(
      'tablefair_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/restaurants/:slug/availability",status_code="200"} 2\n',
    );
    expect(text).toContain('tablefair_http_request_duration_seconds_bucket{le="10",method="POST",route="/api/reservations",status_code="201"} 1\n');
    expect(text).toContain('tablefair_http_request_duration_seconds_count{method="POST",route="/api/reservations",status_code="201"} 2\n');
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it('keeps one series per label set, however often it is asked for', () => {
    const { scrapeTime } = both([]);
    const first = scrapeTime.series({ ...availability });
    expect(scrapeTime.series({ ...availability })).toBe(first);
    expect(scrapeTime.series({ ...availability, status_code: '304' })).not.toBe(first);
  });

  it('refuses a label it was not given and a value that is not a finite number, as prom-client does', () => {
    const { scrapeTime } = both([]);
    expect(() => scrapeTime.series({ ...availability, path: '/x' } as typeof availability)).toThrow(/unknown label path/);
    expect(() => scrapeTime.observe(scrapeTime.series(availability), Number.NaN)).toThrow(TypeError);
  });
});
