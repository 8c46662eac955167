import { HERO_IMAGE_MAX_BYTES, type AdminRestaurant, type UpdateAdminRestaurantInput, type UploadResponse } from '#common/contract/portal.ts';
import type { AdminDepositPolicy, DepositPolicyBody } from '#common/contract/deposits.ts';
import type { PublicRestaurant, RestaurantDetail, RestaurantPhoto } from '#common/contract/restaurants.ts';
import { directionsUrlFor, type ChildrenPolicy, type DietType, type SmokingPolicy } from '#common/domain/restaurant-profile.ts';
import { noDepositPolicy, type DepositPolicy } from '#common/domain/deposit-policy.ts';
import { DEFAULT_NEIGHBORHOOD, emojiForCategory } from '#common/domain/restaurants.ts';
import type { AppDeps } from '#server/deps.ts';
import { badInput, forbidden, notFound, sessionExpired } from '#server/errors.ts';
import { iso, type Db } from '#server/db/client.ts';
import { requireStaff, type Principal, type StaffPrincipal } from '#server/modules/accounts/principal.ts';
import type { StorageService } from '#server/modules/storage/storage.service.ts';
import {
  findAdminRestaurant,
  findHeroImageKey,
  findRestaurant,
  listRestaurants,
  setHeroImage,
  updateRestaurantProfile,
  type AdminRestaurantRow,
  type RestaurantRow,
} from './restaurants.repository.ts';
import { findDepositPolicy, replaceDepositPolicy } from './deposit-policy.repository.ts';
import type { RestaurantPhotos } from './restaurant-photos.service.ts';

/** The app's own hero image for a restaurant: the uploaded photo, or a generated one. */
export function heroImagePath(restaurantId: string): string {
  return `/api/restaurant/${restaurantId}/hero-image`;
}

/** The list's entry; its hero is what staff set, else the cover photo, else the app's own picture. */
export function toPublicRestaurant(row: RestaurantRow, cover?: RestaurantPhoto): PublicRestaurant {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    emoji: row.emoji || emojiForCategory(row.category),
    neighborhood: row.neighborhood || DEFAULT_NEIGHBORHOOD,
    hot: row.hot,
    cuisineTags: row.cuisineTags,
    category: row.category,
    description: row.description,
    website: row.website,
    instagramUrl: row.instagramUrl,
    heroImageUrl: row.heroImageUrl || cover?.src || heroImagePath(row.id),
    position: row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null,
    diet: row.diet as DietType | null,
    costForTwo: row.costForTwo,
  };
}

/** The restaurant page's answer: the list's entry, the photos, the menu, the house rules (decision 233). */
function toRestaurantDetail(row: RestaurantRow, photos: { gallery: RestaurantPhoto[]; menu: RestaurantPhoto[] }): RestaurantDetail {
  const base = toPublicRestaurant(row, photos.gallery[0]);
  return {
    ...base,
    address: row.address,
    directionsUrl: directionsUrlFor({ directionsUrl: row.directionsUrl, address: row.address, name: row.name, position: base.position }),
    photos: photos.gallery,
    menu: { url: row.menuUrl, photos: photos.menu },
    houseRules: { dressCode: row.dressCode, children: row.childrenPolicy as ChildrenPolicy | null, smoking: row.smokingPolicy as SmokingPolicy | null },
    // The floor's service hours fill this (per weekday); until a restaurant has them, the page says so.
    openingHours: null,
  };
}

/** The row already carries the contract's names: only what is derived is written out. */
function toAdminRestaurant({ heroImageKey, ...profile }: AdminRestaurantRow, photos: AdminRestaurant['photos']): AdminRestaurant {
  return {
    ...profile,
    neighborhood: profile.neighborhood || DEFAULT_NEIGHBORHOOD,
    heroImageSrc: profile.heroImageUrl || photos.find((photo) => photo.purpose === 'gallery')?.src || heroImagePath(profile.id),
    hasUploadedHero: heroImageKey !== null,
    diet: profile.diet as DietType | null,
    childrenPolicy: profile.childrenPolicy as ChildrenPolicy | null,
    smokingPolicy: profile.smokingPolicy as SmokingPolicy | null,
    photos,
  };
}

/** Restaurants: public reads open to everyone, and the staff's own profile and hero photo. */
export function createRestaurantsService({ db, clock }: AppDeps, storage: StorageService, photos: RestaurantPhotos) {
  async function loadOwnRestaurant(principal: StaffPrincipal): Promise<AdminRestaurantRow> {
    const row = await findAdminRestaurant(db, principal.restaurantId);
    // The restaurant was removed under a live session: the session no longer means anything.
    if (!row) throw sessionExpired();
    return row;
  }

  return {
    async listRestaurants(_principal: Principal): Promise<PublicRestaurant[]> {
      const [rows, covers] = await Promise.all([listRestaurants(db), photos.coversByRestaurant()]);
      return rows.map((row) => toPublicRestaurant(row, covers.get(row.id)));
    },

    /** One restaurant by slug or id, with its photos, menu and house rules; 404 'Restaurant not found' otherwise. */
    async getRestaurant(_principal: Principal, slugOrId: string): Promise<RestaurantDetail> {
      const row = await findRestaurant(db, slugOrId);
      if (!row) throw notFound('Restaurant not found');
      return toRestaurantDetail(row, await photos.photosOf(row.id));
    },

    /** The uploaded hero photo of a restaurant, if any (public: it is on the public page). */
    async readHeroImage(_principal: Principal, restaurantId: string): Promise<{ body: Buffer; contentType: string } | undefined> {
      const key = await findHeroImageKey(db, restaurantId);
      if (!key) return undefined;
      return storage.readImage(key);
    },

    // ---- The staff's own restaurant (/api/admin/restaurant, /api/upload) ----

    /** GET /api/admin/restaurant: the signed-in staff's own restaurant (the server decides which). */
    async getOwnRestaurant(principal: Principal): Promise<AdminRestaurant> {
      requireStaff(principal);
      return toAdminRestaurant(await loadOwnRestaurant(principal), await photos.adminPhotosOf(principal.restaurantId));
    },

    /** PUT /api/admin/restaurant: the public profile; the change shows on the public page at once. */
    async updateOwnRestaurant(principal: Principal, input: UpdateAdminRestaurantInput): Promise<AdminRestaurant> {
      requireStaff(principal);
      const row = await updateRestaurantProfile(db, principal.restaurantId, {
        name: input.name,
        neighborhood: input.neighborhood ?? DEFAULT_NEIGHBORHOOD,
        instagramUrl: input.instagramUrl,
        website: input.website,
        heroImageUrl: input.heroImageUrl,
        cuisineTags: input.cuisineTags,
        address: input.address,
        directionsUrl: input.directionsUrl,
        costForTwo: input.costForTwo,
        diet: input.diet,
        menuUrl: input.menuUrl,
        dressCode: input.dressCode,
        childrenPolicy: input.childrenPolicy,
        smokingPolicy: input.smokingPolicy,
        now: clock.now(),
      });
      if (!row) throw sessionExpired();
      return toAdminRestaurant(row, await photos.adminPhotosOf(principal.restaurantId));
    },

    // ---- Deposit policy (decision 120) ----

    /**
     * A restaurant's deposit policy, for the rules other modules apply (availability, the hold
     * view, the deposits service). Public: diners read its answer before they reserve.
     * A restaurant that never set one asks for nothing.
     */
    async getDepositPolicy(_principal: Principal, restaurantId: string, tx: Db = db): Promise<DepositPolicy> {
      return (await findDepositPolicy(tx, restaurantId))?.policy ?? noDepositPolicy;
    },

    /** GET /api/admin/deposit-policy: the signed-in staff's own restaurant's policy. */
    async getOwnDepositPolicy(principal: Principal): Promise<AdminDepositPolicy> {
      requireStaff(principal);
      const stored = await findDepositPolicy(db, principal.restaurantId);
      return { ...(stored?.policy ?? noDepositPolicy), updatedAt: stored ? iso(stored.updatedAt) : null };
    },

    /** PUT /api/admin/deposit-policy: replaces the whole policy; holds made from now on follow it. */
    async updateOwnDepositPolicy(principal: Principal, input: DepositPolicyBody): Promise<AdminDepositPolicy> {
      requireStaff(principal);
      const now = clock.now();
      await db.transaction(async (tx) => {
        if (!(await findAdminRestaurant(tx, principal.restaurantId))) throw sessionExpired();
        await replaceDepositPolicy(tx, principal.restaurantId, input, { staffId: principal.staffId, now });
      });
      return { ...input, updatedAt: now.toISOString() };
    },

    /** Checked before an upload's body is read: only restaurant staff may send a file. */
    assertMayUpload(principal: Principal): void {
      requireStaff(principal);
    },

    /** POST /api/upload: a new hero photo for the staff's own restaurant, checked by its bytes. */
    async uploadHeroImage(principal: Principal, upload: { restaurantId?: string; bytes?: Uint8Array }): Promise<UploadResponse> {
      requireStaff(principal);
      if (upload.restaurantId && upload.restaurantId !== principal.restaurantId) {
        throw forbidden('You can change only your own restaurant');
      }
      if (!upload.bytes) throw badInput('image: choose an image file to upload');
      const stored = await storage.saveImage('hero', upload.bytes, HERO_IMAGE_MAX_BYTES);
      // A new address per photo, so no browser keeps showing the old one.
      const version = stored.key.slice('hero/'.length, 'hero/'.length + 8);
      const url = `${heroImagePath(principal.restaurantId)}?v=${version}`;
      await setHeroImage(db, principal.restaurantId, { key: stored.key, url, now: clock.now() });
      return { url, heroImageUrl: url };
    },
  };
}

export type RestaurantsService = ReturnType<typeof createRestaurantsService>;
