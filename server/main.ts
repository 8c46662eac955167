import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { lockDataDir, restrictDataDir } from './data-dir-lock.ts';
import { openDatabase } from './db/client.ts';
import { asyncStdoutLog } from './logging.ts';
import { seedDemoData } from './db/seed/seed.ts';
import { demoAccountsAllowed } from './modules/accounts/demo-passwords.ts';

/** Starts the server: migrate, seed when asked, listen, and drain cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  // What the app writes (database files, uploads) is readable by its own user only: files 0600, folders 0700.
  process.umask(0o077);
  // The embedded database is one process's: a second server on the same DATA_DIR refuses to start.
  const lock = config.databaseUrl ? null : lockDataDir(config.dataDir);
  const database = await openDatabase(config);
  await database.migrate();
  if (config.seedDemo) {
    const demoAccounts = demoAccountsAllowed(config.nodeEnv);
    const seeded = await seedDemoData(database.db, { now: new Date(), passwordHashCost: config.passwordHashCost, demoAccounts });
    console.log(
      `Demo data ready: ${seeded.restaurants} restaurants, ${seeded.slotsAdded} new slots${demoAccounts ? '' : ' (no demo accounts: their passwords are published)'}.`,
    );
  }
  if (lock) restrictDataDir(config.dataDir);
  // Log lines leave through an asynchronous destination, flushed before every exit below (decision 270).
  const log = asyncStdoutLog();
  const app = await buildApp({ config, database, logDestination: log.destination });
  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host === '0.0.0.0' ? 'localhost' : config.host;
  if (app.metricsListener) {
    await app.metricsListener.listen({ port: config.metrics.port, host: config.metrics.host });
    console.log(`Metrics are served on http://${config.metrics.host}:${config.metrics.port}/metrics`);
  }
  console.log(`Tablefair is serving http://${shownHost}:${config.port} (${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'})`);
  // Links in emails and texts start with PUBLIC_URL; its default only makes sense on the machine itself.
  if (config.nodeEnv === 'production' && !process.env.PUBLIC_URL) {
    app.log.warn({ publicUrl: config.publicUrl }, 'PUBLIC_URL is not set: links in emails and texts point at this default');
  }
  // Only PAYMENTS_SANDBOX_DEMO=1 lets production start on the sandbox (decision 201): say so at every start.
  if (config.nodeEnv === 'production' && config.payments.driver === 'sandbox') {
    app.log.warn('payments run on the built-in sandbox (PAYMENTS_SANDBOX_DEMO=1): deposits are approved without a card and no real money moves');
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // Readiness goes false first, so the balancer stops sending before connections drain.
    app.markShuttingDown();
    app.log.info({ signal }, 'shutting down: not ready, then draining requests');
    if (config.shutdownReadinessDelaySeconds > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownReadinessDelaySeconds * 1000));
    // Requests in flight get SHUTDOWN_GRACE_SECONDS to finish; connections still open after that
    // (idle keep-alive clients, stalled uploads) are cut so the process always stops.
    const deadline = setTimeout(() => {
      app.log.warn('grace period over: closing the remaining connections');
      app.server.closeAllConnections();
    }, config.shutdownGraceSeconds * 1000);
    deadline.unref();
    try {
      await app.close();
      await database.close();
      lock?.release();
      app.log.info({ signal }, 'stopped');
      await log.end();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      await log.end();
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  console.error('Tablefair could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
