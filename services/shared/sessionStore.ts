import { RedisStore } from "connect-redis";
import type { Request } from "express";
import session, { type SessionData, type Store } from "express-session";
import { logger } from "./logger";
import type { RedisClient } from "./redis";

// Where sessions live, and how the 30-minute idle rule is kept: by the store, on the server. The
// cookie is set once, when a session is granted (or changed), and lives as long as the session's
// absolute lifetime; it is not signed and sent again on every answer. Every request that is activity
// renews the stored session's idle expiry; the session check is not activity and renews nothing.

/** Idle lifetime of a stored session, in seconds (30 minutes, spec §9). */
export const SESSION_IDLE_SECONDS = 30 * 60;

const NOT_ACTIVITY = Symbol("portal.sessionNotActivity");

/**
 * Marks the request's session as read without activity (the session check): its idle expiry is
 * not renewed when the request ends. The mark is not stored and does not modify the session.
 */
export function markNotActivity(sess: session.Session): void {
  Object.defineProperty(sess, NOT_ACTIVITY, { value: true, enumerable: false });
}

function isActivity(sess: SessionData): boolean {
  return !Object.hasOwn(sess, NOT_ACTIVITY);
}

const STORED = Symbol("portal.sessionStored");

/** Marks a session object as one the store holds (read from it, or written to it). Not stored. */
function markStored(sess: object): void {
  if (!Object.hasOwn(sess, STORED)) Object.defineProperty(sess, STORED, { value: true, enumerable: false });
}

/** A session store that can tell how long a session has left before it idles out. */
export interface PortalSessionStore extends Store {
  /** Milliseconds until the session `sid` idles out, or null when there is no such session. */
  remainingMs(sid: string): Promise<number | null>;
}

const log = () => logger("session");

type Stamped = SessionData & { deployment?: string };

/**
 * Sessions in Redis (connect-redis): each key expires after {@link SESSION_IDLE_SECONDS}; a request
 * that is activity renews the expiry (EXPIRE) once its answer is on its way, without holding the
 * answer back for it. With a deployment id, each record carries it, and a record of another
 * deployment (two portals configured with one REDIS_PREFIX on one Redis, or a cookie carried from one
 * portal to another) or of none is no session here.
 */
export class PortalRedisStore extends RedisStore implements PortalSessionStore {
  private readonly deployment: string | undefined;
  /** What each session object was last written as: its id and data, the cookie aside. */
  private readonly written = new WeakMap<object, string>();

  constructor(options: { client: RedisClient; prefix: string; deployment?: string }) {
    const deployment = options.deployment;
    super({
      client: options.client,
      prefix: options.prefix,
      ttl: () => SESSION_IDLE_SECONDS,
      serializer: {
        parse: (text: string) => JSON.parse(text) as SessionData,
        stringify: (sess: SessionData) => JSON.stringify(deployment ? { ...sess, deployment } : sess),
      },
    });
    this.deployment = deployment;
  }

  private own(sess: Stamped | null | undefined): SessionData | null {
    if (!sess) return null;
    return this.deployment === undefined || sess.deployment === this.deployment ? sess : null;
  }

  override async get(sid: string, cb?: (err: unknown, sess?: SessionData | null) => void): Promise<void> {
    let sess: SessionData | null;
    try {
      sess = this.own((await super.get(sid)) as Stamped | null);
    } catch (err) {
      cb?.(err, null);
      return;
    }
    cb?.(null, sess);
  }

  /** This deployment's sessions (records of another deployment are left out). */
  override async all(cb?: (err: unknown, sessions?: SessionData[] | null) => void): Promise<void> {
    let sessions: SessionData[];
    try {
      const sids = ((await this.ids()) ?? []) as string[];
      const raw: (string | null)[] =
        sids.length > 0 ? await this.client.mGet(sids.map((sid) => this.prefix + sid)) : [];
      sessions = [];
      for (const [i, text] of raw.entries()) {
        const sess = text === null ? null : this.own(JSON.parse(text) as Stamped);
        if (sess) sessions.push({ ...sess, id: sids[i] } as SessionData);
      }
    } catch (err) {
      cb?.(err, null);
      return;
    }
    cb?.(null, sessions);
  }

  /** How many sessions of this deployment there are. */
  override async length(cb?: (err: unknown, length?: number) => void): Promise<void> {
    await this.all((err, sessions) => cb?.(err, sessions?.length ?? 0));
  }

  /** A session read from Redis: marked, so that {@link regenerate} knows there is a record to destroy. */
  override createSession(req: Request, sess: SessionData): session.Session & Partial<SessionData> {
    const created = super.createSession(req, sess);
    markStored(created);
    return created;
  }

  /**
   * Writes a session, unless this very session object was just written with the same id and data
   * (its cookie aside): express-session writes a session that changed id (a sign-in) again as the
   * answer goes out, after the explicit save that made sure it was stored before answering.
   */
  override async set(sid: string, sess: SessionData, cb?: (err?: unknown) => void): Promise<void> {
    markStored(sess);
    const { cookie: _cookie, ...data } = sess;
    const what = `${sid} ${JSON.stringify(data)}`;
    if (this.written.get(sess) === what) {
      cb?.();
      return;
    }
    await super.set(sid, sess, (err?: unknown) => {
      if (!err) this.written.set(sess, what);
      cb?.(err);
    });
  }

  /**
   * A new session id for the request (sign-in). The old record is destroyed first, as express-session
   * does, when there is one: a session made for this request and never written (a visitor without a
   * session signing in) has none, and its id was never given out, so no DEL is sent for it.
   */
  override regenerate(req: Request, fn: (err?: unknown) => void): void {
    if (req.session && !Object.hasOwn(req.session, STORED)) {
      // express-session gives its store `generate` when it mounts it (Store.regenerate calls it too)
      (this as unknown as { generate(req: Request): void }).generate(req);
      fn();
      return;
    }
    super.regenerate(req, fn);
  }

  override async touch(sid: string, sess: SessionData, cb?: (err?: unknown) => void): Promise<void> {
    cb?.();
    if (!isActivity(sess)) return;
    try {
      await this.client.expire(this.prefix + sid, SESSION_IDLE_SECONDS);
    } catch (err) {
      // the next request renews it again; at worst an idle session ends a little early
      log().warn({ err: err instanceof Error ? err.message : String(err) }, "could not renew a session");
    }
  }

  async remainingMs(sid: string): Promise<number | null> {
    const ms: number = await this.client.pTTL(this.prefix + sid);
    return ms >= 0 ? ms : null;
  }
}

/**
 * Sessions in this process's memory (the embedded mode, one process): express-session's memory
 * store plus the idle rule, which it does not keep by itself (it only knows the cookie's expiry).
 */
export class PortalMemoryStore extends session.MemoryStore implements PortalSessionStore {
  private readonly idleUntil = new Map<string, number>();

  constructor(private readonly idleMs = SESSION_IDLE_SECONDS * 1000) {
    super();
  }

  private expired(sid: string): boolean {
    const until = this.idleUntil.get(sid);
    return until === undefined || until <= Date.now();
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    if (this.expired(sid)) {
      this.idleUntil.delete(sid);
      super.destroy(sid, () => callback(null, null));
      return;
    }
    super.get(sid, callback);
  }

  override set(sid: string, sess: SessionData, callback?: (err?: unknown) => void): void {
    this.idleUntil.set(sid, Date.now() + this.idleMs);
    super.set(sid, sess, callback);
  }

  override touch(sid: string, sess: SessionData, callback?: () => void): void {
    if (isActivity(sess) && !this.expired(sid)) this.idleUntil.set(sid, Date.now() + this.idleMs);
    callback?.();
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.idleUntil.delete(sid);
    super.destroy(sid, callback);
  }

  async remainingMs(sid: string): Promise<number | null> {
    const until = this.idleUntil.get(sid);
    return until === undefined || until <= Date.now() ? null : until - Date.now();
  }
}

/**
 * The session store of a process: Redis when it has a client (its records stamped with the
 * deployment's id when one is given), else memory (the embedded mode, one process of one deployment).
 */
export function createSessionStore(options: {
  redis?: RedisClient;
  prefix: string;
  deployment?: string;
}): PortalSessionStore {
  return options.redis
    ? new PortalRedisStore({
        client: options.redis,
        prefix: `${options.prefix}sess:`,
        deployment: options.deployment,
      })
    : new PortalMemoryStore();
}

/** Whether a store can tell a session's remaining idle time. */
export function isPortalSessionStore(store: Store): store is PortalSessionStore {
  return typeof (store as Partial<PortalSessionStore>).remainingMs === "function";
}
