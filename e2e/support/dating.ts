import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { apiClient } from './fixtures.ts';
import type { E2eServer } from './server.ts';

/**
 * Signs a member up from inside the page, with the browser's own cookies: three canvas photos
 * uploaded through the presigned URLs, the signup with `profile` (everything but the photos), then
 * the code texted to the phone, read from the dev mailbox as the demo does (decision 101).
 */
export async function signUpDatingMemberInPage(page: Page, profile: Record<string, unknown>): Promise<void> {
  const status = await page.evaluate(async (profile) => {
    const canvasBlob = (colour: string) =>
      new Promise<Blob>((resolve) => {
        const canvas = document.createElement('canvas');
        canvas.width = 120;
        canvas.height = 160;
        const context = canvas.getContext('2d')!;
        context.fillStyle = colour;
        context.fillRect(0, 0, 120, 160);
        canvas.toBlob((blob) => resolve(blob!), 'image/png');
      });
    const presign = await fetch('/dating/uploads/presign', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 3, contentTypes: ['image/png', 'image/png', 'image/png'], userHint: 'signup' }),
    });
    const { items } = (await presign.json()) as { items: { uploadUrl: string; objectKey: string }[] };
    const colours = ['#c23d61', '#3b1535', '#f6eef4'];
    await Promise.all(
      items.map(async (item, index) =>
        fetch(item.uploadUrl, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: await canvasBlob(colours[index]) }),
      ),
    );
    const signup = await fetch('/dating/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...profile, photos: items.map((item, sortOrder) => ({ objectKey: item.objectKey, sortOrder })) }),
    });
    if (signup.status !== 202) return signup.status;
    const { signupId } = (await signup.json()) as { signupId: string };
    const mailbox = (await (await fetch(`/dating/dev/mailbox?signup=${signupId}`)).json()) as { messages: { body: string }[] };
    const code = /\b(\d{6})\b/.exec(mailbox.messages[0]?.body ?? '')?.[1] ?? '';
    const verify = await fetch('/dating/auth/signup/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signupId, code }),
    });
    return verify.status;
  }, profile);
  expect(status).toBe(201);
}

let phoneCounter = 0;
/** A phone number no other member of this journey's server has. */
export function uniqueDatingPhone(): string {
  phoneCounter += 1;
  return `97${String(Date.now()).slice(-6)}${String(phoneCounter).padStart(2, '0')}`;
}

/**
 * Signs up a journey's member (a fresh phone, the same answers as every journey's member: an
 * architect with a ₹1,000–2,500 budget who likes South Indian and Japanese food and coffee dates).
 */
export function signUpJourneyMemberInPage(page: Page, person: { name: string; dob: string; gender?: string; wantsToMeet?: string }): Promise<void> {
  return signUpDatingMemberInPage(page, {
    phone: uniqueDatingPhone(),
    password: 'password123',
    name: person.name,
    dob: person.dob,
    profession: 'Architect',
    whatIWantInPartner: 'Someone who reads the menu like a novel',
    whyPartnerWouldLikeMe: 'I always know the best filter coffee nearby',
    dateBudget: 'INR_1000_2500',
    gender: person.gender ?? 'WOMAN',
    wantsToMeet: person.wantsToMeet ?? 'EVERYONE',
    cuisines: ['SOUTH_INDIAN', 'JAPANESE'],
    interests: ['Jazz'],
    languages: ['Kannada'],
    firstDateTypes: ['COFFEE'],
  });
}

/** A JSON call from inside the page, with the member's session cookie. */
export async function inPage<T>(page: Page, path: string, method = 'GET', body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ path, method, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    { path, method, body },
  ) as Promise<{ status: number; body: T }>;
}

/**
 * Makes `staff`'s restaurant the journey server's only date partner (the demo's own partners are
 * let go), one that fits every journey member; answers the staff's token.
 */
export async function makeOnlyDatePartner(
  server: E2eServer,
  api: ReturnType<typeof apiClient>,
  staff: { username: string; password: string },
): Promise<string> {
  await server.database.db.execute(sql`DELETE FROM dating_partners`);
  const login = await api<{ token: string }>('/api/auth/restaurant-login', { method: 'POST', body: staff });
  expect(login.status).toBe(200);
  const saved = await api<{ partner: { optedInAt: string } | null }>('/api/admin/date-partner', {
    method: 'PUT',
    token: login.body.token,
    body: { budget: 'INR_1000_2500', neighbourhood: 'Indiranagar', cuisines: ['SOUTH_INDIAN'], dateTypes: ['COFFEE', 'DINNER'] },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  expect(saved.body.partner).not.toBeNull();
  return login.body.token;
}
