import type { Registry } from 'prom-client';

/** One label set's observations: per bucket (not cumulative), their sum and count. */
export interface HistogramSeries {
  readonly labels: Readonly<Record<string, string>>;
  readonly perBucket: Float64Array;
  sum: number;
  count: number;
}

/** A value line as prom-client's registry formats it (the shape its own Histogram hands over). */
interface ValueLine {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
  /** prom-client's bucket lines say null (no exemplars kept). */
  exemplar?: null;
}

/**
 * A Prometheus histogram whose observations are counted in numbers of our own and turned into
 * prom-client's lines only at scrape time (decision 238). prom-client's Histogram validates and
 * hashes the label object on every observation; here a caller asks once for a label set's series
 * (`series`), keeps it, and an observation is a bucket search and three additions. The exposition
 * is the one prom-client's Histogram writes: the same `_bucket` (cumulative, `le` first, then
 * `+Inf`), `_sum` and `_count` lines, in the order the label sets were first seen.
 */
export class ScrapeTimeHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly upperBounds: readonly number[];
  private readonly labelNames: readonly string[];
  private byKey = new Map<string, HistogramSeries>();

  constructor(options: { name: string; help: string; labelNames: readonly string[]; buckets: readonly number[]; registers: Registry[] }) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    this.upperBounds = [...options.buckets].sort((a, b) => a - b);
    for (const registry of options.registers) registry.registerMetric(this as never);
  }

  /** The series of one label set, made on first demand; keep it and observe into it. */
  series(labels: Record<string, string>): HistogramSeries {
    const names = Object.keys(labels);
    const unknown = names.find((name) => !this.labelNames.includes(name));
    if (unknown !== undefined) throw new Error(`${this.name}: unknown label ${unknown}`);
    const key = this.labelNames.map((name) => labels[name] ?? '').join('\u0000');
    let series = this.byKey.get(key);
    if (!series) this.byKey.set(key, (series = { labels: { ...labels }, perBucket: new Float64Array(this.upperBounds.length), sum: 0, count: 0 }));
    return series;
  }

  /** One observation (seconds, for a duration) into a series this histogram made. */
  observe(series: HistogramSeries, value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`${this.name}: not a finite number: ${value}`);
    const bounds = this.upperBounds;
    for (let index = 0; index < bounds.length; index++) {
      if (value <= bounds[index]) {
        series.perBucket[index] += 1;
        break;
      }
    }
    series.sum += value;
    series.count += 1;
  }

  /** The lines prom-client's registry formats (its Histogram's getForPromString shape). */
  getForPromString(): { name: string; help: string; type: string; values: ValueLine[]; aggregator: string } {
    const values: ValueLine[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const series of this.byKey.values()) {
      const sharedLabels = { ...series.labels };
      let cumulative = 0;
      this.upperBounds.forEach((bound, index) => {
        cumulative += series.perBucket[index];
        values.push({ labels: { le: bound }, sharedLabels, value: cumulative, metricName: bucketName, exemplar: null });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels, value: series.count, metricName: bucketName, exemplar: null });
      values.push({ labels: {}, sharedLabels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The same as JSON (registry.getMetricsAsJSON): each line's labels with the series' own. */
  get() {
    const data = this.getForPromString();
    return { ...data, values: data.values.map(({ labels, sharedLabels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } })) };
  }

  /** Forgets every observation; series handed out before count from zero again and are still reported. */
  reset(): void {
    for (const series of this.byKey.values()) {
      series.perBucket.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}
