import { randomUUID } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import type { AdminRestaurant } from '#common/contract/portal.ts';
import type { RestaurantPhoto } from '#common/contract/restaurants.ts';
import {
  GALLERY_ASPECT,
  MAX_GALLERY_PHOTOS,
  MAX_MENU_PHOTOS,
  PHOTO_UPLOAD_MAX_BYTES,
  PHOTO_WIDTHS,
  photoUrl,
  type PhotoWidth,
} from '#common/domain/restaurant-profile.ts';
import type { Db } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { AppError, badInput, conflict, notFound, sessionExpired } from '#server/errors.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import type { StorageService } from '#server/modules/storage/storage.service.ts';
import { renderIllustration } from './photo-illustrations.ts';
import {
  deleteRestaurantPhoto,
  findRestaurantName,
  findRestaurantPhoto,
  insertRestaurantPhoto,
  listCoverPhotos,
  listRestaurantPhotos,
  lockAndCountPhotos,
  moveRestaurantPhotoFirst,
  type RestaurantPhotoRow,
} from './restaurant-photos.repository.ts';

type Purpose = 'gallery' | 'menu';
export type AdminPhoto = AdminRestaurant['photos'][number];

// libvips' own threads: one, so resizing a photo never takes both of a small server's cores.
sharp.concurrency(1);

const LARGEST = PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1];
const variantKey = (base: string, width: PhotoWidth) => `${base}-${width}.webp`;
const webpAt = (width: number) => ({ quality: width <= 480 ? 70 : 74, effort: 4 });
const heightAt = (row: Pick<RestaurantPhotoRow, 'width' | 'height'>, width: number) => Math.round((row.height * width) / row.width);

export function toRestaurantPhoto(row: RestaurantPhotoRow): RestaurantPhoto {
  return {
    id: row.id,
    src: photoUrl(row.id, 960),
    srcSet: PHOTO_WIDTHS.map((width) => `${photoUrl(row.id, width)} ${width}w`).join(', '),
    width: 960,
    height: heightAt(row, 960),
    alt: row.alt,
  };
}

/**
 * Every width of one picture, as WebP (decision 234): gallery photos cut to 3:2 (the page never
 * jumps), menu pages kept whole. EXIF orientation is applied and the metadata (a phone's GPS)
 * dropped. The largest width is never upscaled past the original.
 */
async function makeVariants(input: Buffer, purpose: Purpose): Promise<{ variants: Map<PhotoWidth, Buffer>; width: number; height: number }> {
  const base = sharp(input, { limitInputPixels: 40_000_000 }).rotate();
  const variants = new Map<PhotoWidth, Buffer>();
  let shape = { width: 0, height: 0 };
  for (const width of [...PHOTO_WIDTHS].reverse()) {
    const resized =
      purpose === 'gallery'
        ? base.clone().resize({ width, height: Math.round((width * GALLERY_ASPECT.height) / GALLERY_ASPECT.width), fit: 'cover', position: 'attention' })
        : base.clone().resize({ width, withoutEnlargement: true });
    const { data, info } = await resized.webp(webpAt(width)).toBuffer({ resolveWithObject: true });
    variants.set(width, data);
    if (width === LARGEST) shape = { width: info.width, height: info.height };
  }
  return { variants, ...shape };
}

/** Restaurants' photos: the staff add and remove them; anyone reads them at a phone's width or a laptop's. */
export function createRestaurantPhotos({ db }: AppDeps, storage: StorageService) {
  /**
   * A demo photo's width, drawn from its vector scene at exactly that size the first time it is
   * read, then kept like an upload's. Only the width asked for is drawn: a phone asks for one of
   * the four, and the widest is most of the work (docs/decisions/294-demo-photos-drawn-one-width-at-a-time.md).
   * Concurrent first reads of one width share one drawing.
   */
  const drawing = new Map<string, Promise<Buffer>>();

  /** A width made on its first read (drawn, or cut from a larger one): encoded as an upload's is, and kept. */
  async function keepWidth(row: RestaurantPhotoRow, width: PhotoWidth, image: Sharp): Promise<Buffer> {
    const bytes = await image.webp(webpAt(width)).toBuffer();
    await storage.putObject(variantKey(row.variant_base, width), bytes);
    return bytes;
  }

  async function drawIllustration(row: RestaurantPhotoRow, width: PhotoWidth): Promise<Buffer> {
    const restaurantName = (await findRestaurantName(db, row.restaurant_id)) ?? 'Menu';
    const scene = renderIllustration(row.illustration!, { restaurantName });
    // At 72 dpi the SVG is drawn at its own size (1440 wide); the density scales it to the width
    // asked for. The scene already has the gallery's 3:2 or the menu page's shape: nothing is cut.
    return keepWidth(row, width, sharp(Buffer.from(scene.svg), { density: (72 * width) / scene.width }));
  }

  function drawOnce(row: RestaurantPhotoRow, width: PhotoWidth): Promise<Buffer> {
    const key = `${row.id}/${width}`;
    let pending = drawing.get(key);
    if (!pending) {
      pending = drawIllustration(row, width).finally(() => drawing.delete(key));
      drawing.set(key, pending);
    }
    return pending;
  }

  /**
   * A width added after the photo was stored (240 pixels, decision 229): made once from the next
   * stored width up, then kept like the others, so uploads from before it get thumbnails too.
   */
  async function madeFromLarger(row: RestaurantPhotoRow, width: PhotoWidth): Promise<Buffer | undefined> {
    for (const larger of PHOTO_WIDTHS.filter((candidate) => candidate > width)) {
      const source = await storage.readImage(variantKey(row.variant_base, larger));
      if (source) return keepWidth(row, width, sharp(source.body).resize({ width }));
    }
    return undefined;
  }

  return {
    toRestaurantPhoto,

    /** The restaurant page's photos: the gallery (the first is the cover) and the menu's pages. */
    async photosOf(restaurantId: string, tx: Db = db): Promise<{ gallery: RestaurantPhoto[]; menu: RestaurantPhoto[] }> {
      const rows = await listRestaurantPhotos(tx, restaurantId);
      return {
        gallery: rows.filter((row) => row.purpose === 'gallery').map(toRestaurantPhoto),
        menu: rows.filter((row) => row.purpose === 'menu').map(toRestaurantPhoto),
      };
    },

    /** The portal's list: every photo with what it is of. */
    async adminPhotosOf(restaurantId: string): Promise<AdminPhoto[]> {
      return (await listRestaurantPhotos(db, restaurantId)).map((row) => ({ ...toRestaurantPhoto(row), purpose: row.purpose }));
    },

    /** Every restaurant's cover photo, by restaurant id (for the list's hero image). */
    async coversByRestaurant(): Promise<Map<string, RestaurantPhoto>> {
      return new Map((await listCoverPhotos(db)).map((row) => [row.restaurant_id, toRestaurantPhoto(row)]));
    },

    /** POST /api/admin/restaurant/photos: a photo of the room or food (8 at most) or a menu page (4 at most), checked by its bytes. */
    async addPhoto(principal: Principal, upload: { purpose: Purpose; alt: string; bytes?: Uint8Array }): Promise<AdminPhoto> {
      requireStaff(principal);
      if (!upload.bytes) throw badInput('photo: choose an image file to upload');
      storage.checkImage(upload.bytes, PHOTO_UPLOAD_MAX_BYTES);
      const max = upload.purpose === 'gallery' ? MAX_GALLERY_PHOTOS : MAX_MENU_PHOTOS;
      const full = () =>
        conflict(
          upload.purpose === 'gallery'
            ? `You have ${max} photos, the most a page shows. Remove one first.`
            : `A menu has at most ${max} pages. Remove one first.`,
        );
      // Counted before the work, so a full page costs nothing; counted again, locked, before the row is written.
      const before = await lockAndCountPhotos(db, principal.restaurantId, upload.purpose);
      if (!before) throw sessionExpired();
      if (before.count >= max) throw full();
      let made;
      try {
        made = await makeVariants(Buffer.from(upload.bytes), upload.purpose);
      } catch {
        throw new AppError('UNSUPPORTED_MEDIA', 'This image could not be read. Try a JPEG, PNG or WebP photo.');
      }
      const variantBase = `restaurant-photos/${randomUUID()}`;
      await Promise.all([...made.variants].map(([width, bytes]) => storage.putObject(variantKey(variantBase, width), bytes)));
      try {
        const row = await db.transaction(async (tx) => {
          const now = await lockAndCountPhotos(tx, principal.restaurantId, upload.purpose);
          if (!now) throw sessionExpired();
          if (now.count >= max) throw full();
          return insertRestaurantPhoto(tx, {
            restaurant_id: principal.restaurantId,
            purpose: upload.purpose,
            sort_order: now.nextOrder,
            alt: upload.alt,
            variant_base: variantBase,
            width: made.width,
            height: made.height,
            illustration: null,
          });
        });
        return { ...toRestaurantPhoto(row), purpose: row.purpose };
      } catch (error) {
        await Promise.all(PHOTO_WIDTHS.map((width) => storage.deleteObject(variantKey(variantBase, width))));
        throw error;
      }
    },

    /** DELETE /api/admin/restaurant/photos/{photoId}: only the staff's own restaurant's photo; its files go too. */
    async removePhoto(principal: Principal, photoId: string): Promise<void> {
      requireStaff(principal);
      const row = await deleteRestaurantPhoto(db, principal.restaurantId, photoId);
      if (!row) throw notFound('Photo not found');
      await Promise.all(PHOTO_WIDTHS.map((width) => storage.deleteObject(variantKey(row.variant_base, width))));
    },

    /** POST /api/admin/restaurant/photos/{photoId}/cover: the photo comes first (the page's cover). */
    async makeCover(principal: Principal, photoId: string): Promise<void> {
      requireStaff(principal);
      if (!(await moveRestaurantPhotoFirst(db, principal.restaurantId, photoId))) throw notFound('Photo not found');
    },

    /** GET /api/restaurant-photos/{photoId}/{width}: public, like the page it is on; undefined when there is no such photo. */
    async readPhoto(_principal: Principal, photoId: string, width: PhotoWidth): Promise<Buffer | undefined> {
      const row = await findRestaurantPhoto(db, photoId);
      if (!row) return undefined;
      const stored = await storage.readImage(variantKey(row.variant_base, width));
      if (stored) return stored.body;
      return row.illustration ? drawOnce(row, width) : madeFromLarger(row, width);
    },
  };
}

export type RestaurantPhotos = ReturnType<typeof createRestaurantPhotos>;
