import type { z } from 'zod';
import type { envSchema } from './config.ts';

type ParsedEnv = z.infer<typeof envSchema>;

/**
 * A setting that is right on a laptop, in the tests or in a demo, and wrong with real people and
 * real money (decision 201): a production server refuses to start with it unless the environment
 * names it on purpose. One row per setting, so each refusal and its sentence live in one place.
 */
export interface ProductionRefusal {
  /** True when the environment asks for the unsafe setting without naming it on purpose. */
  applies(env: ParsedEnv): boolean;
  /** Why it is refused, and which variable to set instead or to allow it: the start-up message. */
  message: string;
}

export const PRODUCTION_REFUSALS: readonly ProductionRefusal[] = [
  {
    // The sandbox authorises any deposit with no card: in production only a demo may run on it.
    applies: (env) => env.PAYMENTS_DRIVER === 'sandbox' && !env.PAYMENTS_SANDBOX_DEMO,
    message:
      'PAYMENTS_DRIVER=sandbox (the default) approves any deposit without a card and is refused when NODE_ENV=production ' +
      '(set PAYMENTS_DRIVER=razorpay with its keys, or PAYMENTS_SANDBOX_DEMO=1 for a demo where no real money moves)',
  },
  {
    // Codes, reminders and offers reach no phone through log drivers: nobody could verify a phone (decision 214).
    applies: (env) => env.SMS_DRIVER === 'log' && env.WHATSAPP_DRIVER === 'log' && !env.TEXTS_LOG_DEMO,
    message:
      'SMS_DRIVER=log (the default) with WHATSAPP_DRIVER=log sends no text to any phone and is refused when NODE_ENV=production ' +
      '(set SMS_DRIVER=exotel with its EXOTEL_* settings, or WHATSAPP_DRIVER=cloud with its WHATSAPP_* settings, or TEXTS_LOG_DEMO=1 for a demo where no text reaches a phone)',
  },
  {
    // Push signs with a VAPID key pair; one made on a laptop would change with every new DATA_DIR (decision 212).
    applies: (env) =>
      (env.PUSH_DRIVER === 'webpush' || (env.PUSH_DRIVER === undefined && Boolean(env.VAPID_PUBLIC_KEY || env.VAPID_PRIVATE_KEY))) &&
      (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY || !env.VAPID_SUBJECT),
    message:
      'Web Push needs VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT when NODE_ENV=production ' +
      '(make a pair with `npx web-push generate-vapid-keys`, or set PUSH_DRIVER=off)',
  },
];

/** Throws, naming every refused setting, when NODE_ENV=production and a row of PRODUCTION_REFUSALS applies. */
export function refuseUnsafeProductionSettings(env: ParsedEnv): void {
  if (env.NODE_ENV !== 'production') return;
  const refused = PRODUCTION_REFUSALS.filter((refusal) => refusal.applies(env));
  if (refused.length > 0) throw new Error(`Invalid configuration: ${refused.map((refusal) => refusal.message).join('; ')}`);
}
