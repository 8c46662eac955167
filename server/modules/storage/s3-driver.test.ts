import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#server/clock.ts';
import { objectUrl, presignS3Url, S3ObjectStore, uriEncode, type S3Settings } from './s3-driver.ts';

/** AWS's published example for query-string SigV4 ("Authenticating Requests: Using Query Parameters"). */
const AWS_EXAMPLE: S3Settings = {
  endpoint: 'https://s3.amazonaws.com',
  bucket: 'examplebucket',
  region: 'us-east-1',
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  forcePathStyle: false,
};

describe('SigV4 query signing', () => {
  it('reproduces the AWS example presigned URL byte for byte', () => {
    const url = presignS3Url(AWS_EXAMPLE, { method: 'GET', key: 'test.txt', expiresSeconds: 86400, now: new Date('2013-05-24T00:00:00Z') });
    expect(url).toBe(
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });

  it('changes the signature when anything signed changes', () => {
    const base = { method: 'GET' as const, key: 'test.txt', expiresSeconds: 86400, now: new Date('2013-05-24T00:00:00Z') };
    const signature = (url: string) => new URL(url).searchParams.get('X-Amz-Signature');
    const reference = signature(presignS3Url(AWS_EXAMPLE, base));
    expect(signature(presignS3Url(AWS_EXAMPLE, { ...base, method: 'PUT' }))).not.toBe(reference);
    expect(signature(presignS3Url(AWS_EXAMPLE, { ...base, key: 'test2.txt' }))).not.toBe(reference);
    expect(signature(presignS3Url(AWS_EXAMPLE, { ...base, expiresSeconds: 60 }))).not.toBe(reference);
    expect(signature(presignS3Url({ ...AWS_EXAMPLE, secretAccessKey: 'other' }, base))).not.toBe(reference);
  });

  it('signs the content type of a PUT, so the browser must send exactly that type', () => {
    const url = new URL(
      presignS3Url(AWS_EXAMPLE, {
        method: 'PUT',
        key: 'dating/a.png',
        expiresSeconds: 900,
        now: new Date('2026-11-22T10:00:00Z'),
        headers: { 'Content-Type': 'image/png' },
      }),
    );
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
    expect(url.pathname).toBe('/dating/a.png');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('builds path-style URLs for self-hosted stores and encodes keys per RFC 3986', () => {
    const settings = { ...AWS_EXAMPLE, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true };
    expect(objectUrl(settings, 'dating/a b(1).jpg').href).toBe('http://127.0.0.1:9000/examplebucket/dating/a%20b%281%29.jpg');
    expect(uriEncode("!'()*~")).toBe('%21%27%28%29%2A~');
  });
});

describe('S3ObjectStore against a stand-in S3 server', () => {
  let server: Server;
  const objects = new Map<string, Buffer>();
  const seen: { method: string; path: string; signed: boolean; contentType?: string }[] = [];
  let settings: S3Settings;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      seen.push({
        method: req.method ?? '',
        path: url.pathname,
        signed: /^[0-9a-f]{64}$/.test(url.searchParams.get('X-Amz-Signature') ?? ''),
        contentType: req.headers['content-type'],
      });
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method === 'PUT') {
          objects.set(url.pathname, Buffer.concat(chunks));
          res.writeHead(200).end();
          return;
        }
        const body = objects.get(url.pathname);
        if (!body) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-length': String(body.length) });
        res.end(req.method === 'HEAD' ? undefined : body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    settings = { ...AWS_EXAMPLE, endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('puts, sizes and reads objects through signed URLs, and reports a missing one as absent', async () => {
    const store = new S3ObjectStore(settings, new ManualClock('2026-11-22T10:00:00Z'));
    await store.put('dating/x.png', new Uint8Array([1, 2, 3, 4]), 'image/png');
    expect(await store.size('dating/x.png')).toBe(4);
    expect([...(await store.get('dating/x.png'))!]).toEqual([1, 2, 3, 4]);
    expect(await store.get('dating/missing.png')).toBeUndefined();
    expect(await store.size('dating/missing.png')).toBeUndefined();
    expect(seen.every((request) => request.signed && request.path.startsWith('/examplebucket/dating/'))).toBe(true);
    expect(seen[0]).toMatchObject({ method: 'PUT', contentType: 'image/png' });
  });
});
