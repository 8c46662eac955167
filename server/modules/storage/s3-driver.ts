import aws4 from 'aws4';
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

/** RFC 3986 encoding of one path segment, as S3 keys are written in URLs: everything but A-Z a-z 0-9 - _ . ~ is %XX. */
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
 * A presigned URL: AWS Signature Version 4 in the query string, signed by the `aws4` package
 * (decision 196). The payload is unsigned (`UNSIGNED-PAYLOAD`: the app checks the bytes
 * afterwards); signed headers bind e.g. the content type of a PUT. The signing instant and the
 * lifetime go in as the query's X-Amz-Date and X-Amz-Expires, so the app's clock decides them.
 */
export function presignS3Url(settings: S3Settings, request: PresignRequest): string {
  const url = objectUrl(settings, request.key);
  const query = new URLSearchParams({ 'X-Amz-Date': amzDate(request.now), 'X-Amz-Expires': String(request.expiresSeconds) });
  const signed = aws4.sign(
    {
      host: url.host,
      path: `${url.pathname}?${query}`,
      method: request.method,
      service: 's3',
      region: settings.region,
      signQuery: true,
      headers: { Host: url.host, ...request.headers },
    },
    { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  );
  return `${url.origin}${signed.path}`;
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
