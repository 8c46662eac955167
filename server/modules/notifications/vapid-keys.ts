import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';
import type { AppConfig } from '#server/config.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * The VAPID key pair push is signed with (decision 212): the configured one; outside production,
 * when unset, one made once and kept in DATA_DIR/vapid-keys.json (owner-only), so browsers that
 * subscribed keep working across restarts; tests keep a fresh pair in memory. Null when push is off.
 */
export function resolveVapidKeys(config: AppConfig): VapidKeys | null {
  const push = config.notifications.push;
  if (push.driver === 'off') return null;
  if (push.vapid) return push.vapid;
  if (config.nodeEnv === 'production') return null;
  if (config.nodeEnv === 'test') return { ...webpush.generateVAPIDKeys(), subject: push.subject };
  const file = join(config.dataDir, 'vapid-keys.json');
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    return { publicKey: kept.publicKey, privateKey: kept.privateKey, subject: push.subject };
  }
  const made = webpush.generateVAPIDKeys();
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify(made), { mode: 0o600 });
  chmodSync(file, 0o600);
  return { ...made, subject: push.subject };
}
