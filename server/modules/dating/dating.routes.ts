import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse, standardErrors } from '#common/contract/common.ts';
import {
  datingAnswerBody,
  datingDevMailboxQuery,
  datingMemberParams,
  datingPreferencesBody,
  datingReportBody,
  datingSuggestionsResponse,
  datingLoginBody,
  datingPresignBody,
  datingPresignResponse,
  datingProfile,
  datingSignupBody,
  datingSignupStarted,
  datingSignupVerifyBody,
} from '#common/contract/dating.ts';
import { devMailboxResponse } from '#common/contract/waitlist.ts';
import { DATING_PHOTO_MAX_BYTES } from '#common/domain/dating-profile.ts';
import { AppError } from '#server/errors.ts';
import { DATING_SESSION_COOKIE, datingSessionToken } from '#server/plugins/sessions.ts';
import { datingPushRoutes } from '#server/modules/notifications/push.routes.ts';
import { datePlansRoutes } from './date-plans.routes.ts';
import { LOCAL_UPLOAD_PATH } from './dating-uploads.ts';
import { datingCookieAccess, optionalDatingCookieAccess, publicAccess } from '#common/contract/openapi-security.ts';
import { notStored } from '#server/no-store.ts';

/** The browser's upload nonce: binds presigned photo keys to the browser that asked for them. */
export const DATING_UPLOAD_COOKIE = 'tf_dating_upload';
const UPLOAD_COOKIE_MAX_AGE = 24 * 3600;
const NONCE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const JSON_ONLY = 'Send the body as JSON (Content-Type: application/json)';

/** Cookie options: httpOnly, SameSite=Lax, only on /dating, Secure when the request came over HTTPS. */
function cookieOptions(request: FastifyRequest, maxAgeSeconds: number) {
  return { path: '/dating', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https', maxAge: maxAgeSeconds };
}

function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, ttlHours: number) {
  reply.setCookie(DATING_SESSION_COOKIE, token, cookieOptions(request, Math.round(ttlHours * 3600)));
}

/**
 * A member's photo as its bytes: its own type, never sniffed as another, and private to the
 * browser that asked (kept an hour for its owner; not kept at all for a moderator).
 */
export function sendDatingPhoto(
  reply: FastifyReply,
  image: { body: Buffer; contentType: string },
  cacheControl: 'private, max-age=3600' | 'private, no-store',
) {
  return reply.header('content-type', image.contentType).header('cache-control', cacheControl).header('x-content-type-options', 'nosniff').send(image.body);
}

/**
 * The dating section's HTTP surface under /dating: auth (signup, login, me, logout), photo
 * uploads (presign, local PUT) and photos. Sessions are cookies, so every state-changing
 * call takes JSON only: a form on another site cannot send JSON, and SameSite=Lax keeps the
 * cookie off cross-site POSTs anyway (decision 050).
 */
export const datingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { dating } = app.services;
  const { config } = app.deps;

  // Fastify parses text/plain by default; a cross-site form could send it. JSON only here.
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'POST') return;
    const type = request.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) throw new AppError('UNSUPPORTED_MEDIA', JSON_ONLY);
  });

  app.post(
    '/dating/auth/signup',
    {
      schema: {
        operationId: 'startDatingSignup',
        security: publicAccess,
        tags: ['dating'],
        summary:
          'Start a dating account (three photos uploaded from this browser): 202 and a 6-digit code by SMS, the same answer whether or not the phone has an account (decision 101)',
        body: datingSignupBody,
        response: { 202: datingSignupStarted, 413: errorResponse, 415: errorResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'signup' },
    },
    async (request, reply) => {
      const nonce = request.cookies[DATING_UPLOAD_COOKIE];
      const started = await dating.signUp(await request.principal(), request.body, nonce && NONCE_PATTERN.test(nonce) ? nonce : undefined, { ip: request.ip });
      return reply.code(202).send(started);
    },
  );

  app.post(
    '/dating/auth/signup/verify',
    {
      schema: {
        operationId: 'verifyDatingSignup',
        security: publicAccess,
        tags: ['dating'],
        summary: 'Finish a dating signup with the code sent to the phone, from the same browser: creates the account and signs in with a cookie',
        body: datingSignupVerifyBody,
        response: { 201: datingProfile, 415: errorResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'login' },
    },
    async (request, reply) => {
      const nonce = request.cookies[DATING_UPLOAD_COOKIE];
      const { profile, token } = await dating.verifySignup(await request.principal(), request.body, nonce && NONCE_PATTERN.test(nonce) ? nonce : undefined);
      setSessionCookie(request, reply, token, config.sessionTtlHours);
      return reply.code(201).send(profile);
    },
  );

  app.get(
    '/dating/dev/mailbox',
    {
      schema: {
        operationId: 'readDatingSignupMailbox',
        security: publicAccess,
        tags: ['dating'],
        summary: 'Demo only: the text a dating signup sent (its code), for whoever holds the signupId; 404 when the dev mailbox is off (production)',
        querystring: datingDevMailboxQuery,
        response: { 200: devMailboxResponse, ...standardErrors },
      },
    },
    async (request) => dating.devMailboxForSignup(await request.principal(), request.query.signup),
  );

  app.post(
    '/dating/auth/login',
    {
      schema: {
        operationId: 'logInDating',
        security: publicAccess,
        tags: ['dating'],
        summary: 'Sign a dating user in (sets the session cookie)',
        body: datingLoginBody,
        response: { 200: datingProfile, 415: errorResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'login' },
    },
    async (request, reply) => {
      const { profile, token } = await dating.logIn(await request.principal(), request.body, datingSessionToken(request));
      setSessionCookie(request, reply, token, config.sessionTtlHours);
      return profile;
    },
  );

  app.get(
    '/dating/auth/me',
    {
      schema: {
        operationId: 'getSignedInDatingUser',
        security: datingCookieAccess,
        tags: ['dating'],
        summary: 'The signed-in dating user (session cookie)',
        response: { 200: datingProfile, ...standardErrors },
      },
    },
    async (request, reply) => notStored(reply, await dating.getCurrentDatingUser(await request.principal())),
  );

  app.post(
    '/dating/auth/logout',
    {
      schema: {
        operationId: 'logOutDating',
        security: optionalDatingCookieAccess,
        tags: ['dating'],
        summary: 'End the dating session and clear its cookie',
        body: z.object({}).passthrough().optional(),
        response: { 204: z.null(), 415: errorResponse },
      },
    },
    async (request, reply) => {
      await dating.logOut(await request.principal(), datingSessionToken(request));
      reply.clearCookie(DATING_SESSION_COOKIE, { path: '/dating' });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/dating/uploads/presign',
    {
      schema: {
        operationId: 'presignDatingUploads',
        security: publicAccess,
        tags: ['dating'],
        summary: 'Upload URLs for dating photos, bound to this browser (a PUT of the raw image to each uploadUrl follows)',
        body: datingPresignBody,
        response: { 200: datingPresignResponse, 415: errorResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'upload' },
    },
    async (request, reply) => {
      let nonce = request.cookies[DATING_UPLOAD_COOKIE];
      if (!nonce || !NONCE_PATTERN.test(nonce)) nonce = randomBytes(32).toString('base64url');
      // Refreshed on every presign so a slow signup does not lose its binding.
      reply.setCookie(DATING_UPLOAD_COOKIE, nonce, cookieOptions(request, UPLOAD_COOKIE_MAX_AGE));
      return dating.presignPhotos(await request.principal(), request.body, nonce, { ip: request.ip });
    },
  );

  app.get(
    '/dating/photos/:photoId',
    {
      schema: {
        operationId: 'getDatingPhoto',
        security: datingCookieAccess,
        tags: ['dating'],
        summary: 'A dating photo, to its owner (session cookie)',
        params: z.object({ photoId: z.string().max(100) }),
        response: { 200: z.any(), ...standardErrors },
      },
    },
    async (request, reply) => sendDatingPhoto(reply, await dating.readPhoto(await request.principal(), request.params.photoId), 'private, max-age=3600'),
  );

  app.put(
    '/dating/me/preferences',
    {
      schema: {
        operationId: 'updateDatingPreferences',
        security: datingCookieAccess,
        tags: ['dating'],
        summary: 'Save what the member wants: age range, neighbourhoods (the first is home), free evenings, intent, interests and languages',
        body: datingPreferencesBody,
        response: { 200: datingProfile, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => {
      const principal = await request.principal();
      await dating.updatePreferences(principal, request.body);
      return dating.getCurrentDatingUser(principal);
    },
  );

  app.get(
    '/dating/suggestions',
    {
      schema: {
        operationId: 'listDatingSuggestions',
        security: datingCookieAccess,
        tags: ['dating'],
        summary: "Today's curated suggestions (at most DATING_SUGGESTIONS_PER_DAY, made on the first look of the day) and earlier mutual yeses",
        response: { 200: datingSuggestionsResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request, reply) => notStored(reply, await dating.listSuggestions(await request.principal())),
  );

  app.post(
    '/dating/suggestions/:memberId/answer',
    {
      schema: {
        operationId: 'answerDatingSuggestion',
        security: datingCookieAccess,
        tags: ['dating'],
        summary: "Answer a suggestion: 'YES' or 'NO' (Not for me); 404 for anyone not suggested to this member",
        params: datingMemberParams,
        body: datingAnswerBody,
        response: { 200: z.object({ isMatch: z.boolean() }), 415: errorResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request) => dating.answerSuggestion(await request.principal(), request.params.memberId, request.body.answer),
  );

  app.post(
    '/dating/suggestions/:memberId/block',
    {
      schema: {
        operationId: 'blockDatingMember',
        security: datingCookieAccess,
        tags: ['dating'],
        summary: 'Block a suggested member: the two never see each other again; 404 for anyone not suggested to this member',
        params: datingMemberParams,
        body: z.object({}).passthrough().optional(),
        response: { 204: z.null(), 415: errorResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request, reply) => {
      await dating.blockMember(await request.principal(), request.params.memberId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/dating/suggestions/:memberId/report',
    {
      schema: {
        operationId: 'reportDatingMember',
        security: datingCookieAccess,
        tags: ['dating'],
        summary:
          'Report a suggested member with a reason (also blocks them); 3 open reports hide a profile until reviewed; 404 for anyone not suggested to this member',
        params: datingMemberParams,
        body: datingReportBody,
        response: { 204: z.null(), 415: errorResponse, ...standardErrors },
      },
      config: { rateLimitGroup: 'booking' },
    },
    async (request, reply) => {
      await dating.reportMember(await request.principal(), request.params.memberId, request.body);
      return reply.code(204).send(null);
    },
  );

  // Date plans share this scope's JSON-only rule.
  await app.register(datePlansRoutes);
  await app.register(datingPushRoutes);

  // The local driver's upload target: raw bytes of any declared type (the bytes decide), up to 8 MB.
  await app.register(async (scope) => {
    const uploads = scope.withTypeProvider<ZodTypeProvider>();
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: DATING_PHOTO_MAX_BYTES }, (_request, body, done) => done(null, body));
    uploads.put(
      `${LOCAL_UPLOAD_PATH}/:photoId`,
      {
        bodyLimit: DATING_PHOTO_MAX_BYTES,
        schema: {
          operationId: 'putDatingPhoto',
          security: publicAccess,
          tags: ['dating'],
          summary: 'Store one presigned dating photo (local storage): the raw image bytes, JPEG/PNG/WebP, at most 8 MB',
          params: z.object({ photoId: z.string().max(100) }),
          querystring: z.object({ grant: z.string({ message: 'grant: the upload link is incomplete' }).max(2000) }),
          consumes: ['image/jpeg', 'image/png', 'image/webp'],
          response: { 204: z.null(), 413: errorResponse, 415: errorResponse, ...standardErrors },
        },
        config: { rateLimitGroup: 'upload' },
      },
      async (request, reply) => {
        const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        await dating.receiveUpload(await request.principal(), { photoId: request.params.photoId, grant: request.query.grant }, bytes, { ip: request.ip });
        return reply.code(204).send(null);
      },
    );
  });
};
