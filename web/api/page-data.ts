import { PAGE_DATA_ELEMENT_ID } from '#common/domain/page-data.ts';

let pageData: unknown;
let read = false;

/**
 * Past this age the data is not offered any more: a query whose cache entry was dropped and is
 * made again later (the diner came back to the page) asks the API instead of showing old times.
 */
const PAGE_DATA_MAX_AGE_MS = 30_000;

/**
 * The data the server put into this document for its first screen (decision 078), or undefined.
 * It describes the page as it was loaded, so callers hand it to their query with
 * PAGE_DATA_TIME as its age, and the usual refetching takes over from there.
 */
export function readPageData(): unknown {
  if (typeof performance !== 'undefined' && performance.now() > PAGE_DATA_MAX_AGE_MS) return undefined;
  if (!read) {
    read = true;
    const text = typeof document === 'undefined' ? null : document.getElementById(PAGE_DATA_ELEMENT_ID)?.textContent;
    try {
      pageData = text ? JSON.parse(text) : undefined;
    } catch {
      pageData = undefined; // A damaged block costs the head start, nothing else: the API is asked.
    }
  }
  return pageData;
}

/** When the document's data was current: when the page started loading. */
export const PAGE_DATA_TIME = typeof performance === 'undefined' ? 0 : Math.round(performance.timeOrigin);
