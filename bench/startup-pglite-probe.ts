/**
 * One step of `npm run bench:startup`, in its own process so its memory is its own: PGlite in
 * `dataDir` created empty (PGlite's defaults), created with this app's migrations and demo data,
 * or reopened on them (both with the app's PGLITE_SHARED_BUFFERS). Prints {ms, rssMb} as one
 * JSON line.
 */
import { openPglite } from '#server/db/client.ts';
import { seedDemoData } from '#server/db/seed/seed.ts';
import { demoAccountsAllowed } from '#server/modules/accounts/demo-passwords.ts';
import { loadConfig } from '#server/config.ts';

const [dataDir, step] = process.argv.slice(2);
const config = loadConfig();
const started = Date.now();
// Created as PGlite creates by default; reopened with the shared buffers the app uses.
const handle = await openPglite({ dataDir, sharedBuffers: step === 'empty' ? undefined : config.pgliteSharedBuffers });
if (step === 'seeded') {
  await handle.migrate();
  await seedDemoData(handle.db, { now: new Date(), passwordHashCost: config.passwordHashCost, demoAccounts: demoAccountsAllowed(config.nodeEnv) });
}
if (step === 'reopen') await handle.ping();
const ms = Date.now() - started;
const rssMb = process.memoryUsage.rss() / 1024 / 1024;
await handle.close();
console.log(JSON.stringify({ ms, rssMb }));
