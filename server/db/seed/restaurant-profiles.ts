import { sql } from 'drizzle-orm';
import type { ChildrenPolicy, DietType, SmokingPolicy } from '#common/domain/restaurant-profile.ts';
import { queryRows, type Db } from '#server/db/client.ts';
import { seedRestaurants, slugify } from './restaurants.data.ts';

/**
 * The demo restaurants' pages (decision 235): veg or not, cost for two, an address, house rules,
 * three drawn photos and a drawn menu card each. Written once per restaurant, while its page has
 * none of these facts, so what staff later change stays changed. The photos are rows naming an
 * illustration (server/modules/restaurants/photo-illustrations.ts); their pixels are drawn on first read.
 */

/** Restaurants that cook only vegetarian food, and those that are mostly meat and fish. */
const PURE_VEG = new Set([
  'the-filter-room',
  'mavalli-mess',
  'cubbon-green-cafe',
  'chai-point-reserve',
  'la-cucina-verde',
  'mishti-mahal',
  'gully-chaat-house',
  'udupi-sagar',
  'kaapi-katte',
  'frozen-bottle-parlour',
  'rasoi-jain-bhojanalaya',
]);
const NON_VEG = new Set([
  'smoke-copper',
  'biryani-darbar',
  'nizams-kebab-corner',
  'coastal-curry-co',
  'andhra-spice-route',
  'seoul-kitchen-blr',
  'hoppers-co',
  'hebbal-lakeside-grill',
]);

/** What two people usually spend, by kind of place (rupees); each restaurant moves a little from it. */
const COST_BY_CATEGORY: Record<string, number> = {
  coffee: 450,
  breakfast: 600,
  lunch: 700,
  dessert: 500,
  indian: 1400,
  pizza: 1200,
  italian: 2000,
  asian: 1800,
  mexican: 1500,
  dinner: 2100,
  bar: 2000,
  cocktails: 3000,
  wine: 3200,
};

/** A street and PIN code in each neighbourhood the demo uses. */
const STREETS: Record<string, [string, string]> = {
  Indiranagar: ['100 Feet Road, HAL 2nd Stage', '560038'],
  Malleswaram: ['Sampige Road, 8th Cross', '560003'],
  Koramangala: ['80 Feet Road, 4th Block', '560034'],
  CBD: ['St Mark’s Road', '560001'],
  'Lavelle Road': ['Lavelle Road', '560001'],
  Sadashivanagar: ['Sankey Road', '560080'],
  'HSR Layout': ['27th Main, Sector 1', '560102'],
  Jayanagar: ['11th Main, 4th Block', '560011'],
  Whitefield: ['ITPL Main Road', '560066'],
  'Frazer Town': ['Mosque Road', '560005'],
  Ulsoor: ['Ulsoor Road', '560008'],
  Basavanagudi: ['DVG Road', '560004'],
  'Kalyan Nagar': ['HRBR Layout, 1st Block', '560043'],
  Marathahalli: ['Outer Ring Road', '560037'],
  Domlur: ['Old Airport Road', '560071'],
  'JP Nagar': ['15th Cross, 2nd Phase', '560078'],
  Bellandur: ['Sarjapur Road', '560103'],
  'BTM Layout': ['16th Main, 2nd Stage', '560076'],
  Hebbal: ['Bellary Road', '560024'],
};

const LATE_NIGHT = new Set(['bar', 'cocktails', 'wine']);

function numberFrom(text: string): number {
  let hash = 7;
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash;
}

export interface DemoProfile {
  diet: DietType;
  costForTwo: number;
  address: string;
  dressCode: string | null;
  children: ChildrenPolicy;
  smoking: SmokingPolicy;
  photos: { purpose: 'gallery' | 'menu'; illustration: string; alt: string }[];
}

/** One demo restaurant's page, made from its seed row. */
export function demoProfileOf(name: string, category: string, neighborhood: string): DemoProfile {
  const slug = slugify(name);
  const n = numberFrom(slug);
  const base = COST_BY_CATEGORY[category] ?? 1500;
  const costForTwo = Math.max(200, Math.round((base * (0.8 + (n % 40) / 100)) / 50) * 50);
  const [street, pin] = STREETS[neighborhood] ?? ['MG Road', '560001'];
  const isBar = LATE_NIGHT.has(category);
  const second = category === 'indian' || category === 'lunch' ? 'spread' : 'dish';
  return {
    diet: PURE_VEG.has(slug) ? 'pure-veg' : NON_VEG.has(slug) ? 'non-veg' : 'veg-and-non-veg',
    costForTwo,
    address: `${(n % 180) + 1}, ${street}, ${neighborhood}, Bengaluru ${pin}`,
    dressCode: isBar ? 'Smart casual; no shorts or flip-flops after 8 PM' : category === 'wine' || costForTwo >= 2500 ? 'Smart casual' : null,
    children: isBar ? 'adults-only' : costForTwo >= 2000 ? 'until-8pm' : 'welcome',
    smoking: isBar || category === 'coffee' ? 'smoking-area' : 'no-smoking',
    photos: [
      { purpose: 'gallery', illustration: `dish:${category}:${n % 97}`, alt: `A plate from the kitchen at ${name}, seen from above` },
      { purpose: 'gallery', illustration: `room:${category}:${n % 89}`, alt: `The dining room at ${name} in the evening` },
      {
        purpose: 'gallery',
        illustration: `${second}:${category}:${(n >> 3) % 83}`,
        alt: second === 'spread' ? `A spread of small bowls at ${name}` : `Another dish at ${name}`,
      },
      { purpose: 'menu', illustration: `menu:${category}:${n % 7}${PURE_VEG.has(slug) ? ':veg' : ''}`, alt: `The menu at ${name}` },
    ],
  };
}

/** Writes the demo pages of seed restaurants whose page says nothing yet (once per restaurant). */
export async function seedRestaurantProfiles(db: Db): Promise<void> {
  const blank = await queryRows<{ id: string; slug: string }>(
    db,
    sql`SELECT r.id, r.slug FROM restaurants r
        WHERE r.diet IS NULL AND r.cost_for_two IS NULL AND r.address IS NULL
          AND NOT EXISTS (SELECT 1 FROM restaurant_photos p WHERE p.restaurant_id = r.id)`,
  );
  if (blank.length === 0) return;
  const bySlug = new Map(seedRestaurants.map((row) => [slugify(row[0]), row]));
  await db.transaction(async (tx) => {
    for (const { id, slug } of blank) {
      const seed = bySlug.get(slug);
      if (!seed) continue;
      const [name, category, , neighborhood] = seed;
      const profile = demoProfileOf(name, category, neighborhood);
      await tx.execute(
        sql`UPDATE restaurants SET diet = ${profile.diet}, cost_for_two = ${profile.costForTwo}, address = ${profile.address},
              dress_code = ${profile.dressCode}, children_policy = ${profile.children}, smoking_policy = ${profile.smoking}
            WHERE id = ${id}`,
      );
      let order = { gallery: 0, menu: 0 };
      for (const photo of profile.photos) {
        const isMenu = photo.purpose === 'menu';
        await tx.execute(
          sql`INSERT INTO restaurant_photos (restaurant_id, purpose, sort_order, alt, variant_base, width, height, illustration)
              VALUES (${id}, ${photo.purpose}, ${order[photo.purpose]}, ${photo.alt}, ${`demo-photos/${slug}-${photo.illustration.replaceAll(':', '-')}`},
                      1440, ${isMenu ? 2016 : 960}, ${photo.illustration})`,
        );
        order = { ...order, [photo.purpose]: order[photo.purpose] + 1 };
      }
    }
  });
}
