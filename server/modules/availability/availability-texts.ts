/**
 * Finished availability answers, as the JSON text the route sends, per restaurant, date and party
 * size (decision 186), so a repeated read is a lookup and a send. Bounded in characters across all
 * restaurants, whatever the number of restaurants, dates or party sizes asked:
 *
 * - a restaurant's texts belong to one span of its derived answers (availability-cache.ts): a read
 *   under another span (a cut-off passed, a hold expired, a drop opened, the entry was read again
 *   after a write) drops them all and starts afresh;
 * - a write announced for a restaurant drops its texts at once (`forgetRestaurant`);
 * - past `maxCharacters`, the restaurants whose texts were started longest ago go first;
 * - party sizes that see the same slots available share one string, counted once.
 */
export function createAvailabilityTexts(maxCharacters: number) {
  /** Per restaurant: the span its texts belong to, their characters, and by date the text per party size. */
  const byRestaurant = new Map<string, { span: number; characters: number; byDate: Map<string, (string | undefined)[]> }>();
  let characters = 0;

  function forgetRestaurant(restaurantId: string): void {
    const kept = byRestaurant.get(restaurantId);
    if (!kept) return;
    byRestaurant.delete(restaurantId);
    characters -= kept.characters;
  }

  return {
    /** The text kept for the restaurant, date and party size under `span`, else undefined. */
    get(restaurantId: string, span: number, date: string, partySize: number): string | undefined {
      const kept = byRestaurant.get(restaurantId);
      return kept !== undefined && kept.span === span ? kept.byDate.get(date)?.[partySize] : undefined;
    },

    /** Keeps a text built under `span`, dropping the restaurant's texts of another span and, past the bound, the oldest restaurants'. */
    keep(restaurantId: string, span: number, date: string, partySize: number, text: string): void {
      if (text.length > maxCharacters) return;
      let kept = byRestaurant.get(restaurantId);
      if (kept !== undefined && kept.span !== span) {
        forgetRestaurant(restaurantId);
        kept = undefined;
      }
      if (kept === undefined) {
        kept = { span, characters: 0, byDate: new Map() };
        byRestaurant.set(restaurantId, kept);
      }
      let texts = kept.byDate.get(date);
      if (texts === undefined) kept.byDate.set(date, (texts = []));
      const same = texts.find((other) => other === text);
      texts[partySize] = same ?? text;
      if (same === undefined) {
        kept.characters += text.length;
        characters += text.length;
      }
      for (const [oldestId] of byRestaurant) {
        if (characters <= maxCharacters) break;
        if (oldestId !== restaurantId) forgetRestaurant(oldestId);
      }
      // Only this restaurant is left and it alone is over the bound: start it afresh with this text.
      if (characters > maxCharacters) {
        forgetRestaurant(restaurantId);
        const only: (string | undefined)[] = [];
        only[partySize] = text;
        byRestaurant.set(restaurantId, { span, characters: text.length, byDate: new Map([[date, only]]) });
        characters = text.length;
      }
    },

    forgetRestaurant,

    /** What is held now (for tests and diagnostics). */
    held: () => ({ restaurants: byRestaurant.size, characters }),

    clear(): void {
      byRestaurant.clear();
      characters = 0;
    },
  };
}

export type AvailabilityTexts = ReturnType<typeof createAvailabilityTexts>;
