import { mkdirSync } from "node:fs";
import path from "node:path";
import { loadPGlite, migrateDatabase, pgliteExtensions } from "@db/migrate";
import { PrismaPg } from "@prisma/adapter-pg";
import { Client, Pool } from "pg";
import { type Prisma, PrismaClient } from "./generated/prisma/client";
import { logger } from "./logger";
import { withTimeout } from "./timeout";

/** A SQL statement that is prepared once per connection, under a name unique to its text. */
export interface PreparedStatement {
  name: string;
  text: string;
}

/** The portal's database: a Prisma client plus the few things Prisma does not do. */
export interface Db {
  prisma: PrismaClient;
  /**
   * Runs a prepared statement and answers its rows as the driver gives them (timestamptz as Date,
   * enums as strings). For the few hot paths where Prisma's own work per query is most of the cost
   * (the signed-in user of every request); everything else goes through `prisma`.
   * @throws the driver's error.
   */
  queryRows<T>(statement: PreparedStatement, values: readonly unknown[]): Promise<T[]>;
  /** "postgres" for a PostgreSQL server, "embedded" for PGlite in the data directory */
  mode: "postgres" | "embedded";
  /**
   * Calls `onNotify` for every NOTIFY on `channel` (delivered when the notifying transaction
   * commits). Returns a function that stops listening.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Resolves when the database answers `select 1` within `timeoutMs` (default 2000). */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** The client handed to a `prisma.$transaction(async (tx) => ...)` callback. */
export type Tx = Prisma.TransactionClient;

const POOL_MAX = 10;
const CONNECT_TIMEOUT_MS = 5000;
const IDLE_TIMEOUT_MS = 30_000;
const STATEMENT_TIMEOUT_MS = 15_000;
const LISTEN_BACKOFF_MIN_MS = 100;
const LISTEN_BACKOFF_MAX_MS = 5000;

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * One dedicated connection for LISTEN: reconnects with backoff when it drops and LISTENs again on
 * every channel that still has subscribers.
 */
class PgListener {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private readonly subscribers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;
  private backoffMs = LISTEN_BACKOFF_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly log = logger("db.listen");

  constructor(private readonly url: string) {}

  async subscribe(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    if (this.closed) throw new Error("The database is closed");
    let set = this.subscribers.get(channel);
    const first = set === undefined;
    if (!set) {
      set = new Set();
      this.subscribers.set(channel, set);
    }
    set.add(onNotify);
    if (first) {
      const client = await this.connected();
      // connected() LISTENs on every known channel when it opens a new connection; a channel added
      // to an open connection needs its own LISTEN (repeating one is harmless).
      await client.query(`LISTEN ${quoteIdent(channel)}`);
    } else {
      await this.connected();
    }
    return async () => {
      const current = this.subscribers.get(channel);
      if (!current?.delete(onNotify) || current.size > 0) return;
      this.subscribers.delete(channel);
      if (this.client) await this.client.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => undefined);
    };
  }

  private connected(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<Client> {
    const client = new Client({ connectionString: this.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    client.on("error", (err) => this.log.warn({ err }, "listen connection error"));
    client.on("notification", (msg) => {
      const handlers = this.subscribers.get(msg.channel);
      if (!handlers) return;
      for (const handler of handlers) {
        try {
          handler(msg.payload ?? "");
        } catch (err) {
          this.log.error({ err, channel: msg.channel }, "NOTIFY handler failed");
        }
      }
    });
    client.on("end", () => {
      if (this.client !== client) return;
      this.client = undefined;
      if (!this.closed) this.scheduleReconnect();
    });
    await client.connect();
    for (const channel of this.subscribers.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
    if (this.closed) {
      await client.end();
      throw new Error("The database is closed");
    }
    this.client = client;
    this.backoffMs = LISTEN_BACKOFF_MIN_MS;
    return client;
  }

  private scheduleReconnect(): void {
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, LISTEN_BACKOFF_MAX_MS);
    this.log.warn({ delayMs: delay }, "listen connection lost; reconnecting");
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.closed || this.subscribers.size === 0) return;
      this.connected().catch((err: unknown) => {
        this.log.warn({ err }, "listen reconnect failed");
        if (!this.closed) this.scheduleReconnect();
      });
    }, delay);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.subscribers.clear();
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => undefined);
  }
}

/**
 * Connects to PostgreSQL: a pg pool (10 connections, 5 s connect, 30 s idle, 15 s statement timeout)
 * under a Prisma client, and a dedicated LISTEN connection opened on first use.
 * @throws when the server does not answer or refuses the connection.
 */
export async function connectPostgres(url: string): Promise<Db> {
  const log = logger("db");
  const pool = new Pool({
    connectionString: url,
    max: POOL_MAX,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
  });
  // An idle client that loses its server emits 'error' on the pool; without a handler it would
  // crash the process. The pool drops that client and makes a new one on the next query.
  // (its message only: the error holds the whole pg client, connection parameters included)
  pool.on("error", (err) => log.error({ err: { message: err.message } }, "idle database connection failed"));
  try {
    await withTimeout(pool.query("select 1"), CONNECT_TIMEOUT_MS + 1000, "PostgreSQL");
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const listener = new PgListener(url);
  let closed = false;
  return {
    prisma,
    mode: "postgres",
    async queryRows<T>(statement: PreparedStatement, values: readonly unknown[]) {
      const result = await pool.query({ name: statement.name, text: statement.text, values: [...values] });
      return result.rows as T[];
    },
    listen: (channel, onNotify) => listener.subscribe(channel, onNotify),
    async ping(timeoutMs = 2000) {
      await withTimeout(pool.query("select 1"), timeoutMs, "PostgreSQL");
    },
    async close() {
      if (closed) return;
      closed = true;
      await listener.close();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/**
 * Opens the embedded database (PGlite) stored in `${dataDir}/pglite`, creating and migrating it.
 * PGlite is one connection in this process: only one process may open a data directory at a time.
 * @throws when the directory cannot be created or a migration fails.
 */
export async function openEmbedded(dataDir: string): Promise<Db> {
  const dir = path.join(path.resolve(dataDir), "pglite");
  mkdirSync(dir, { recursive: true });
  // PGlite (WebAssembly) and its Prisma adapter load only here: a process on a PostgreSQL server
  // never needs them
  // (the adapter's type as a static import sees it, as for loadPGlite)
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([
    loadPGlite(),
    import("pglite-prisma-adapter") as unknown as Promise<typeof import("pglite-prisma-adapter")>,
  ]);
  const pglite = await PGlite.create(dir, { extensions: await pgliteExtensions() });
  try {
    await migrateDatabase({ pglite });
  } catch (err) {
    await pglite.close();
    throw err;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  let closed = false;
  return {
    prisma,
    mode: "embedded",
    async queryRows<T>(statement: PreparedStatement, values: readonly unknown[]) {
      return (await pglite.query<T>(statement.text, [...values])).rows;
    },
    async listen(channel, onNotify) {
      const unlisten = await pglite.listen(channel, onNotify);
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    async ping(timeoutMs = 2000) {
      await withTimeout(pglite.query("select 1"), timeoutMs, "The embedded database");
    },
    async close() {
      if (closed) return;
      closed = true;
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
