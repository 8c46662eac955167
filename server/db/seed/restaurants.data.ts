/** One demo restaurant: name, category, cuisine tags, neighbourhood, lat, lng, hot, covers per slot, one-line description. */
export type SeedRestaurant = [
  name: string,
  category: string,
  cuisineTags: string[],
  neighborhood: string,
  lat: number,
  lng: number,
  hot: boolean,
  capacity: number,
  description: string,
];

/**
 * Demo restaurants for Bengaluru: invented names, real neighbourhoods, positions inside the city.
 * A table, one restaurant a line, read once by parseSeedRow (columns split on '|', tags on ',').
 */
const SEED_TABLE = `
Toit & Tandoor          | indian    | North Indian, Tandoor, Craft Beer | Indiranagar    | 12.9784, 77.6408 | hot | 24 | Charcoal tandoor and house-brewed ales on 100 Feet Road.
The Filter Room         | coffee    | South Indian, Coffee, Breakfast   | Malleswaram    | 13.0035, 77.5712 | -   | 16 | Decoction coffee, ghee podi dosa and a garden courtyard.
Nagarjuna Leaf House    | lunch     | Andhra, Biryani, Meals            | Koramangala    | 12.9345, 77.6265 | hot | 40 | Banana-leaf Andhra meals with gunpowder and a fiery biryani.
Smoke & Copper          | bar       | Barbecue, Cocktails               | Indiranagar    | 12.9716, 77.6387 | -   | 20 | Low-and-slow smoked meats and whisky sours.
Koshy Street Kitchen    | breakfast | Continental, Kerala, Breakfast    | CBD            | 12.9752, 77.6046 | -   | 18 | Appam, stew and cutlets the way St Mark’s Road remembers them.
Sakura Lane             | asian     | Japanese, Sushi, Ramen            | Lavelle Road   | 12.9698, 77.5969 | hot | 12 | A twelve-seat counter for omakase and shoyu ramen.
Trattoria Nonna Lucia   | italian   | Italian, Pasta, Wood-fired        | Sadashivanagar | 13.0071, 77.5811 | -   | 20 | Hand-rolled pasta and a wood-fired oven from Naples.
Taco Tuesday Co.        | mexican   | Mexican, Tacos, Margaritas        | HSR Layout     | 12.9121, 77.6446 | -   | 16 | Blue-corn tortillas pressed to order, and mezcal flights.
Slice of Bangalore      | pizza     | Pizza, Italian, Vegetarian        | Jayanagar      | 12.9308, 77.5838 | -   | 24 | Sourdough pizza with Coorg pork and paneer tikka toppings.
Ember & Oak             | dinner    | Modern Indian, Grill, Wine        | Whitefield     | 12.9698, 77.7499 | hot | 28 | Live-fire grill and a cellar of Nashik wines.
Sweet Chariot           | dessert   | Desserts, Bakery, Coffee          | Frazer Town    | 12.9968, 77.614  | -   | 12 | Plum cake, tres leches and filter-coffee tiramisu.
Vino Veritas            | wine      | Wine Bar, European, Cheese        | Ulsoor         | 12.9817, 77.6212 | -   | 14 | Sixty wines by the glass, cheese boards and small plates.
Mavalli Mess            | indian    | South Indian, Vegetarian, Meals   | Basavanagudi   | 12.9441, 77.5713 | -   | 32 | Bisi bele bath and rava idli in a 1950s dining hall.
Skyline 42              | cocktails | Cocktails, Small Plates, Rooftop  | CBD            | 12.9716, 77.5946 | hot | 30 | Rooftop cocktails with the whole of MG Road below.
Coastal Curry Co.       | dinner    | Mangalorean, Seafood, Coastal     | Koramangala    | 12.9279, 77.6271 | hot | 22 | Kori rotti, neer dosa and a ghee roast that made our name.
Bamboo Basket           | asian     | Chinese, Dim Sum, Pan-Asian       | Kalyan Nagar   | 13.0262, 77.6431 | -   | 24 | Hand-pleated dim sum and Sichuan classics.
Pind Balluchi Dhaba     | indian    | Punjabi, North Indian, Tandoor    | Marathahalli   | 12.9591, 77.6974 | -   | 36 | Butter chicken, sarson da saag and lassi in steel tumblers.
The Sunday Brunch Club  | breakfast | Breakfast, Brunch, Continental    | Indiranagar    | 12.9655, 77.6419 | -   | 20 | Eggs your way, sourdough toast and bottomless filter coffee.
Cubbon Green Café       | lunch     | Salads, Healthy, Vegan            | CBD            | 12.9763, 77.5929 | -   | 18 | Bowls and salads a short walk from Cubbon Park.
Hoppers & Co.           | dinner    | Sri Lankan, Kerala, Seafood       | Domlur         | 12.9609, 77.6387 | -   | 16 | Egg hoppers, kothu and black pork curry.
Brewsky Terrace         | bar       | Craft Beer, Pub Food              | JP Nagar       | 12.9077, 77.5851 | hot | 40 | Six house brews on tap and a terrace over the ring road.
Chai Point Reserve      | coffee    | Tea, Snacks, Coffee               | HSR Layout     | 12.9098, 77.6512 | -   | 10 | Single-estate chai, bun maska and samosa chaat.
La Cucina Verde         | italian   | Italian, Vegetarian, Risotto      | Indiranagar    | 12.9784, 77.6345 | -   | 18 | A vegetarian Italian kitchen: risotto, gnocchi, burrata.
Biryani Darbar          | lunch     | Hyderabadi, Biryani, Mughlai      | Frazer Town    | 12.9987, 77.6181 | hot | 30 | Dum biryani sealed in dough, and haleem in season.
Seoul Kitchen BLR       | asian     | Korean, Barbecue, Asian           | Koramangala    | 12.9365, 77.6199 | -   | 20 | Table-top Korean barbecue and kimchi jjigae.
Agave Cantina           | mexican   | Mexican, Cocktails, Tacos         | Whitefield     | 12.9784, 77.7279 | -   | 22 | Birria tacos and a long list of agave spirits.
Dough & Co. Pizzeria    | pizza     | Pizza, Neapolitan, Craft Beer     | Bellandur      | 12.9261, 77.6762 | -   | 24 | Leopard-spotted Neapolitan pies in ninety seconds.
Mishti Mahal            | dessert   | Bengali, Desserts, Sweets         | BTM Layout     | 12.9166, 77.6101 | -   | 12 | Rosogolla, mishti doi and nolen gur sandesh.
The Tasting Room        | wine      | Wine Bar, Tapas, Spanish          | Lavelle Road   | 12.9687, 77.5988 | hot | 16 | Spanish tapas with wines from Karnataka’s own vineyards.
Gully Chaat House       | lunch     | Street Food, Chaat, Vegetarian    | Jayanagar      | 12.925, 77.5938  | -   | 20 | Pani puri, dahi papdi and Bangalore-style masala puri.
Udupi Sagar             | breakfast | Udupi, South Indian, Vegetarian   | Malleswaram    | 12.9971, 77.5696 | -   | 28 | Crisp set dosas, kesari bath and strong coffee since dawn.
Nizam’s Kebab Corner    | dinner    | Mughlai, Kebabs, North Indian     | Frazer Town    | 12.9945, 77.6155 | -   | 26 | Seekh and galouti kebabs off a charcoal sigri.
Pho Real                | asian     | Vietnamese, Pho, Asian            | Indiranagar    | 12.9689, 77.6401 | -   | 14 | Twelve-hour bone broth pho and bánh mì.
Copper Chimney Heritage | indian    | North Indian, Kebabs, Biryani     | Ulsoor         | 12.9823, 77.6267 | -   | 34 | Frontier kebabs and dal that simmers overnight.
Blue Ginger Bar         | cocktails | Cocktails, Asian Tapas            | Koramangala    | 12.9339, 77.6145 | hot | 24 | Asian-spiced cocktails and late-night bao.
Hebbal Lakeside Grill   | dinner    | Grill, Continental, Seafood       | Hebbal         | 13.0358, 77.597  | -   | 30 | Grilled fish and steaks with a view over the lake.
Pasta Street            | italian   | Italian, Pasta, Wine              | Whitefield     | 12.9592, 77.7446 | -   | 20 | Fresh pasta made every morning in the window.
Kaapi Katte             | coffee    | Coffee, South Indian, Snacks      | Basavanagudi   | 12.941, 77.569   | -   | 10 | A coffee katte on DVG Road: maddur vada and byte coffee.
Andhra Spice Route      | indian    | Andhra, Spicy, Seafood            | Marathahalli   | 12.9534, 77.7005 | -   | 28 | Guntur chilli chicken and prawn fry for the brave.
Frozen Bottle Parlour   | dessert   | Desserts, Ice Cream, Shakes       | Kalyan Nagar   | 13.0248, 77.6468 | -   | 14 | Thick shakes, sundaes and sizzling brownies.
Arbor Taproom           | bar       | Craft Beer, Pub Food, Live Music  | CBD            | 12.9785, 77.601  | -   | 36 | Belgian wits and live music on weekends.
Thai Orchid             | asian     | Thai, Curry, Asian                | Sadashivanagar | 13.0057, 77.5839 | -   | 18 | Green curry, som tam and mango sticky rice.
Rasoi Jain Bhojanalaya  | lunch     | Jain, Vegetarian, Gujarati        | Jayanagar      | 12.9279, 77.58   | -   | 24 | Jain thalis without onion or garlic, made with care.
Midnight Diner          | dinner    | Continental, Burgers, Late Night  | HSR Layout     | 12.914, 77.6381  | -   | 20 | Burgers, shakes and all-night comfort food.
`;

/** One line of SEED_TABLE as a typed row; a malformed line stops the seed with its text. */
function parseSeedRow(line: string): SeedRestaurant {
  const cells = line.split('|').map((cell) => cell.trim());
  const [name, category, tags, neighborhood, position, hot, capacity, description] = cells;
  const [lat, lng] = position?.split(',').map(Number) ?? [];
  if (
    cells.length !== 8 ||
    !description ||
    !Number.isFinite(lat) ||
    !Number.isFinite(lng) ||
    !/^\d+$/.test(capacity ?? '') ||
    !['hot', '-'].includes(hot ?? '')
  ) {
    throw new Error(`restaurants.data.ts: malformed seed row: ${line}`);
  }
  return [name!, category!, tags!.split(',').map((tag) => tag.trim()), neighborhood!, lat!, lng!, hot === 'hot', Number(capacity), description];
}

export const seedRestaurants: SeedRestaurant[] = SEED_TABLE.trim().split('\n').map(parseSeedRow);

/** 'Toit & Tandoor' → 'toit-tandoor'. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’'`]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
