import { createHash, createHmac } from 'node:crypto';
import type { Clock } from '#server/clock.ts';

/** Where an S3-compatible bucket lives and how to sign for it (STORAGE_DRIVER=s3). */
export interface S3Settings {
  /** e.g. https://s3.ap-south-1.amazonaws.com, or a MinIO/R2 endpoint. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** https://endpoint/bucket/key instead of https://bucket.endpoint/key (MinIO and most self-hosted stores). */
  forcePathStyle: boolean;
}

export interface PresignRequest {
  method: 'GET' | 'HEAD' | 'PUT' | 'DELETE';
  key: string;
  expiresSeconds: number;
  now: Date;
  /** Headers the client must send as signed (e.g. content-type on a PUT), lower- or mixed-case. */
  headers?: Record<string, string>;
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

/** RFC 3986 encoding as SigV4 wants it: everything but A-Z a-z 0-9 - _ . ~ is %XX. */
export function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** 20130524T000000Z */
function amzDate(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The URL of an object, before signing. */
export function objectUrl(settings: S3Settings, key: string): URL {
  const endpoint = new URL(settings.endpoint);
  const path = key.split('/').map(uriEncode).join('/');
  if (settings.forcePathStyle) {
    return new URL(`${endpoint.protocol}//${endpoint.host}${endpoint.pathname.replace(/\/$/, '')}/${uriEncode(settings.bucket)}/${path}`);
  }
  return new URL(`${endpoint.protocol}//${settings.bucket}.${endpoint.host}${endpoint.pathname.replace(/\/$/, '')}/${path}`);
}

/**
 * AWS Signature Version 4 with query parameters (a presigned URL), from node:crypto alone:
 * canonical request → string to sign → derived key → signature. The payload is unsigned
 * (the bytes are checked by the app afterwards); signed headers bind e.g. the content type.
 */
export function presignS3Url(settings: S3Settings, request: PresignRequest): string {
  const url = objectUrl(settings, request.key);
  const stamp = amzDate(request.now);
  const day = stamp.slice(0, 8);
  const scope = `${day}/${settings.region}/s3/aws4_request`;

  const headers = new Map<string, string>([['host', url.host]]);
  for (const [name, value] of Object.entries(request.headers ?? {})) headers.set(name.toLowerCase(), value.trim().replace(/\s+/g, ' '));
  const headerNames = [...headers.keys()].sort();
  const signedHeaders = headerNames.join(';');

  const query: [string, string][] = [
    ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
    ['X-Amz-Credential', `${settings.accessKeyId}/${scope}`],
    ['X-Amz-Date', stamp],
    ['X-Amz-Expires', String(request.expiresSeconds)],
    ['X-Amz-SignedHeaders', signedHeaders],
  ];
  const canonicalQuery = query
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');

  const canonicalRequest = [
    request.method,
    url.pathname,
    canonicalQuery,
    headerNames.map((name) => `${name}:${headers.get(name)}\n`).join(''),
    signedHeaders,
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${settings.secretAccessKey}`, day), settings.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return `${url.origin}${url.pathname}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}

/**
 * Objects in an S3-compatible bucket. The server's own reads and writes use short-lived
 * presigned URLs too, so one signing routine serves both the browser and the app.
 */
export class S3ObjectStore {
  constructor(
    private readonly settings: S3Settings,
    private readonly clock: Clock,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private url(method: PresignRequest['method'], key: string, headers?: Record<string, string>): string {
    return presignS3Url(this.settings, { method, key, expiresSeconds: 60, now: this.clock.now(), headers });
  }

  /** A URL the browser may PUT one object to, with exactly this content type, until it expires. */
  presignPut(key: string, contentType: string, expiresSeconds: number): string {
    return presignS3Url(this.settings, { method: 'PUT', key, expiresSeconds, now: this.clock.now(), headers: { 'content-type': contentType } });
  }

  async put(key: string, bytes: Uint8Array, contentType = 'application/octet-stream'): Promise<void> {
    const response = await this.fetchImpl(this.url('PUT', key, { 'content-type': contentType }), {
      method: 'PUT',
      headers: { 'content-type': contentType },
      // Node's fetch sends any Uint8Array; the DOM typings are narrower than the runtime.
      body: bytes as unknown as BodyInit,
    });
    if (!response.ok) throw new Error(`S3 PUT failed with ${response.status}`);
  }

  async get(key: string): Promise<Buffer | undefined> {
    const response = await this.fetchImpl(this.url('GET', key));
    if (response.status === 404 || response.status === 403) return undefined;
    if (!response.ok) throw new Error(`S3 GET failed with ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  }

  /** Removes an object; S3 answers 204 whether or not it existed. */
  async delete(key: string): Promise<void> {
    const response = await this.fetchImpl(this.url('DELETE', key), { method: 'DELETE' });
    if (!response.ok && response.status !== 404) throw new Error(`S3 DELETE failed with ${response.status}`);
  }

  async size(key: string): Promise<number | undefined> {
    const response = await this.fetchImpl(this.url('HEAD', key), { method: 'HEAD' });
    if (response.status === 404 || response.status === 403) return undefined;
    if (!response.ok) throw new Error(`S3 HEAD failed with ${response.status}`);
    const length = Number(response.headers.get('content-length'));
    return Number.isFinite(length) ? length : undefined;
  }
}
