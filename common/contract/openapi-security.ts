/**
 * Who may call an operation, as the OpenAPI document says it (`security` on every route).
 * The schemes are declared in server/plugins/openapi.ts; the services check access themselves.
 */
/** Anyone, signed in or not. */
export const publicAccess: Array<Record<string, string[]>> = [];
/** A diner's, restaurant staff's or moderator's bearer token from the login calls. */
export const bearerAccess: Array<Record<string, string[]>> = [{ bearer: [] }];
/** Works without credentials; a bearer token sent is checked (the hold screen, a drop's page, logout). */
export const optionalBearerAccess: Array<Record<string, string[]>> = [{}, { bearer: [] }];
/** The dating session cookie set by the dating sign-in. */
export const datingCookieAccess: Array<Record<string, string[]>> = [{ datingSession: [] }];
/** Works without credentials; a dating cookie sent is used (dating logout). */
export const optionalDatingCookieAccess: Array<Record<string, string[]>> = [{}, { datingSession: [] }];
