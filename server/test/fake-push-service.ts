import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local push service (RFC 8030) and a browser's side of a subscription (RFC 8291), for the push
 * tests (decision 212): the server under test posts to `endpoint(name)`; the fake records each
 * request's headers and body, answers the scripted status (201 by default), and the test decrypts
 * the body with the subscription's private key, as the browser would, and checks the VAPID JWT.
 */
export interface PushRequest {
  path: string;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

export interface FakePushService {
  origin: string;
  requests: PushRequest[];
  endpoint(name: string): string;
  /** The next answers, in order; then 201 again. */
  script(...statuses: number[]): void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakePushService(): Promise<FakePushService> {
  const requests: PushRequest[] = [];
  const scripted: number[] = [];
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    requests.push({ path: request.url ?? '', headers: request.headers as Record<string, string | undefined>, body });
    response.statusCode = scripted.shift() ?? 201;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    endpoint: (name) => `${origin}/push/${name}`,
    script: (...statuses) => scripted.push(...statuses),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A browser's subscription keys: a P-256 key pair and a 16-byte auth secret. */
export function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    json: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
  };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** Decrypts an aes128gcm push body (RFC 8188, RFC 8291) as the browser holding `keys` would. */
export function decryptPush(body: Buffer, keys: ReturnType<typeof browserKeys>): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20];
  const senderPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const shared = keys.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), senderPublic, Buffer.from([1])]);
  const ikm = hmac(hmac(keys.auth, shared), keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then padding zeros.
  return plain.subarray(0, plain.lastIndexOf(2)).toString('utf8');
}

/** The VAPID Authorization header's claims, after checking its ES256 signature with the key `k=` names. */
export function verifyVapid(authorization: string, expectedPublicKey: string): { aud: string; exp: number; sub: string } {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(authorization);
  if (!match) throw new Error(`not a VAPID header: ${authorization}`);
  const [, jwt, key] = match;
  if (key !== expectedPublicKey) throw new Error('signed with another key');
  const [header, claims, signature] = jwt.split('.');
  const raw = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const valid = verify('sha256', Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!valid) throw new Error('the VAPID signature does not verify');
  return JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
}
