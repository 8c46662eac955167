/**
 * Knowing your guests (decisions 260–269): what a diner tells a restaurant when booking (an
 * occasion, quick picks and a short request), and what the restaurant's staff keep about a guest
 * (tags and a note, inside that restaurant only). The enumerations as data, with their words.
 */

export const occasions = ['birthday', 'anniversary', 'date', 'business', 'other'] as const;
export type Occasion = (typeof occasions)[number];
export const occasionLabels: Record<Occasion, string> = {
  birthday: 'Birthday',
  anniversary: 'Anniversary',
  date: 'Date',
  business: 'Business',
  other: 'Other occasion',
};

/** Quick picks for common needs; 'allergies' asks the diner to name them in the request. */
export const requestPicks = ['allergies', 'jain', 'vegan', 'no-onion-garlic', 'high-chair', 'wheelchair-access'] as const;
export type RequestPick = (typeof requestPicks)[number];
export const requestPickLabels: Record<RequestPick, string> = {
  allergies: 'Allergies',
  jain: 'Jain',
  vegan: 'Vegan',
  'no-onion-garlic': 'No onion-garlic',
  'high-chair': 'High chair',
  'wheelchair-access': 'Wheelchair access',
};

/** Staff tags on a guest, kept by one restaurant. */
export const guestTags = ['vip', 'regular', 'allergy', 'celebrating'] as const;
export type GuestTag = (typeof guestTags)[number];
export const guestTagLabels: Record<GuestTag, string> = {
  vip: 'VIP',
  regular: 'Regular',
  allergy: 'Allergy',
  celebrating: 'Celebrating',
};

/** A diner's special request: at most this many characters. */
export const SPECIAL_REQUEST_MAX = 200;
/** A restaurant's note about a guest: at most this many characters. */
export const GUEST_NOTE_MAX = 500;
/** A diner's cancel this close to the start (or later) counts as a late cancel on the guest card. */
export const LATE_CANCEL_MINUTES = 120;

/** What a diner told the restaurant for one booking. */
export interface BookingRequestData {
  occasion: Occasion | null;
  picks: readonly RequestPick[];
  note: string;
}

/** True when the diner said nothing (no occasion, no pick, no words): the request is then stored as none. */
export function isEmptyRequest(request: BookingRequestData): boolean {
  return request.occasion === null && request.picks.length === 0 && request.note.trim() === '';
}

/**
 * True when a booking should be flagged for allergies on the staff's screens and tonight's brief:
 * the diner picked "Allergies", staff tagged the guest "Allergy", or either wrote of an allergy.
 */
export function mentionsAllergy(request: BookingRequestData | null, tags: readonly GuestTag[], staffNote = ''): boolean {
  if (tags.includes('allergy')) return true;
  if (request?.picks.includes('allergies')) return true;
  return /allerg/i.test(`${request?.note ?? ''} ${staffNote}`);
}

/** How a request reads in one line (emails, the brief): the occasion, the picks, then the words. */
export function describeRequest(request: BookingRequestData): string {
  const parts: string[] = [];
  if (request.occasion) parts.push(occasionLabels[request.occasion]);
  for (const pick of request.picks) parts.push(requestPickLabels[pick]);
  if (request.note.trim()) parts.push(`“${request.note.trim()}”`);
  return parts.join(' · ');
}
