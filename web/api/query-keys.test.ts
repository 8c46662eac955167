import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { accountKeys } from '#web/features/accounts/keys.ts';
import { datingKeys } from '#web/features/dating/keys.ts';
import { discoveryKeys } from '#web/features/discovery/keys.ts';
import { dropKeys } from '#web/features/drops/keys.ts';
import { moderationKeys } from '#web/features/moderation/keys.ts';
import { reminderKeys } from '#web/features/reminders/keys.ts';
import { reservationKeys } from '#web/features/reservations/keys.ts';
import { restaurantKeys } from '#web/features/restaurants/keys.ts';
import { waitlistKeys } from '#web/features/waitlist/keys.ts';

const webRoot = fileURLToPath(new URL('..', import.meta.url));

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listSources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [relative(webRoot, path).split(sep).join('/')] : [];
  });
}

describe('query keys come from the features’ key factories', () => {
  it('writes no query key by hand outside a factory', () => {
    const handWritten = listSources(webRoot)
      .filter((file) => !file.endsWith('/keys.ts'))
      .flatMap((file) =>
        readFileSync(join(webRoot, file), 'utf8')
          .split('\n')
          .map((line, index) => ({ file, line, index })),
      )
      .filter(({ line }) => /queryKey:\s*\[|queryKey\[0\]\s*[!=]==?\s*'/.test(line))
      .map(({ file, index, line }) => `${file}:${index + 1}: ${line.trim()}`);
    expect(handWritten).toEqual([]);
  });

  it('nests every key under its feature’s root, so one invalidation reaches all of it', () => {
    expect(reservationKeys.one('r1').slice(0, 1)).toEqual(reservationKeys.all);
    expect(reminderKeys.link('t1').slice(0, 1)).toEqual(reminderKeys.all);
    expect(restaurantKeys.availability('toit', '2026-11-24', 2).slice(0, 1)).toEqual(restaurantKeys.all);
    expect(restaurantKeys.today(null, 6).slice(0, 1)).toEqual(restaurantKeys.all);
    expect(discoveryKeys.restaurants.slice(0, 1)).toEqual(restaurantKeys.all);
    expect(dropKeys.detail('d1', true).slice(0, 3)).toEqual(dropKeys.one('d1'));
    expect(waitlistKeys.mine.slice(0, 1)).toEqual(waitlistKeys.all);
    expect(accountKeys.phone.slice(0, 1)).toEqual(accountKeys.all);
    expect(datingKeys.me.slice(0, 1)).toEqual(datingKeys.all);
    expect(moderationKeys.reports('OPEN').slice(0, 1)).toEqual(moderationKeys.all);
  });
});
