/**
 * Drawn photos for the demo restaurants (decision 235): SVG scenes made here — a dish on a table
 * seen from above, the dining room at night, a thali spread, the menu card — rasterised by the
 * photo pipeline like an upload. An illustration is named `scene:category:seed`; the same name
 * always draws the same picture, so only the name is stored and the pixels are made on first read.
 */

export const illustrationScenes = ['dish', 'room', 'spread', 'menu'] as const;
export type IllustrationScene = (typeof illustrationScenes)[number];

/** A small deterministic random stream from a string. */
function randomFrom(seed: string): () => number {
  let hash = 2166136261;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  let state = hash >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    state ^= state >>> 13;
    return (state >>> 0) / 4294967296;
  };
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Food colours per category: the sauce, the garnish, the accent. */
const FOOD: Record<string, { sauce: string[]; garnish: string[]; table: [string, string] }> = {
  indian: { sauce: ['#c2410c', '#b45309', '#9a3412', '#ea580c'], garnish: ['#65a30d', '#f5f5f4', '#facc15'], table: ['#5b3a24', '#3b2415'] },
  lunch: { sauce: ['#ca8a04', '#c2410c', '#a16207'], garnish: ['#16a34a', '#fef3c7', '#dc2626'], table: ['#6b4a2e', '#452d1a'] },
  breakfast: { sauce: ['#eab308', '#f59e0b', '#fde68a'], garnish: ['#15803d', '#fff7ed', '#b91c1c'], table: ['#8a6a4a', '#5f4630'] },
  coffee: { sauce: ['#78350f', '#92400e', '#a16207'], garnish: ['#fef3c7', '#fde68a', '#f5f5f4'], table: ['#6b4a2e', '#3f2a19'] },
  dessert: { sauce: ['#be185d', '#f472b6', '#7c2d12', '#fde68a'], garnish: ['#fafaf9', '#dc2626', '#65a30d'], table: ['#e7d8c9', '#c9b29b'] },
  pizza: { sauce: ['#b91c1c', '#dc2626', '#c2410c'], garnish: ['#fef9c3', '#15803d', '#1c1917'], table: ['#7c5636', '#4b3220'] },
  italian: { sauce: ['#b91c1c', '#fde68a', '#65a30d'], garnish: ['#fefce8', '#15803d', '#a8a29e'], table: ['#7c5636', '#4b3220'] },
  asian: { sauce: ['#92400e', '#b45309', '#f97316'], garnish: ['#16a34a', '#fafaf9', '#1c1917'], table: ['#292524', '#1c1917'] },
  mexican: { sauce: ['#ea580c', '#65a30d', '#b91c1c'], garnish: ['#fef3c7', '#16a34a', '#f5f5f4'], table: ['#9a6b3f', '#5f3f22'] },
  dinner: { sauce: ['#7f1d1d', '#9a3412', '#b45309'], garnish: ['#4d7c0f', '#fef3c7', '#f97316'], table: ['#3f2a1c', '#24170f'] },
  bar: { sauce: ['#7c2d12', '#92400e', '#a16207'], garnish: ['#65a30d', '#fef9c3', '#f97316'], table: ['#292524', '#171412'] },
  cocktails: { sauce: ['#be123c', '#f59e0b', '#0e7490'], garnish: ['#84cc16', '#fef08a', '#fafaf9'], table: ['#1f2937', '#111827'] },
  wine: { sauce: ['#7f1d1d', '#581c87', '#9f1239'], garnish: ['#fef3c7', '#65a30d', '#fafaf9'], table: ['#3b2a20', '#1f1510'] },
};
const foodFor = (category: string) => FOOD[category] ?? FOOD.dinner;

/**
 * Soft shadows and glows shared by every scene: radial gradients rather than blur filters, which
 * cost several times as long to rasterise (a photo is drawn in under half a second).
 */
const DEFS = `<radialGradient id="shadow"><stop offset="0.62" stop-color="#000" stop-opacity="0.55"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>
<radialGradient id="soften"><stop offset="0.4" stop-color="#fff" stop-opacity="0.18"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>`;

function woodTable(width: number, height: number, [light, dark]: [string, string], rand: () => number): string {
  const planks = Array.from({ length: 6 }, (_, i) => {
    const y = (i * height) / 6;
    const tone = 0.05 + rand() * 0.12;
    return `<rect x="0" y="${y.toFixed(0)}" width="${width}" height="${(height / 6).toFixed(0)}" fill="#000" fill-opacity="${tone.toFixed(2)}"/>
<path d="M0 ${(y + 2).toFixed(0)} H${width}" stroke="#000" stroke-opacity="0.35" stroke-width="3"/>`;
  }).join('');
  const grain = Array.from({ length: 40 }, () => {
    const y = rand() * height;
    const x = rand() * width;
    return `<path d="M${x.toFixed(0)} ${y.toFixed(0)} q ${(80 + rand() * 200).toFixed(0)} ${(rand() * 8 - 4).toFixed(1)} ${(240 + rand() * 300).toFixed(0)} 0" stroke="#fff" stroke-opacity="0.05" stroke-width="${(1 + rand() * 2).toFixed(1)}" fill="none"/>`;
  }).join('');
  return `<linearGradient id="wood" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient>
<rect width="${width}" height="${height}" fill="url(#wood)"/>${planks}${grain}`;
}

/** A round plate with a rim, seen from above, with `food` drawn inside its well. */
function plate(cx: number, cy: number, r: number, food: string, rimColour = '#f8f5ef'): string {
  return `<ellipse cx="${cx + r * 0.08}" cy="${cy + r * 0.12}" rx="${r * 1.02}" ry="${r * 1.02}" fill="url(#shadow)" transform="translate(${cx} ${cy}) scale(1.12) translate(${-cx} ${-cy})"/>
<circle cx="${cx}" cy="${cy}" r="${r}" fill="${rimColour}"/>
<circle cx="${cx}" cy="${cy}" r="${r}" fill="url(#plateShade)"/>
<circle cx="${cx}" cy="${cy}" r="${r * 0.74}" fill="#fffdf8" stroke="#e7e2d8" stroke-width="${(r * 0.02).toFixed(1)}"/>
${food}`;
}

const PLATE_DEFS = `<radialGradient id="plateShade" cx="0.38" cy="0.32" r="0.8"><stop offset="0.6" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#8b8378" stop-opacity="0.35"/></radialGradient>
<radialGradient id="gloss" cx="0.35" cy="0.3" r="0.6"><stop offset="0" stop-color="#fff" stop-opacity="0.55"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>`;

/** A saucy main: a glossy pool with pieces and herbs. */
function curry(cx: number, cy: number, r: number, colours: { sauce: string[]; garnish: string[] }, rand: () => number): string {
  const sauce = colours.sauce[Math.floor(rand() * colours.sauce.length)];
  const pieces = Array.from({ length: 9 }, () => {
    const angle = rand() * Math.PI * 2;
    const distance = rand() * r * 0.45;
    const size = r * (0.09 + rand() * 0.08);
    return `<ellipse cx="${(cx + Math.cos(angle) * distance).toFixed(1)}" cy="${(cy + Math.sin(angle) * distance).toFixed(1)}" rx="${size.toFixed(1)}" ry="${(size * 0.75).toFixed(1)}" transform="rotate(${(rand() * 180).toFixed(0)} ${(cx + Math.cos(angle) * distance).toFixed(1)} ${(cy + Math.sin(angle) * distance).toFixed(1)})" fill="${sauce}" stroke="#000" stroke-opacity="0.18" stroke-width="2"/>`;
  }).join('');
  const herbs = Array.from({ length: 26 }, () => {
    const angle = rand() * Math.PI * 2;
    const distance = rand() * r * 0.55;
    const colour = colours.garnish[Math.floor(rand() * colours.garnish.length)];
    return `<ellipse cx="${(cx + Math.cos(angle) * distance).toFixed(1)}" cy="${(cy + Math.sin(angle) * distance).toFixed(1)}" rx="${(r * 0.025 + rand() * r * 0.02).toFixed(1)}" ry="${(r * 0.012).toFixed(1)}" transform="rotate(${(rand() * 180).toFixed(0)} ${(cx + Math.cos(angle) * distance).toFixed(1)} ${(cy + Math.sin(angle) * distance).toFixed(1)})" fill="${colour}"/>`;
  }).join('');
  return `<circle cx="${cx}" cy="${cy}" r="${r * 0.62}" fill="${sauce}"/>
<circle cx="${cx}" cy="${cy}" r="${r * 0.62}" fill="#000" fill-opacity="0.12"/>
<circle cx="${cx - r * 0.05}" cy="${cy - r * 0.05}" r="${r * 0.55}" fill="url(#soften)"/>
${pieces}
<path d="M${cx - r * 0.45} ${cy - r * 0.1} q ${r * 0.3} ${-r * 0.25} ${r * 0.7} ${-r * 0.05}" stroke="#fff7ed" stroke-opacity="0.75" stroke-width="${(r * 0.035).toFixed(1)}" fill="none" stroke-linecap="round"/>
${herbs}
<circle cx="${cx}" cy="${cy}" r="${r * 0.62}" fill="url(#gloss)"/>`;
}

/** A round flatbread or pizza: a baked disc with toppings. */
function bakedDisc(cx: number, cy: number, r: number, colours: { sauce: string[]; garnish: string[] }, rand: () => number): string {
  const toppings = Array.from({ length: 22 }, () => {
    const angle = rand() * Math.PI * 2;
    const distance = Math.sqrt(rand()) * r * 0.52;
    const colour = [...colours.garnish, colours.sauce[0]][Math.floor(rand() * (colours.garnish.length + 1))];
    return `<circle cx="${(cx + Math.cos(angle) * distance).toFixed(1)}" cy="${(cy + Math.sin(angle) * distance).toFixed(1)}" r="${(r * (0.03 + rand() * 0.05)).toFixed(1)}" fill="${colour}" opacity="0.92"/>`;
  }).join('');
  const spots = Array.from({ length: 14 }, () => {
    const angle = rand() * Math.PI * 2;
    return `<circle cx="${(cx + Math.cos(angle) * r * 0.66).toFixed(1)}" cy="${(cy + Math.sin(angle) * r * 0.66).toFixed(1)}" r="${(r * 0.03).toFixed(1)}" fill="#3f2a1c" opacity="0.6"/>`;
  }).join('');
  const cuts = [0, 60, 120]
    .map(
      (angle) =>
        `<path d="M${cx} ${cy} m ${(-Math.cos((angle * Math.PI) / 180) * r * 0.7).toFixed(1)} ${(-Math.sin((angle * Math.PI) / 180) * r * 0.7).toFixed(1)} l ${(Math.cos((angle * Math.PI) / 180) * r * 1.4).toFixed(1)} ${(Math.sin((angle * Math.PI) / 180) * r * 1.4).toFixed(1)}" stroke="#7c2d12" stroke-opacity="0.35" stroke-width="3"/>`,
    )
    .join('');
  return `<circle cx="${cx}" cy="${cy}" r="${r * 0.7}" fill="#d6a25e"/>
<circle cx="${cx}" cy="${cy}" r="${r * 0.7}" fill="url(#gloss)"/>
<circle cx="${cx}" cy="${cy}" r="${r * 0.58}" fill="${colours.sauce[0]}"/>
<circle cx="${cx}" cy="${cy}" r="${r * 0.56}" fill="url(#soften)"/>
${toppings}${spots}${cuts}`;
}

/** A small bowl (katori) with a sauce, seen from above. */
function bowl(cx: number, cy: number, r: number, colour: string): string {
  return `<ellipse cx="${cx + r * 0.1}" cy="${cy + r * 0.14}" rx="${r * 1.15}" ry="${r * 1.15}" fill="url(#shadow)"/>
<circle cx="${cx}" cy="${cy}" r="${r}" fill="#cbd5e1"/><circle cx="${cx}" cy="${cy}" r="${r}" fill="url(#plateShade)"/>
<circle cx="${cx}" cy="${cy}" r="${r * 0.8}" fill="${colour}"/><circle cx="${cx}" cy="${cy}" r="${r * 0.8}" fill="url(#gloss)"/>`;
}

function glass(cx: number, cy: number, r: number, colour: string): string {
  return `<ellipse cx="${cx + r * 0.12}" cy="${cy + r * 0.15}" rx="${r * 1.15}" ry="${r * 1.15}" fill="url(#shadow)" opacity="0.8"/>
<circle cx="${cx}" cy="${cy}" r="${r}" fill="#e2e8f0" fill-opacity="0.35" stroke="#f8fafc" stroke-opacity="0.7" stroke-width="3"/>
<circle cx="${cx}" cy="${cy}" r="${r * 0.8}" fill="${colour}" fill-opacity="0.85"/>
<circle cx="${cx}" cy="${cy}" r="${r * 0.8}" fill="url(#gloss)"/>`;
}

function dish(category: string, rand: () => number, width: number, height: number): string {
  const colours = foodFor(category);
  const cx = width * (0.45 + rand() * 0.1);
  const cy = height * (0.48 + rand() * 0.06);
  const r = height * 0.4;
  const isBaked = category === 'pizza' || (category === 'italian' && rand() > 0.5) || (category === 'breakfast' && rand() > 0.5);
  const main = isBaked ? bakedDisc(cx, cy, r, colours, rand) : curry(cx, cy, r, colours, rand);
  const side = glass(width * 0.87, height * 0.2, height * 0.11, colours.sauce[colours.sauce.length - 1]);
  const napkin = `<rect x="${width * 0.05}" y="${height * 0.62}" width="${width * 0.14}" height="${height * 0.34}" rx="8" fill="#f5efe6" transform="rotate(-8 ${width * 0.12} ${height * 0.79})"/>
<rect x="${width * 0.085}" y="${height * 0.6}" width="${width * 0.018}" height="${height * 0.38}" rx="4" fill="#a8a29e" transform="rotate(-8 ${width * 0.12} ${height * 0.79})"/>`;
  return `${woodTable(width, height, colours.table, rand)}${napkin}${plate(cx, cy, r, main)}${side}`;
}

function spread(category: string, rand: () => number, width: number, height: number): string {
  const colours = foodFor(category);
  const bowls = [
    [0.2, 0.3],
    [0.42, 0.22],
    [0.64, 0.3],
    [0.82, 0.58],
    [0.62, 0.72],
    [0.3, 0.74],
  ]
    .map(([x, y], index) =>
      bowl(
        width * x,
        height * y,
        height * (0.1 + rand() * 0.03),
        [...colours.sauce, ...colours.garnish][index % (colours.sauce.length + colours.garnish.length)],
      ),
    )
    .join('');
  const centre = plate(
    width * 0.45,
    height * 0.52,
    height * 0.2,
    `<circle cx="${width * 0.45}" cy="${height * 0.52}" r="${height * 0.13}" fill="#fefce8"/>${Array.from({ length: 60 }, () => `<ellipse cx="${(width * 0.45 + (rand() - 0.5) * height * 0.22).toFixed(1)}" cy="${(height * 0.52 + (rand() - 0.5) * height * 0.22).toFixed(1)}" rx="5" ry="2" transform="rotate(${(rand() * 180).toFixed(0)} ${(width * 0.45).toFixed(0)} ${(height * 0.52).toFixed(0)})" fill="#fde68a"/>`).join('')}`,
  );
  const leaf = `<ellipse cx="${width * 0.5}" cy="${height * 0.5}" rx="${width * 0.46}" ry="${height * 0.44}" fill="#166534"/><ellipse cx="${width * 0.5}" cy="${height * 0.5}" rx="${width * 0.46}" ry="${height * 0.44}" fill="url(#gloss)"/>
<path d="M${width * 0.06} ${height * 0.5} H${width * 0.94}" stroke="#86efac" stroke-opacity="0.5" stroke-width="4"/>`;
  const base = category === 'indian' || category === 'lunch' ? leaf : '';
  return `${woodTable(width, height, colours.table, rand)}${base}${bowls}${centre}`;
}

function room(category: string, rand: () => number, width: number, height: number): string {
  const warm = ['#f59e0b', '#fb923c', '#fbbf24', '#fcd34d'][Math.floor(rand() * 4)];
  const wall = category === 'cocktails' || category === 'bar' || category === 'wine' ? ['#1e1b2e', '#3b2a3a'] : ['#4a3426', '#2a1d15'];
  const lamps = Array.from({ length: 5 }, (_, i) => {
    const x = width * (0.12 + i * 0.19 + (rand() - 0.5) * 0.04);
    const y = height * (0.18 + rand() * 0.06);
    return `<line x1="${x}" y1="0" x2="${x}" y2="${y - 18}" stroke="#0c0a09" stroke-width="3"/>
<circle cx="${x}" cy="${y}" r="${height * 0.22}" fill="url(#glow)"/>
<path d="M${x - 26} ${y} q 26 -40 52 0 z" fill="#1c1917"/><ellipse cx="${x}" cy="${y + 2}" rx="20" ry="7" fill="${warm}"/>`;
  }).join('');
  const tables = Array.from({ length: 4 }, (_, i) => {
    const x = width * (0.14 + i * 0.24);
    const y = height * 0.78;
    return `<ellipse cx="${x}" cy="${y + 30}" rx="${width * 0.13}" ry="30" fill="url(#shadow)"/>
<rect x="${x - width * 0.09}" y="${y - 14}" width="${width * 0.18}" height="22" rx="6" fill="#6b4a2e"/>
<rect x="${x - 6}" y="${y + 6}" width="12" height="${height * 0.15}" fill="#292524"/>
<rect x="${x - width * 0.12}" y="${y - 60}" width="${width * 0.035}" height="${height * 0.2}" rx="10" fill="#2f241d"/>
<rect x="${x + width * 0.085}" y="${y - 60}" width="${width * 0.035}" height="${height * 0.2}" rx="10" fill="#2f241d"/>
<circle cx="${x - 20}" cy="${y - 22}" r="9" fill="${warm}" opacity="0.9"/><circle cx="${x - 20}" cy="${y - 22}" r="30" fill="url(#glow)" opacity="0.6"/>`;
  }).join('');
  const bokeh = Array.from(
    { length: 26 },
    () =>
      `<circle cx="${(rand() * width).toFixed(0)}" cy="${(rand() * height * 0.55).toFixed(0)}" r="${(6 + rand() * 22).toFixed(0)}" fill="${warm}" opacity="${(0.2 + rand() * 0.4).toFixed(2)}" fill-opacity="1" style="fill:url(#glow)"/>`,
  ).join('');
  const shelves = Array.from(
    { length: 3 },
    (_, i) => `<rect x="${width * 0.62}" y="${height * (0.3 + i * 0.09)}" width="${width * 0.34}" height="6" fill="#1c1917" opacity="0.7"/>
${Array.from({ length: 9 }, (_, j) => `<rect x="${width * 0.63 + j * width * 0.036}" y="${height * (0.3 + i * 0.09) - 34}" width="14" height="34" rx="4" fill="${['#14532d', '#7c2d12', '#78350f', '#1e3a8a'][(i + j) % 4]}" opacity="0.8"/>`).join('')}`,
  ).join('');
  return `<radialGradient id="glow"><stop offset="0" stop-color="${warm}" stop-opacity="0.55"/><stop offset="1" stop-color="${warm}" stop-opacity="0"/></radialGradient>
<linearGradient id="wall" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${wall[0]}"/><stop offset="1" stop-color="${wall[1]}"/></linearGradient>
<rect width="${width}" height="${height}" fill="url(#wall)"/>
<rect x="0" y="${height * 0.68}" width="${width}" height="${height * 0.32}" fill="#1c1410"/>
<rect x="${width * 0.06}" y="${height * 0.28}" width="${width * 0.44}" height="${height * 0.3}" rx="10" fill="#0f172a" opacity="0.65"/>
${bokeh}${shelves}${lamps}${tables}
<rect width="${width}" height="${height}" fill="url(#vignette)"/>`;
}

/** A printed menu card with the restaurant's dishes and prices. */
function menuCard(name: string, dishes: [string, number][], rand: () => number, width: number, height: number): string {
  const lines = dishes
    .map(([dishName, price], index) => {
      const y = height * 0.3 + index * height * 0.075;
      return `<text x="${width * 0.14}" y="${y}" font-family="DejaVu Serif, Liberation Serif, serif" font-size="${height * 0.036}" fill="#292524">${escape(dishName)}</text>
<line x1="${width * 0.14}" y1="${y + 10}" x2="${width * 0.86}" y2="${y + 10}" stroke="#a8a29e" stroke-dasharray="2 6"/>
<text x="${width * 0.86}" y="${y}" text-anchor="end" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-weight="bold" font-size="${height * 0.034}" fill="#7c2d12">₹${price.toLocaleString('en-IN')}</text>`;
    })
    .join('');
  return `${woodTable(width, height, ['#4a3426', '#2a1d15'], rand)}
<rect x="${width * 0.08 + 10}" y="${height * 0.05 + 14}" width="${width * 0.84}" height="${height * 0.9}" rx="6" fill="#000" opacity="0.35"/>
<rect x="${width * 0.08}" y="${height * 0.05}" width="${width * 0.84}" height="${height * 0.9}" rx="6" fill="#fbf7ef"/>
<rect x="${width * 0.1}" y="${height * 0.07}" width="${width * 0.8}" height="${height * 0.86}" rx="4" fill="none" stroke="#b45309" stroke-width="2"/>
<text x="${width / 2}" y="${height * 0.15}" text-anchor="middle" font-family="DejaVu Serif, Liberation Serif, serif" font-weight="bold" font-size="${height * 0.055}" fill="#1c1917">${escape(name)}</text>
<text x="${width / 2}" y="${height * 0.205}" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif" letter-spacing="6" font-size="${height * 0.024}" fill="#b45309">TONIGHT’S MENU</text>
${lines}
<text x="${width / 2}" y="${height * 0.9}" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="${height * 0.022}" fill="#78716c">Prices include taxes · Ask us about allergens</text>`;
}

/** What a demo menu card lists, by the restaurant's category: dish and price in rupees. */
const DISHES: Record<string, [string, number][]> = {
  indian: [
    ['Paneer tikka', 420],
    ['Dal makhani', 380],
    ['Butter chicken', 520],
    ['Tandoori roti', 60],
    ['Jeera rice', 220],
    ['Gulab jamun', 180],
    ['Masala chaas', 90],
  ],
  lunch: [
    ['Andhra meals', 320],
    ['Bisi bele bath', 180],
    ['Curd rice', 140],
    ['Chicken biryani', 380],
    ['Gobi 65', 240],
    ['Payasam', 120],
  ],
  breakfast: [
    ['Masala dosa', 150],
    ['Rava idli', 110],
    ['Kesari bath', 90],
    ['Eggs your way', 260],
    ['Sourdough toast', 220],
    ['Filter coffee', 70],
  ],
  coffee: [
    ['Filter coffee', 70],
    ['Cold brew', 180],
    ['Maddur vada', 90],
    ['Bun maska', 80],
    ['Masala chai', 60],
    ['Banana bread', 140],
  ],
  dessert: [
    ['Tres leches', 260],
    ['Plum cake', 180],
    ['Tiramisu', 320],
    ['Mishti doi', 120],
    ['Sizzling brownie', 290],
    ['Rosogolla', 110],
  ],
  pizza: [
    ['Margherita', 450],
    ['Paneer tikka pizza', 520],
    ['Coorg pork', 620],
    ['Garlic knots', 220],
    ['Burrata salad', 480],
    ['Affogato', 240],
  ],
  italian: [
    ['Burrata', 520],
    ['Cacio e pepe', 560],
    ['Mushroom risotto', 620],
    ['Gnocchi al pomodoro', 540],
    ['Tiramisu', 360],
    ['Espresso', 140],
  ],
  asian: [
    ['Har gow', 380],
    ['Shoyu ramen', 560],
    ['Kung pao tofu', 420],
    ['Pork bao', 360],
    ['Pad thai', 480],
    ['Mango sticky rice', 320],
  ],
  mexican: [
    ['Birria tacos', 520],
    ['Guacamole', 340],
    ['Elote', 260],
    ['Quesadilla', 420],
    ['Churros', 280],
    ['Horchata', 220],
  ],
  dinner: [
    ['Ghee roast', 580],
    ['Neer dosa', 120],
    ['Grilled fish', 720],
    ['Kori rotti', 520],
    ['Appam & stew', 380],
    ['Tender coconut pudding', 260],
  ],
  bar: [
    ['Smoked brisket', 780],
    ['Pork ribs', 820],
    ['Loaded fries', 320],
    ['House lager', 380],
    ['Whisky sour', 620],
    ['Peanut masala', 180],
  ],
  cocktails: [
    ['Kokum spritz', 620],
    ['Smoked old fashioned', 780],
    ['Bao trio', 480],
    ['Truffle fries', 420],
    ['Gin & tonic', 560],
    ['Chilli prawns', 640],
  ],
  wine: [
    ['Cheese board', 980],
    ['Patatas bravas', 380],
    ['Gambas al ajillo', 720],
    ['Sula chenin blanc', 520],
    ['Grover shiraz', 640],
    ['Churros', 320],
  ],
};

const MEAT_OR_EGG = /chicken|mutton|pork|fish|prawn|gambas|brisket|ribs|egg|kori|birria|ghee roast|bao|stew|tres leches|tiramisu|plum cake|brownie/i;
/** Vegetarian stand-ins, so a pure veg restaurant's menu card lists no meat, fish or egg. */
const VEG_DISHES: [string, number][] = [
  ['Paneer butter masala', 360],
  ['Veg pulao', 240],
  ['Aloo gobi', 220],
  ['Mysore pak', 120],
  ['Masala buttermilk', 70],
  ['Rasam rice', 160],
];

function menuDishes(category: string, isPureVeg: boolean): [string, number][] {
  const dishes = DISHES[category] ?? DISHES.dinner;
  if (!isPureVeg) return dishes.slice(0, 7);
  const veg = dishes.filter(([dish]) => !MEAT_OR_EGG.test(dish));
  return [...veg, ...VEG_DISHES].slice(0, 7);
}

/** The SVG of an illustration; `menu` scenes take the restaurant's name (and list the category's dishes). */
export function renderIllustration(
  name: string,
  extras: { restaurantName?: string; dishes?: [string, number][] } = {},
): { svg: string; width: number; height: number } {
  const [scene, category = 'dinner', seed = '0', diet] = name.split(':');
  const rand = randomFrom(name);
  const isMenu = scene === 'menu';
  // The largest stored width (1440), so nothing is scaled up: a 3:2 photo, a 5:7 menu page.
  const width = 1440;
  const height = isMenu ? 2016 : 960;
  const body =
    scene === 'room'
      ? room(category, rand, width, height)
      : scene === 'spread'
        ? spread(category, rand, width, height)
        : isMenu
          ? menuCard(extras.restaurantName ?? 'Menu', extras.dishes ?? menuDishes(category, diet === 'veg'), rand, width, height)
          : dish(category, rand, width, height);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" data-seed="${escape(seed)}">
<defs>${DEFS}${PLATE_DEFS}<radialGradient id="vignette" cx="0.5" cy="0.5" r="0.75"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.45"/></radialGradient>
<radialGradient id="light" cx="0.3" cy="0.2" r="0.9"><stop offset="0" stop-color="#fff7e6" stop-opacity="0.28"/><stop offset="1" stop-color="#fff7e6" stop-opacity="0"/></radialGradient></defs>
${body}
<rect width="${width}" height="${height}" fill="url(#light)"/>
<rect width="${width}" height="${height}" fill="url(#vignette)"/>
</svg>`;
  return { svg, width, height };
}
