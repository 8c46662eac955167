import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envSchema, loadConfig } from './config.ts';

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
});
