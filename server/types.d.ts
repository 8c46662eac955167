import type { Principal } from './modules/accounts/principal.ts';
import type { AppServices, ModuleWiring } from './composition.ts';
import type { AppDeps } from './deps.ts';

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
    /** The listeners, move steps and background jobs server/composition.ts connected. */
    wiring: ModuleWiring;
    deps: AppDeps;
    resolvePrincipal(request: FastifyRequest): Promise<Principal>;
  }
  interface FastifyRequest {
    /** Who is calling; resolved on first use and cached for the request. */
    principal(): Promise<Principal>;
  }
  interface FastifyContextConfig {
    /** Answer with an ETag and honour If-None-Match. */
    etag?: boolean;
    /** With etag: the answer is the same for every caller; keep it built for at most this many seconds (decision 075). */
    sharedAnswerSeconds?: number;
    /** Which rate-limit budget the route spends (login, signup, booking; phone: codes, per caller and IP). */
    rateLimitGroup?: 'login' | 'signup' | 'booking' | 'upload' | 'phone' | 'reset';
  }
}
