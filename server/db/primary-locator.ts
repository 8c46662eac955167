import pg from 'pg';

/** One host of a libpq-style host list. */
export interface HostAddress {
  host: string;
  port: number;
}

/** A DATABASE_URL naming several hosts, split into the hosts and everything else. */
export interface MultiHostUrl {
  hosts: HostAddress[];
  /** Only a writable primary will do (`target_session_attrs=read-write`, or `primary`). */
  readWrite: boolean;
  /** The same URL naming one host, with the parameters node-postgres does not know removed. */
  urlFor(address: HostAddress): string;
}

const URL_SHAPE = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(.*)$/i;

/**
 * Splits `postgres://user:pass@h1:5432,h2:5433/db?target_session_attrs=read-write` as libpq reads it.
 * node-postgres reads only the first host and ignores target_session_attrs, so the app does this itself.
 */
export function parseMultiHostUrl(url: string): MultiHostUrl {
  const match = URL_SHAPE.exec(url);
  if (!match) throw new Error('Invalid configuration: DATABASE_URL is not a postgres:// URL');
  const [, scheme, credentials, hostList, rest] = match;
  const hosts = hostList.split(',').map((entry): HostAddress => {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) return { host: bracketed[1], port: Number(bracketed[2] ?? 5432) };
    const [host, port] = entry.split(':');
    return { host: host || 'localhost', port: Number(port || 5432) };
  });
  const queryAt = rest.indexOf('?');
  const path = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const params = new URLSearchParams(queryAt === -1 ? '' : rest.slice(queryAt + 1));
  const attrs = (params.get('target_session_attrs') ?? 'any').toLowerCase();
  params.delete('target_session_attrs');
  const query = params.toString();
  return {
    hosts,
    readWrite: attrs === 'read-write' || attrs === 'primary',
    urlFor: ({ host, port }) =>
      `${scheme}${credentials !== undefined ? `${credentials}@` : ''}${host.includes(':') ? `[${host}]` : host}:${port}${path}${query ? `?${query}` : ''}`,
  };
}

/** Raised when no listed host is a writable primary; the error handler answers it 503 (class 08: connection exception). */
export class NoPrimaryError extends Error {
  readonly code = '08001';
  constructor(tried: string) {
    super(`No writable PostgreSQL primary among ${tried}`);
  }
}

/**
 * Knows which host of the list is the writable primary and finds it again when told the one it
 * knew failed (a refused connection, a connection cut, a read-only answer after a failover).
 * Probing connects to every host at once, asks `SHOW transaction_read_only` as libpq does, and
 * takes the first writable one in list order; until one answers, it probes again every
 * `retryMs`. Connections are made only to `current`, so the pool never reaches a standby.
 */
export class PrimaryLocator {
  private currentIndex = 0;
  private finding: Promise<HostAddress> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private everFound = false;
  /** Failovers seen: how many times the primary moved to another host. */
  moves = 0;

  constructor(
    readonly url: MultiHostUrl,
    private readonly options: { connectTimeoutMs: number; retryMs?: number; onMove?: (from: HostAddress, to: HostAddress) => void } = {
      connectTimeoutMs: 3000,
    },
  ) {}

  get current(): HostAddress {
    return this.url.hosts[this.currentIndex];
  }

  /** Connection settings for the host believed to be the primary now. */
  connectionFor(): pg.ClientConfig {
    return { connectionString: this.url.urlFor(this.current) };
  }

  /** Finds the primary now (callers wait for it); concurrent calls share one probe. */
  find(): Promise<HostAddress> {
    this.finding ??= this.probeAll().finally(() => {
      this.finding = undefined;
    });
    return this.finding;
  }

  /** The host in use failed: look again in the background, and keep looking until a primary answers. */
  suspect(): void {
    if (this.closed || this.finding || this.retryTimer) return;
    this.find().catch(() => {
      if (this.closed) return;
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.suspect();
      }, this.options.retryMs ?? 500);
      this.retryTimer.unref();
    });
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
  }

  private async probeAll(): Promise<HostAddress> {
    const answers = await Promise.all(this.url.hosts.map((address) => this.isWritable(address)));
    const index = this.url.readWrite ? answers.findIndex((writable) => writable === true) : answers.findIndex((writable) => writable !== null);
    if (index === -1) throw new NoPrimaryError(this.url.hosts.map(({ host, port }) => `${host}:${port}`).join(', '));
    // The first answer is where the primary is, not a move.
    if (index !== this.currentIndex && this.everFound) {
      const from = this.url.hosts[this.currentIndex];
      this.currentIndex = index;
      this.moves += 1;
      this.options.onMove?.(from, this.current);
    }
    this.currentIndex = index;
    this.everFound = true;
    return this.current;
  }

  /** true when the host accepts writes, false when it is read-only (a standby), null when it does not answer. */
  private async isWritable(address: HostAddress): Promise<boolean | null> {
    const client = new pg.Client({ connectionString: this.url.urlFor(address), connectionTimeoutMillis: this.options.connectTimeoutMs });
    client.on('error', () => {});
    try {
      await client.connect();
      const { rows } = await client.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
      return rows[0]?.transaction_read_only === 'off';
    } catch {
      return null;
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/**
 * A node-postgres Client class that connects to the locator's current primary and tells the
 * locator when that host fails, so the pool's next connections go to the new primary.
 */
export function clientClassFor(locator: PrimaryLocator, connectTimeoutMs: number): typeof pg.Client {
  return class PrimaryClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, ...locator.connectionFor(), connectionTimeoutMillis: connectTimeoutMs });
      this.on('error', () => locator.suspect());
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: (error: Error) => void): void;
    override connect(callback?: (error: Error) => void): Promise<pg.Client> | void {
      const connecting = super.connect().catch((error: unknown) => {
        locator.suspect();
        throw error;
      });
      if (!callback) return connecting;
      connecting.then(() => callback(null as unknown as Error), callback);
    }
  };
}

/**
 * A Client whose connection attempt gives up after `connectTimeoutMs` (a host that does not answer
 * fails the request with 503 instead of holding it). Set on the Client, not the pool: the pool's
 * own `connectionTimeoutMillis` would also cap the wait for a free connection, turning an
 * ordinary queue under load (a drop) into 503s.
 */
export function clientWithConnectTimeout(connectTimeoutMs: number): typeof pg.Client {
  return class TimedClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
    }
  };
}
