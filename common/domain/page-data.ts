/**
 * The <script type="application/json"> element in which the server hands a page the data of
 * its first screen (decision 078). Here, not in a contract module, so the web bundle can import
 * it without Zod.
 */
export const PAGE_DATA_ELEMENT_ID = 'tablefair-page-data';
