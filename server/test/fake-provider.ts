import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One local fake of the message providers, answering their documented shapes (decisions 210, 211):
 * - Exotel: POST /v1/Accounts/{sid}/Sms/send.json, Basic auth, a form body; 200 with
 *   `{ SMSMessage: { Sid, Status: 'queued' } }`, or `{ RestException: { Status, Message } }`.
 * - WhatsApp Cloud API: POST /{phone-number-id}/messages, a bearer token, a JSON template
 *   message; 200 with `{ messaging_product, contacts: [{ input, wa_id }], messages: [{ id }] }`,
 *   or `{ error: { message, type, code, fbtrace_id } }`.
 * A test scripts the next answers (a status, a Retry-After, a delay past the driver's time-out)
 * and reads every request it saw.
 */
export interface FakeRequest {
  provider: 'exotel' | 'whatsapp' | 'unknown';
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  /** The form (Exotel) or JSON (WhatsApp) body. */
  body: Record<string, unknown>;
  /** The id the fake answered with, when it accepted the message. */
  providerMessageId: string | null;
}

export interface ScriptedAnswer {
  status: number;
  json?: unknown;
  retryAfter?: string;
  delayMs?: number;
}

export interface FakeProvider {
  base: string;
  requests: FakeRequest[];
  /** Answers the next requests of one provider with these, in order; then the documented success again. */
  script(provider: 'exotel' | 'whatsapp', ...answers: ScriptedAnswer[]): void;
  reset(): void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

export async function startFakeProvider(): Promise<FakeProvider> {
  const requests: FakeRequest[] = [];
  const scripts: Record<'exotel' | 'whatsapp', ScriptedAnswer[]> = { exotel: [], whatsapp: [] };
  let counter = 0;
  const server: Server = createServer(async (request, response) => {
    const text = await readBody(request);
    const path = request.url ?? '';
    const provider = /^\/v1\/Accounts\/[^/]+\/Sms\/send\.json$/.test(path) ? 'exotel' : /^\/[^/]+\/messages$/.test(path) ? 'whatsapp' : 'unknown';
    const contentType = request.headers['content-type'];
    const body: Record<string, unknown> =
      provider === 'exotel' ? Object.fromEntries(new URLSearchParams(text)) : text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const entry: FakeRequest = {
      provider,
      method: request.method ?? '',
      path,
      authorization: request.headers.authorization,
      contentType,
      body,
      providerMessageId: null,
    };
    requests.push(entry);
    let answer: ScriptedAnswer;
    if (provider === 'unknown') answer = { status: 404, json: { error: 'unknown path' } };
    else {
      const scripted = scripts[provider].shift();
      counter++;
      const id = provider === 'exotel' ? `exo${String(counter).padStart(29, '0')}` : `wamid.HBgM${String(counter).padStart(20, '0')}`;
      answer = scripted ?? {
        status: 200,
        json:
          provider === 'exotel'
            ? {
                SMSMessage: {
                  Sid: id,
                  AccountSid: path.split('/')[3],
                  From: body.From,
                  To: body.To,
                  Body: body.Body,
                  Status: 'queued',
                  DetailedStatus: 'PENDING_TO_OPERATOR',
                },
              }
            : { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id, message_status: 'accepted' }] },
      };
      if (!scripted) entry.providerMessageId = id;
    }
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (response.destroyed) return;
    response.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.retryAfter ? { 'retry-after': answer.retryAfter } : {}) });
    response.end(JSON.stringify(answer.json ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    script(provider, ...answers) {
      scripts[provider].push(...answers);
    },
    reset() {
      requests.length = 0;
      scripts.exotel.length = 0;
      scripts.whatsapp.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The documented error bodies, for scripting failures. */
export const exotelError = (status: number, message: string) => ({ RestException: { Status: status, Message: message } });
export const whatsAppError = (code: number, message: string) => ({ error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEf' } });
