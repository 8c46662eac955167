import { describe, expect, it } from 'vitest';
import { bearer } from '#server/test/app.ts';
import { setUpStaffFixture, t, x, y, staffX, staffY, call, wrongKinds } from '#server/test/staff-fixture.ts';
import { makePng, multipartBody } from '#server/test/test-images.ts';

/** The staff's own restaurant through HTTP: its profile and the hero-photo upload. */
setUpStaffFixture();

describe('GET /api/admin/restaurant', () => {
  it("answers the staff's own restaurant, decided by the server", async () => {
    const response = await call('GET', '/api/admin/restaurant', staffX.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: x.id,
      slug: x.slug,
      name: 'Portal Kitchen',
      heroImageUrl: null,
      heroImageSrc: `/api/restaurant/${x.id}/hero-image`,
    });
    expect((await call('GET', '/api/admin/restaurant', staffY.token)).json().id).toBe(y.id);
  });

  it('refuses every other kind of caller with 401', async () => {
    for (const caller of wrongKinds()) {
      const response = await call('GET', '/api/admin/restaurant', caller.token);
      expect(response.statusCode, caller.name).toBe(401);
      expect(typeof response.json().error).toBe('string');
      expect(response.body).not.toContain('Portal Kitchen');
    }
  });
});

describe('PUT /api/admin/restaurant', () => {
  it('updates the public profile, visible on the public page at once', async () => {
    const response = await call('PUT', '/api/admin/restaurant', staffX.token, {
      name: '  Portal Kitchen & Bar ',
      neighborhood: 'Koramangala',
      instagramUrl: 'https://instagram.com/portalkitchen',
      website: 'https://portal.example.com',
      heroImageUrl: '',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ name: 'Portal Kitchen & Bar', neighborhood: 'Koramangala', heroImageUrl: null });
    const publicPage = (await call('GET', `/api/restaurants/${x.slug}`)).json();
    expect(publicPage).toMatchObject({
      name: 'Portal Kitchen & Bar',
      neighborhood: 'Koramangala',
      instagramUrl: 'https://instagram.com/portalkitchen',
      website: 'https://portal.example.com',
      heroImageUrl: `/api/restaurant/${x.id}/hero-image`,
    });
    // Only the caller's restaurant changed.
    expect((await call('GET', `/api/restaurants/${y.slug}`)).json().name).toBe('Other Place');
  });

  it('treats blank optional fields as none and an empty neighborhood as the city', async () => {
    const response = await call('PUT', '/api/admin/restaurant', staffY.token, { name: 'Other Place', neighborhood: '', instagramUrl: '', website: null });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ neighborhood: 'Bengaluru', instagramUrl: null, website: null });
  });

  it('refuses each invalid field with a 400 naming it', async () => {
    const cases: [object, RegExp][] = [
      [{ name: '' }, /^name is required$/],
      [{}, /^name is required$/],
      [{ name: 'x'.repeat(101) }, /name must be at most 100/],
      [{ name: 'Ok', website: 'javascript:alert(1)' }, /^website must be a web address/],
      [{ name: 'Ok', instagramUrl: 'instagram' }, /^instagramUrl must be a web address/],
      [{ name: 'Ok', heroImageUrl: 'data:image/png;base64,AAAA' }, /^heroImageUrl must be a web address/],
      [{ name: 'Ok', heroImageUrl: '//evil.example.com/x.png' }, /^heroImageUrl must be a web address/],
      // A lone CR would end a calendar file's SUMMARY line and start an ATTACH (decision 203).
      [{ name: 'Bistro\rATTACH:https://evil.example/x.exe' }, /^name must be one line, without line breaks or control characters$/],
      [{ name: 'Ok', neighborhood: 'Indiranagar\nX-Injected: 1' }, /^neighborhood must be one line/],
    ];
    for (const [payload, message] of cases) {
      const response = await call('PUT', '/api/admin/restaurant', staffX.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error).toMatch(message);
    }
    expect((await call('GET', '/api/admin/restaurant', staffX.token)).json().name).toBe('Portal Kitchen & Bar');
  });

  it('refuses other kinds of caller with 401 and changes nothing', async () => {
    for (const caller of wrongKinds()) {
      expect((await call('PUT', '/api/admin/restaurant', caller.token, { name: 'Hijacked' })).statusCode, caller.name).toBe(401);
    }
    expect((await call('GET', `/api/restaurants/${x.slug}`)).json().name).toBe('Portal Kitchen & Bar');
  });
});

describe('POST /api/upload', () => {
  function upload(token: string | undefined, file: { filename: string; contentType: string; bytes: Buffer } | undefined, restaurantId = x.id) {
    const { body, contentType } = multipartBody({ restaurantId }, file && { field: 'image', ...file });
    return t.app.inject({ method: 'POST', url: '/api/upload', headers: { ...(token ? bearer(token) : {}), 'content-type': contentType }, payload: body });
  }

  it('stores a real image, makes it the hero image and serves its bytes', async () => {
    const before = await call('GET', `/api/restaurant/${x.id}/hero-image`);
    expect(before.headers['content-type']).toMatch(/^image\/svg\+xml/);

    const png = makePng(64, 36);
    const response = await upload(staffX.token, { filename: 'hero.png', contentType: 'image/png', bytes: png });
    expect(response.statusCode, response.body).toBe(200);
    const { url, heroImageUrl } = response.json();
    expect(url).toMatch(new RegExp(`^/api/restaurant/${x.id}/hero-image\\?v=[0-9a-f]{8}$`));
    expect(heroImageUrl).toBe(url);

    const served = await call('GET', url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(served.rawPayload, png)).toBe(0);
    expect((await call('GET', `/api/restaurants/${x.slug}`)).json().heroImageUrl).toBe(url);
    expect((await call('GET', '/api/admin/restaurant', staffX.token)).json()).toMatchObject({ heroImageUrl: url, heroImageSrc: url, hasUploadedHero: true });
  });

  it('accepts a JPEG by its bytes whatever its name', async () => {
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
      Buffer.alloc(200, 7),
      Buffer.from([0xff, 0xd9]),
    ]);
    const response = await upload(staffX.token, { filename: 'photo.bin', contentType: 'application/octet-stream', bytes: jpeg });
    expect(response.statusCode, response.body).toBe(200);
    const served = await call('GET', `/api/restaurant/${x.id}/hero-image`);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(served.rawPayload, jpeg)).toBe(0);
  });

  it('refuses text renamed .jpg with 415 and keeps the current photo', async () => {
    const current = (await call('GET', '/api/admin/restaurant', staffX.token)).json().heroImageUrl;
    const response = await upload(staffX.token, { filename: 'photo.jpg', contentType: 'image/jpeg', bytes: Buffer.from('This is not a photo, just text.\n') });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ error: 'Only JPEG, PNG or WebP images are accepted' });
    expect((await call('GET', '/api/admin/restaurant', staffX.token)).json().heroImageUrl).toBe(current);
  });

  it('refuses a file over 5 MB with 413', async () => {
    const big = Buffer.concat([makePng(2, 2), Buffer.alloc(5 * 1024 * 1024)]);
    const response = await upload(staffX.token, { filename: 'big.png', contentType: 'image/png', bytes: big });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'The photo is larger than 5 MB' });
  });

  it("refuses another restaurant's id with 403 and leaves its image alone", async () => {
    const response = await upload(staffY.token, { filename: 'hero.png', contentType: 'image/png', bytes: makePng() }, x.id);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('You can change only your own restaurant');
    expect((await call('GET', `/api/restaurant/${y.id}/hero-image`)).headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('refuses other kinds of caller with 401, a missing file with 400 and a non-multipart body with 415', async () => {
    for (const caller of wrongKinds()) {
      const response = await upload(caller.token, { filename: 'hero.png', contentType: 'image/png', bytes: makePng() });
      expect(response.statusCode, caller.name).toBe(401);
    }
    const missing = await upload(staffX.token, undefined);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/^image/);
    const json = await call('POST', '/api/upload', staffX.token, { restaurantId: x.id });
    expect(json.statusCode).toBe(415);
  });

  it('refuses a body that says multipart but is cut short or is not multipart with 400, not a server error', async () => {
    const { body, contentType } = multipartBody({ restaurantId: x.id }, { field: 'image', filename: 'hero.png', contentType: 'image/png', bytes: makePng() });
    for (const payload of ['{}', 'x', body.subarray(0, body.length - 20)]) {
      const response = await t.app.inject({ method: 'POST', url: '/api/upload', headers: { ...bearer(staffX.token), 'content-type': contentType }, payload });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ error: 'The upload is not a complete multipart/form-data body: send the photo as a file part' });
    }
  });
});
