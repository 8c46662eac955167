import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/test/app.ts';

/**
 * A browser that stops reading an asset mid-stream (a closed tab, a page left while
 * its scripts load) is not a server error. The real app, on a real socket, with its log captured.
 */
type LogLine = { level: number; msg?: string; err?: { message?: string; code?: string } };

const lines: LogLine[] = [];
let t: TestApp;
let webDir: string;
let baseUrl: string;

/** An asset big enough, and random enough that compression cannot shrink it, to still be streaming when the client leaves. */
const ASSET_BYTES = 12 * 1024 * 1024;

beforeAll(async () => {
  webDir = mkdtempSync(join(tmpdir(), 'tablefair-abandoned-'));
  mkdirSync(join(webDir, 'assets'));
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><html lang="en-IN"><head><title>Tablefair</title></head><body></body></html>');
  writeFileSync(join(webDir, 'assets/big-1.js'), `/* ${randomBytes(ASSET_BYTES * 0.75).toString('base64')} */`);
  t = await createTestApp({
    env: { WEB_DIST_DIR: webDir, LOG_LEVEL: 'debug' },
    logDestination: { write: (line) => lines.push(JSON.parse(line) as LogLine) },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await t.close();
  rmSync(webDir, { recursive: true, force: true });
});

/** Requests the asset as a browser does (compressed), and drops the connection after the first bytes. */
function abandonAsset(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${baseUrl}${path}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (response) => {
      response.once('data', () => {
        outgoing.destroy();
        resolve(response.statusCode ?? 0);
      });
    });
    outgoing.on('error', (error) => {
      if (!outgoing.destroyed) reject(error);
    });
    outgoing.end();
  });
}

const mentionsPrematureClose = (line: LogLine) => /premature/i.test(`${line.msg ?? ''} ${line.err?.message ?? ''} ${line.err?.code ?? ''}`);

describe('an abandoned asset request', () => {
  it('is logged at debug, never at error', async () => {
    expect(await abandonAsset('/assets/big-1.js')).toBe(200);
    // The server notices the closed socket on its next write: wait for its line about it.
    const deadline = Date.now() + 10_000;
    while (!lines.some((line) => line.level === 20 && mentionsPrematureClose(line)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    expect(lines.filter((line) => line.level === 20 && mentionsPrematureClose(line)).length, JSON.stringify(lines)).toBeGreaterThan(0);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });

  it('leaves real errors at error', () => {
    const before = lines.length;
    t.app.log.error(new Error('the disk is full'));
    const logged = lines.slice(before);
    expect(logged.map((line) => [line.level, line.msg])).toEqual([[50, 'the disk is full']]);
  });
});
