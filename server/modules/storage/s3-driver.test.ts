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

/** A MinIO server on its default port with its default credentials, path-style. */
const MINIO = {
  settings: {
    endpoint: 'http://127.0.0.1:9000',
    bucket: 'tablefair-photos',
    region: 'us-east-1',
    accessKeyId: 'minioadmin',
    secretAccessKey: 'minioadmin',
    forcePathStyle: true,
  } satisfies S3Settings,
};

/** A presigned URL as its address and its sorted query parameters: S3 reads the parameters in any order. */
function parts(url: string): { address: string; query: [string, string][] } {
  const parsed = new URL(url);
  return { address: `${parsed.origin}${parsed.pathname}`, query: [...parsed.searchParams].sort(([a], [b]) => (a < b ? -1 : 1)) };
}

describe('SigV4 query signing', () => {
  it("reproduces AWS's example presigned URL: the same address, parameters and signature", () => {
    const url = presignS3Url(AWS_EXAMPLE, { method: 'GET', key: 'test.txt', expiresSeconds: 86400, now: new Date('2013-05-24T00:00:00Z') });
    expect(parts(url)).toEqual(
      parts(
        'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
      ),
    );
  });

  /**
   * MinIO-style (path-style, http, a port) and AWS-style URLs for each method the driver signs, as
   * the hand-written signer of decision 054 made them (it reproduced AWS's example above byte for
   * byte): the library signs every one the same, keys with spaces and parentheses included.
   */
  it.each([
    [
      'a browser PUT of a PNG to MinIO, its content type signed',
      { ...MINIO, method: 'PUT', key: 'dating/3f1c9a2e-photo.png', expiresSeconds: 900, headers: { 'Content-Type': 'image/png' } },
      'http://127.0.0.1:9000/tablefair-photos/dating/3f1c9a2e-photo.png?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=minioadmin%2F20261122%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261122T100000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=content-type%3Bhost&X-Amz-Signature=0f37d2ca0dbcfb6fc95fa04ce9fea43981198b388bedc06f890bcc5f14d6d91e',
    ],
    [
      "the app's GET from MinIO of a key with a space and parentheses",
      { ...MINIO, method: 'GET', key: 'dating/a b(1).jpg', expiresSeconds: 60 },
      'http://127.0.0.1:9000/tablefair-photos/dating/a%20b%281%29.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=minioadmin%2F20261122%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261122T100000Z&X-Amz-Expires=60&X-Amz-SignedHeaders=host&X-Amz-Signature=38fcf238f54e7e6c7f7a55f6051fbd22944f2571be9ab84443df29c5814e815e',
    ],
    [
      "the app's HEAD on MinIO",
      { ...MINIO, method: 'HEAD', key: 'hero/x.webp', expiresSeconds: 60 },
      'http://127.0.0.1:9000/tablefair-photos/hero/x.webp?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=minioadmin%2F20261122%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261122T100000Z&X-Amz-Expires=60&X-Amz-SignedHeaders=host&X-Amz-Signature=fda941905435f77c50066e56148fe6c4d9111e898f982cca0a2e14781ffe9444',
    ],
    [
      "the app's DELETE on an AWS bucket in Mumbai (virtual-hosted style)",
      {
        ...MINIO,
        settings: { ...MINIO.settings, endpoint: 'https://s3.ap-south-1.amazonaws.com', region: 'ap-south-1', forcePathStyle: false },
        method: 'DELETE',
        key: 'dating/x.jpg',
        expiresSeconds: 60,
      },
      'https://tablefair-photos.s3.ap-south-1.amazonaws.com/dating/x.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=minioadmin%2F20261122%2Fap-south-1%2Fs3%2Faws4_request&X-Amz-Date=20261122T100000Z&X-Amz-Expires=60&X-Amz-SignedHeaders=host&X-Amz-Signature=6f5a2e917a6c5e5d88af6a8a29890dac8be3c8f34db5dced9fd386878a63ef2e',
    ],
  ] as const)('signs %s as before', (_, { settings, ...request }, expected) => {
    expect(parts(presignS3Url(settings, { ...request, now: new Date('2026-11-22T10:00:00Z') }))).toEqual(parts(expected));
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
