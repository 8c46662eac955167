import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_DOCS_COMMAND,
  CONFIGURATION_DOC_PATH,
  ENV_EXAMPLE_PATH,
  renderConfigurationDoc,
  renderEnvExample,
  undescribedVariables,
} from './config-docs.ts';
import { envSchema, envSections, loadConfig } from './config.ts';

/** `.env.example` as name → value, for the lines that set a variable (comments and blanks skipped). */
function readEnvExample(): Map<string, string> {
  const lines = readFileSync(new URL('../.env.example', import.meta.url), 'utf8').split('\n');
  const entries = lines.filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line)).map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]);
  return new Map(entries.map(([name, value]) => [name, value.replace(/^"(.*)"$/, '$1')]));
}

describe('configuration', () => {
  it('treats an empty SIGNING_SECRET as unset, and refuses a short one', () => {
    expect(loadConfig({ SIGNING_SECRET: '' }).signingSecret).toBeUndefined();
    expect(loadConfig({ SIGNING_SECRET: 'x'.repeat(32) }).signingSecret).toBe('x'.repeat(32));
    expect(() => loadConfig({ SIGNING_SECRET: 'too short' })).toThrow();
  });

  it('.env.example names every variable the server reads, and loads as it is', () => {
    const example = readEnvExample();
    const missing = Object.keys(envSchema.shape).filter((name) => !example.has(name));
    expect(missing).toEqual([]);
    expect(() => loadConfig(Object.fromEntries(example))).not.toThrow();
  });

  it('describes every variable in server/config.ts, each in one section', () => {
    expect(undescribedVariables(), 'give each a .describe() sentence in server/config.ts').toEqual([]);
    const inSections = envSections.flatMap((section) => Object.keys(section.variables));
    expect(inSections.sort()).toEqual(Object.keys(envSchema.shape).sort());
  });

  it.each([
    [CONFIGURATION_DOC_PATH, renderConfigurationDoc],
    [ENV_EXAMPLE_PATH, renderEnvExample],
  ])(`%s is what \`${CONFIG_DOCS_COMMAND}\` writes from the schema`, (path, render) => {
    const committed = readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
    expect(committed === render(), `${path} is stale: run \`${CONFIG_DOCS_COMMAND}\``).toBe(true);
  });

  it('writes each default into docs/configuration.md and .env.example as the server parses it', () => {
    const doc = renderConfigurationDoc();
    expect(doc).toContain('| `HOLD_MINUTES` | `10` |');
    expect(doc).toContain('| `REMINDER_OFFSETS_MINUTES` | `1440,120` |');
    expect(doc).toContain('| `DATABASE_URL` | unset |');
    expect(doc).toContain('| `UPLOAD_BYTES_PER_IP_PER_DAY` | `41943040` |');
    const example = readEnvExample();
    expect(example.get('MAIL_FROM')).toBe('Tablefair <no-reply@tablefair.in>');
    expect(loadConfig(Object.fromEntries(example))).toMatchObject({ holdMinutes: 10, reminderOffsetsMinutes: [1440, 120], databaseUrl: undefined });
  });

  it('refuses to start production on the payments sandbox unless PAYMENTS_SANDBOX_DEMO=1 names a demo on purpose (decision 201)', () => {
    // NODE_ENV=production and nothing else: the sandbox is the default driver, and it is refused.
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /^Invalid configuration: PAYMENTS_DRIVER=sandbox .* refused when NODE_ENV=production .*PAYMENTS_DRIVER=razorpay.*PAYMENTS_SANDBOX_DEMO=1/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENTS_DRIVER: 'sandbox' })).toThrow(/PAYMENTS_SANDBOX_DEMO=1/);
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENTS_SANDBOX_DEMO: '0' })).toThrow(/PAYMENTS_SANDBOX_DEMO=1/);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_SANDBOX_DEMO: '1', TEXTS_LOG_DEMO: '1' }).payments.driver).toBe('sandbox');
    const razorpay = { RAZORPAY_KEY_ID: 'rzp_live_x', RAZORPAY_KEY_SECRET: 'secret', RAZORPAY_WEBHOOK_SECRET: 'webhook' };
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_DRIVER: 'razorpay', ...razorpay, TEXTS_LOG_DEMO: '1' }).payments.driver).toBe('razorpay');
    // Outside production the sandbox stays the default, named or not.
    expect(loadConfig({}).payments.driver).toBe('sandbox');
  });

  it('seeds no demo data in production unless SEED_DEMO=1 asks, embedded database or not (decision 201)', () => {
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_SANDBOX_DEMO: '1', TEXTS_LOG_DEMO: '1' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_SANDBOX_DEMO: '1', TEXTS_LOG_DEMO: '1', SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/x' }).seedDemo).toBe(false);
  });
});
