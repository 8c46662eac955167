/**
 * Throwaway PostgreSQL 15 clusters from the machine's binaries: a primary and a streaming standby
 * with synchronous replication, each in its own folder under /tmp/drill-* on its own port. Used by
 * `npm run drill:failover` and by the multi-host connection test. PostgreSQL refuses to run as
 * root, so as root every command runs as the `postgres` user.
 */
import { execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** Where the PostgreSQL 15 binaries live (PG_BIN overrides). */
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const RUN_AS = process.getuid?.() === 0 ? 'postgres' : undefined;

export function postgresBinariesPresent(): boolean {
  return existsSync(join(PG_BIN, 'postgres')) && existsSync(join(PG_BIN, 'pg_basebackup'));
}

/** Runs a PostgreSQL binary (as `postgres` when we are root). */
async function pgCommand(binary: string, args: string[]): Promise<string> {
  const [command, fullArgs] = RUN_AS ? ['runuser', ['-u', RUN_AS, '--', join(PG_BIN, binary), ...args]] : [join(PG_BIN, binary), args];
  const { stdout } = await run(command, fullArgs, { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

export interface Node {
  name: string;
  port: number;
  dataDir: string;
  /** The postmaster's pid while it runs. */
  pid?: number;
  url(database?: string): string;
}

/** The superuser the clusters are made with (trust authentication on 127.0.0.1 only). */
const SUPERUSER = 'postgres';

function makeNode(name: string, root: string, port: number): Node {
  return { name, port, dataDir: join(root, name), url: (database = 'postgres') => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}` };
}

export interface ReplicatedPair {
  root: string;
  primary: Node;
  standby: Node;
  /** Stops whatever still runs and deletes the folders. */
  destroy(): Promise<void>;
}

async function waitUntilAccepting(node: Node, hasExited: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (hasExited()) throw new Error(`${node.name} on port ${node.port} exited while starting`);
    const client = new pg.Client({ connectionString: node.url(), connectionTimeoutMillis: 1000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`${node.name} on port ${node.port} did not start: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Starts a node's postmaster in the background; `settings` become -c options (kept off disk so a copy does not inherit them). */
export async function startNode(node: Node, settings: Record<string, string> = {}): Promise<void> {
  const args = ['-D', node.dataDir, '-p', String(node.port), '-k', node.dataDir, '-c', 'listen_addresses=127.0.0.1'];
  for (const [key, value] of Object.entries(settings)) args.push('-c', `${key}=${value}`);
  const [command, fullArgs] = RUN_AS ? ['runuser', ['-u', RUN_AS, '--', join(PG_BIN, 'postgres'), ...args]] : [join(PG_BIN, 'postgres'), args];
  const child = spawn(command, fullArgs, { stdio: ['ignore', 'ignore', 'pipe'], detached: false });
  let log = '';
  let exited = false;
  child.on('exit', () => (exited = true));
  child.stderr.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  try {
    await waitUntilAccepting(node, () => exited);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${log}`);
  }
  // The postmaster's own pid (runuser forks it as a child): read from postmaster.pid.
  const { stdout } = await run('head', ['-1', join(node.dataDir, 'postmaster.pid')]);
  node.pid = Number(stdout.trim());
}

/**
 * SIGKILL to the postmaster and every backend it started, as a power cut would: killing the
 * postmaster alone leaves its backends finishing (and even committing) what they were doing.
 */
export async function killNode(node: Node): Promise<void> {
  if (!node.pid) return;
  const postmaster = node.pid;
  const children = (await run('ps', ['-o', 'pid=', '--ppid', String(postmaster)]).catch(() => ({ stdout: '' }))).stdout
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
  for (const pid of [postmaster, ...children]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  node.pid = undefined;
}

export async function stopNode(node: Node): Promise<void> {
  if (!node.pid) return;
  await pgCommand('pg_ctl', ['-D', node.dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => {});
  node.pid = undefined;
}

export async function promote(node: Node): Promise<void> {
  await pgCommand('pg_ctl', ['-D', node.dataDir, '-w', 'promote']);
}

/** The settings each side runs with: the primary waits for the standby to flush every commit. */
export const PRIMARY_SETTINGS = {
  wal_level: 'replica',
  max_wal_senders: '5',
  synchronous_standby_names: 'standby',
  synchronous_commit: 'on',
  max_connections: '200',
  fsync: 'on',
};
/** After promotion the standby is alone: it must not wait for a standby of its own. */
export const STANDBY_SETTINGS = { hot_standby: 'on', max_connections: '200', synchronous_standby_names: '' };

/**
 * A primary on `ports[0]` and a synchronous streaming standby (application_name `standby`) on
 * `ports[1]`, both running, in a fresh /tmp/drill-* folder.
 */
export async function createReplicatedPair(ports: [number, number]): Promise<ReplicatedPair> {
  const root = mkdtempSync('/tmp/drill-');
  if (RUN_AS) {
    const { uid, gid } = await userIds(RUN_AS);
    chownSync(root, uid, gid);
  }
  const primary = makeNode('primary', root, ports[0]);
  const standby = makeNode('standby', root, ports[1]);
  const pair: ReplicatedPair = {
    root,
    primary,
    standby,
    async destroy() {
      for (const node of [primary, standby]) await killNode(node);
      await new Promise((resolve) => setTimeout(resolve, 300));
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await pgCommand('initdb', ['-D', primary.dataDir, '-U', SUPERUSER, '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
    writeFileSync(join(primary.dataDir, 'pg_hba.conf'), 'host all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\nlocal all all trust\n');
    await startNode(primary, PRIMARY_SETTINGS);
    await pgCommand('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      SUPERUSER,
      '-D',
      standby.dataDir,
      '-X',
      'stream',
      '-R',
      '--no-sync',
    ]);
    // -R wrote primary_conninfo; name the standby so synchronous_standby_names matches it.
    writeFileSync(
      join(standby.dataDir, 'postgresql.auto.conf'),
      `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=${SUPERUSER} application_name=standby'\n`,
    );
    if (RUN_AS) await run('chown', [`${RUN_AS}:`, join(standby.dataDir, 'postgresql.auto.conf')]);
    await startNode(standby, STANDBY_SETTINGS);
    await waitForSyncStandby(primary);
    return pair;
  } catch (error) {
    await pair.destroy();
    throw error;
  }
}

async function waitForSyncStandby(primary: Node, timeoutMs = 30_000): Promise<void> {
  const client = new pg.Client({ connectionString: primary.url() });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query<{ sync_state: string }>("SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'");
      if (rows[0]?.sync_state === 'sync') return;
      if (Date.now() > deadline) throw new Error('the standby never became synchronous');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await client.end();
  }
}

async function userIds(name: string): Promise<{ uid: number; gid: number }> {
  const uid = Number((await run('id', ['-u', name])).stdout.trim());
  const gid = Number((await run('id', ['-g', name])).stdout.trim());
  return { uid, gid };
}

/** Who runs the clusters, for the drill's header. */
export function clusterUser(): string {
  return RUN_AS ?? userInfo().username;
}

/** Every process below `root` (children, grandchildren…), from `ps`. */
async function descendantsOf(root: number): Promise<number[]> {
  const { stdout } = await run('ps', ['-eo', 'pid=,ppid=']);
  const children = new Map<number, number[]>();
  for (const line of stdout.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid && ppid) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

/** SIGKILL to a process and everything it started: a machine lost, keeper included. */
export async function killTree(root: number): Promise<void> {
  for (const pid of [root, ...(await descendantsOf(root))]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export const PG_AUTOCTL = process.env.PG_AUTOCTL ?? '/usr/bin/pg_autoctl';

export function pgAutoFailoverPresent(): boolean {
  return existsSync(PG_AUTOCTL);
}

export interface AutoFailoverFormation {
  root: string;
  /** The formation's multi-host URL, as `pg_autoctl show uri` prints it. */
  url: string;
  /** The keeper process of each data node (runuser's pid; its tree holds the keeper and PostgreSQL). */
  nodes: { name: string; port: number; keeper: ReturnType<typeof spawn> }[];
  /** The node that is primary now, from the monitor. */
  primaryPort(): Promise<number | undefined>;
  destroy(): Promise<void>;
}

/**
 * A pg_auto_failover formation: a monitor on `ports[0]` and two data nodes on `ports[1]` and
 * `ports[2]`, each keeper running in the foreground (`--run`), in a fresh /tmp/drill-* folder.
 * The monitor promotes the secondary by itself when the primary's node stops answering.
 */
export async function createAutoFailoverFormation(ports: [number, number, number], database: string): Promise<AutoFailoverFormation> {
  const root = mkdtempSync('/tmp/drill-');
  if (RUN_AS) {
    const { uid, gid } = await userIds(RUN_AS);
    chownSync(root, uid, gid);
  }
  const env = { ...process.env, XDG_CONFIG_HOME: join(root, 'config'), XDG_DATA_HOME: join(root, 'data') };
  const keepers: ReturnType<typeof spawn>[] = [];
  const autoctl = (args: string[], background: boolean) => {
    const [command, fullArgs] = RUN_AS
      ? ['runuser', ['-u', RUN_AS, '--', 'env', `XDG_CONFIG_HOME=${env.XDG_CONFIG_HOME}`, `XDG_DATA_HOME=${env.XDG_DATA_HOME}`, PG_AUTOCTL, ...args]]
      : [PG_AUTOCTL, args];
    if (!background) return run(command, fullArgs, { env, maxBuffer: 4 * 1024 * 1024 }).then((result) => result.stdout);
    const child = spawn(command, fullArgs, { env, stdio: 'ignore' });
    keepers.push(child);
    return child;
  };
  const common = ['--pgctl', join(PG_BIN, 'pg_ctl'), '--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl'];
  const monitorUrl = `postgres://autoctl_node@127.0.0.1:${ports[0]}/pg_auto_failover?sslmode=disable`;
  const formation: AutoFailoverFormation = {
    root,
    url: '',
    nodes: [],
    async primaryPort() {
      const client = new pg.Client({ connectionString: monitorUrl, connectionTimeoutMillis: 2000 });
      client.on('error', () => {});
      try {
        await client.connect();
        const { rows } = await client.query<{ nodeport: number }>(
          "SELECT nodeport FROM pgautofailover.node WHERE reportedstate IN ('primary', 'wait_primary', 'single') AND goalstate = reportedstate",
        );
        return rows[0]?.nodeport;
      } catch {
        return undefined;
      } finally {
        await client.end().catch(() => {});
      }
    },
    async destroy() {
      for (const keeper of keepers) if (keeper.pid) await killTree(keeper.pid);
      await new Promise((resolve) => setTimeout(resolve, 500));
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    autoctl(['create', 'monitor', ...common, '--pgdata', join(root, 'monitor'), '--pgport', String(ports[0]), '--run'], true);
    await waitFor(async () => (await formation.primaryPort().then(() => true)) && (await canConnect(monitorUrl)), 60_000, 'the monitor');
    for (const [index, port] of [ports[1], ports[2]].entries()) {
      const name = `node${index + 1}`;
      const keeper = autoctl(
        ['create', 'postgres', ...common, '--pgdata', join(root, name), '--pgport', String(port), '--dbname', database, '--monitor', monitorUrl, '--run'],
        true,
      ) as ReturnType<typeof spawn>;
      formation.nodes.push({ name, port, keeper });
      if (index === 0) await waitFor(async () => (await formation.primaryPort()) === port, 90_000, 'the first node to become primary');
    }
    // pg_basebackup inside the keeper waits for a spread checkpoint; ask for it now instead of in minutes.
    const checkpointer = setInterval(() => {
      const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${ports[1]}/${database}` });
      client.on('error', () => {});
      void client
        .connect()
        .then(() => client.query('CHECKPOINT'))
        .catch(() => {})
        .finally(() => void client.end().catch(() => {}));
    }, 3000);
    try {
      await waitFor(
        async () => {
          const client = new pg.Client({ connectionString: monitorUrl, connectionTimeoutMillis: 2000 });
          client.on('error', () => {});
          try {
            await client.connect();
            const { rows } = await client.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pgautofailover.node WHERE (reportedstate = 'primary' AND goalstate = 'primary') OR (reportedstate = 'secondary' AND goalstate = 'secondary')",
            );
            return rows[0]?.n === 2;
          } catch {
            return false;
          } finally {
            await client.end().catch(() => {});
          }
        },
        180_000,
        'the secondary to catch up',
      );
    } finally {
      clearInterval(checkpointer);
    }
    formation.url = (await autoctl(['show', 'uri', '--formation', 'default', '--pgdata', join(root, 'monitor')], false)) as string;
    // With --formation it prints the formation's URI alone.
    formation.url = /postgres:\/\/\S+/.exec(formation.url)?.[0] ?? '';
    if (!formation.url) throw new Error('pg_autoctl show uri printed no formation URL');
    // The app connects as postgres (trust on 127.0.0.1); the URL pg_autoctl prints names no user.
    formation.url = formation.url.replace('postgres://', 'postgres://postgres@').replace(/sslmode=\w+/, 'sslmode=disable');
    return formation;
  } catch (error) {
    await formation.destroy();
    throw error;
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
