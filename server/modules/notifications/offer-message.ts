import { formatDateShort, formatTime12h } from '#common/domain/time.ts';

/**
 * The offer template's slots (decision 213), the same for a waitlist's and a drop's table:
 * {{1}} restaurant, {{2}} guests, {{3}} date, {{4}} time, {{5}} held until, {{6}} the hold's link.
 */
export function offerTemplateValues(
  held: { restaurant_name: string; party_size: number; slot_date: string; slot_time: string },
  untilTime: string,
  link: string,
): string[] {
  const guests = held.party_size === 1 ? '1 guest' : `${held.party_size} guests`;
  return [held.restaurant_name, guests, formatDateShort(held.slot_date), formatTime12h(held.slot_time), formatTime12h(untilTime), link];
}
