import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { MAX_GALLERY_PHOTOS } from '#common/domain/restaurant-profile.ts';
import { restaurantPhotos } from '#server/db/schema.ts';
import { bearer } from '#server/test/app.ts';
import { call, dataDir, setUpStaffFixture, staffX, staffY, t, x, y } from '#server/test/staff-fixture.ts';
import { makePng, multipartBody } from '#server/test/test-images.ts';

/** The page's photos and facts (decisions 233, 234): what staff add in the Profile tab, what diners see. */
setUpStaffFixture();

function addPhoto(token: string, bytes: Buffer, fields: Record<string, string> = { purpose: 'gallery', alt: 'The terrace at dusk' }) {
  const { body, contentType } = multipartBody(fields, { field: 'photo', filename: 'photo.jpg', contentType: 'image/jpeg', bytes });
  return t.app.inject({ method: 'POST', url: '/api/admin/restaurant/photos', headers: { ...bearer(token), 'content-type': contentType }, payload: body });
}

/** A phone's photo: a 4000 × 3000 JPEG, turned by its EXIF orientation, with a GPS position in its metadata. */
const phonePhoto = () =>
  sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: 200, g: 120, b: 60 } } })
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Orientation: '6', Make: 'PhoneCo' } })
    .toBuffer();

describe('restaurant photos', () => {
  it('stores a phone photo as 3:2 WebP at 240, 480, 960 and 1440 without its metadata, and the public page shows it at once', async () => {
    const before = (await t.app.inject({ url: `/api/restaurants/${x.slug}` })).json();
    expect(before.photos).toEqual([]);
    const added = await addPhoto(staffX.token, await phonePhoto());
    expect(added.statusCode, added.body).toBe(201);
    const photo = added.json();
    expect(photo).toMatchObject({ purpose: 'gallery', alt: 'The terrace at dusk', width: 960, height: 640 });
    for (const [width, height] of [
      [240, 160],
      [480, 320],
      [960, 640],
      [1440, 960],
    ]) {
      const served = await t.app.inject({ url: `/api/restaurant-photos/${photo.id}/${width}` });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      const meta = await sharp(served.rawPayload).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height, exif: meta.exif }).toEqual({ format: 'webp', width, height, exif: undefined });
    }
    expect((await t.app.inject({ url: `/api/restaurant-photos/${photo.id}/700` })).statusCode).toBe(400);

    // The cached page follows the write: the photo, and the list's hero.
    const page = (await t.app.inject({ url: `/api/restaurants/${x.slug}` })).json();
    expect(page.photos.map((p: { id: string }) => p.id)).toEqual([photo.id]);
    expect(page.heroImageUrl).toBe(photo.src);
  });

  it('gives a photo stored before thumbnails its 240-pixel width on first read, made from a larger one and kept (decision 229)', async () => {
    const photo = (await addPhoto(staffX.token, await phonePhoto())).json<{ id: string }>();
    const [row] = await t.database.db.select({ variantBase: restaurantPhotos.variantBase }).from(restaurantPhotos).where(eq(restaurantPhotos.id, photo.id));
    const thumbnail = join(dataDir, 'uploads', `${row!.variantBase}-240.webp`);
    expect(existsSync(thumbnail)).toBe(true);
    rmSync(thumbnail); // as an upload from before decision 229 was stored
    const served = await t.app.inject({ url: `/api/restaurant-photos/${photo.id}/240` });
    expect(served.statusCode).toBe(200);
    const meta = await sharp(served.rawPayload).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', width: 240, height: 160 });
    expect(existsSync(thumbnail)).toBe(true);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/admin/restaurant/photos/${photo.id}`, headers: bearer(staffX.token) });
    expect(removed.statusCode).toBe(204);
    expect(existsSync(thumbnail)).toBe(false);
  });

  it('draws a demo photo one width at a time, at the size asked for, the first time that width is read, and keeps it', async () => {
    const webpSize = async (url: string) => {
      const served = await t.app.inject({ url });
      expect(served.statusCode, url).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      const meta = await sharp(served.rawPayload).metadata();
      return { format: meta.format, width: meta.width, height: meta.height, bytes: served.rawPayload };
    };
    const [dish, menu] = await t.database.db
      .insert(restaurantPhotos)
      .values([
        {
          restaurantId: y.id,
          purpose: 'gallery',
          sortOrder: 0,
          alt: 'A plate',
          variantBase: 'demo-photos/other-place-dish',
          width: 1440,
          height: 960,
          illustration: 'dish:indian:12',
        },
        {
          restaurantId: y.id,
          purpose: 'menu',
          sortOrder: 0,
          alt: 'The menu',
          variantBase: 'demo-photos/other-place-menu',
          width: 1440,
          height: 2016,
          illustration: 'menu:indian:3',
        },
      ])
      .returning({ id: restaurantPhotos.id });
    const stored = (base: string, width: number) => existsSync(join(dataDir, 'uploads', `demo-photos/${base}-${width}.webp`));

    expect(await webpSize(`/api/restaurant-photos/${dish!.id}/480`)).toMatchObject({ format: 'webp', width: 480, height: 320 });
    expect([240, 480, 960, 1440].map((width) => stored('other-place-dish', width))).toEqual([false, true, false, false]);

    // Two first reads of one width at once get the same picture; a later read is the kept file.
    const [first, second] = await Promise.all([webpSize(`/api/restaurant-photos/${dish!.id}/1440`), webpSize(`/api/restaurant-photos/${dish!.id}/1440`)]);
    expect(first).toMatchObject({ width: 1440, height: 960 });
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect((await webpSize(`/api/restaurant-photos/${dish!.id}/1440`)).bytes.equals(first.bytes)).toBe(true);
    expect([240, 480, 960, 1440].map((width) => stored('other-place-dish', width))).toEqual([false, true, false, true]);

    // A menu page keeps its 5:7 shape at every width.
    expect(await webpSize(`/api/restaurant-photos/${menu!.id}/240`)).toMatchObject({ width: 240, height: 336 });
    expect(await webpSize(`/api/restaurant-photos/${menu!.id}/960`)).toMatchObject({ width: 960, height: 1344 });
  });

  it('keeps at most 8 gallery photos, lets staff put one first and remove one of their own only', async () => {
    const png = makePng(60, 40);
    const current = (await call('GET', '/api/admin/restaurant', staffX.token)).json().photos.length as number;
    for (let i = current; i < MAX_GALLERY_PHOTOS; i++) expect((await addPhoto(staffX.token, png)).statusCode).toBe(201);
    const ninth = await addPhoto(staffX.token, png);
    expect(ninth.statusCode).toBe(409);
    expect(ninth.json().error).toBe('You have 8 photos, the most a page shows. Remove one first.');
    const menu = await addPhoto(staffX.token, png, { purpose: 'menu', alt: 'Menu' });
    expect(menu.statusCode, menu.body).toBe(201);

    const photos = (await call('GET', '/api/admin/restaurant', staffX.token)).json().photos as { id: string; purpose: string }[];
    const last = photos.filter((p) => p.purpose === 'gallery').at(-1)!;
    expect((await call('POST', `/api/admin/restaurant/photos/${last.id}/cover`, staffX.token, {})).statusCode).toBe(204);
    const page = (await t.app.inject({ url: `/api/restaurants/${x.slug}` })).json();
    expect(page.photos[0].id).toBe(last.id);
    expect(page.menu.photos).toHaveLength(1);

    // Staff of another restaurant cannot remove it; its owner can, and its files go.
    const foreign = await t.app.inject({ method: 'DELETE', url: `/api/admin/restaurant/photos/${last.id}`, headers: bearer(staffY.token) });
    expect(foreign.statusCode).toBe(404);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/admin/restaurant/photos/${last.id}`, headers: bearer(staffX.token) });
    expect(removed.statusCode).toBe(204);
    expect((await t.app.inject({ url: `/api/restaurant-photos/${last.id}/480` })).statusCode).toBe(404);
    expect((await addPhoto(staffX.token, png)).statusCode).toBe(201);
  });

  it('refuses a file that is not an image by its bytes, and a wrong purpose, naming what is wrong', async () => {
    const text = await addPhoto(staffX.token, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    expect(text.statusCode).toBe(415);
    const purpose = await addPhoto(staffX.token, makePng(), { purpose: 'logo', alt: '' });
    expect(purpose.statusCode).toBe(400);
    expect(purpose.json().error).toBe('purpose: must be gallery or menu');
  });
});

describe("the page's facts", () => {
  it('saves veg or not, cost for two, address, menu link and house rules; leaving them out keeps them; bad values name the field', async () => {
    const saved = await call('PUT', '/api/admin/restaurant', staffX.token, {
      name: 'Portal Kitchen',
      neighborhood: 'Indiranagar',
      diet: 'pure-veg',
      costForTwo: 1200,
      cuisineTags: ['South Indian', ' Coffee '],
      address: '12, 100 Feet Road, Indiranagar, Bengaluru 560038',
      menuUrl: 'https://portal.example.com/menu.pdf',
      dressCode: 'Smart casual',
      childrenPolicy: 'until-8pm',
      smokingPolicy: 'no-smoking',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // The spec's five fields alone change only those.
    expect((await call('PUT', '/api/admin/restaurant', staffX.token, { name: 'Portal Kitchen', neighborhood: 'Indiranagar' })).statusCode).toBe(200);
    const page = (await t.app.inject({ url: `/api/restaurants/${x.slug}` })).json();
    expect(page).toMatchObject({
      diet: 'pure-veg',
      costForTwo: 1200,
      cuisineTags: ['South Indian', 'Coffee'],
      address: '12, 100 Feet Road, Indiranagar, Bengaluru 560038',
      menu: { url: 'https://portal.example.com/menu.pdf' },
      houseRules: { dressCode: 'Smart casual', children: 'until-8pm', smoking: 'no-smoking' },
      openingHours: null,
    });
    const list = (await t.app.inject({ url: '/api/restaurants' })).json<{ slug: string; diet: string; costForTwo: number }[]>();
    expect(list.find((r) => r.slug === x.slug)).toMatchObject({ diet: 'pure-veg', costForTwo: 1200 });

    for (const [payload, message] of [
      [{ costForTwo: 20 }, 'costForTwo must be whole rupees between 100 and 50,000'],
      [{ diet: 'vegan' }, 'diet must be pure-veg, veg-and-non-veg or non-veg'],
      [{ menuUrl: 'javascript:alert(1)' }, 'menuUrl must be a web address starting with http:// or https://'],
      [{ cuisineTags: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }, 'cuisineTags: At most 6 cuisines'],
    ] as const) {
      const refused = await call('PUT', '/api/admin/restaurant', staffX.token, { name: 'Portal Kitchen', ...payload });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toContain(message);
    }
    expect((await call('PUT', '/api/admin/restaurant', staffX.token, { name: 'Portal Kitchen', diet: '', costForTwo: null })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/restaurants/${x.slug}` })).json()).toMatchObject({ diet: null, costForTwo: null });
  });
});
