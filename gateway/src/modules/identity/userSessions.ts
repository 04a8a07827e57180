import { createHash } from "node:crypto";
import { SESSION_ABSOLUTE_MS } from "@gateway/http/session";
import { isPortalSessionStore, SESSION_IDLE_SECONDS } from "@services/shared/sessionStore";
import type { SessionData, Store } from "express-session";
import type { SessionIndex } from "./sessionIndex";

// A user's open sessions as an administrator sees them (issue 11): the device and address the
// session was granted to (kept in the session record by startSession), when it signed in, when it
// was last active and when it ends. Last seen needs no write of its own: every request that is
// activity renews the stored session's idle expiry to 30 minutes, so the last activity is the
// expiry less 30 minutes; the session check renews nothing and so moves nothing. Sessions are
// named by a handle (a hash of the session id): the id itself never leaves the server.

/** One open session of a user. */
export interface UserSessionView {
  /** names the session for a revocation; not its id */
  id: string;
  device: string;
  ip: string | null;
  signedInAt: Date;
  lastSeenAt: Date;
  /** when it ends unless used again (idle), or its 12-hour limit if sooner */
  expiresAt: Date;
}

/** The handle of a session id. */
export function sessionHandle(sid: string): string {
  return createHash("sha256").update(`portal-session:${sid}`).digest("hex").slice(0, 32);
}

function read(store: Store, sid: string): Promise<SessionData | null> {
  return new Promise((resolve, reject) =>
    store.get(sid, (err: unknown, sess?: SessionData | null) => (err ? reject(err) : resolve(sess ?? null))),
  );
}

/** The session ids of `userId` that are still open, with their records; idled-out ones leave the index. */
async function openSessions(props: {
  store: Store;
  sessions: SessionIndex;
  userId: number;
}): Promise<{ sid: string; sess: SessionData }[]> {
  const open: { sid: string; sess: SessionData }[] = [];
  for (const sid of await props.sessions.list(props.userId)) {
    const sess = await read(props.store, sid);
    if (sess && sess.userId === props.userId) open.push({ sid, sess });
    else await props.sessions.remove(props.userId, sid);
  }
  return open;
}

/**
 * The open sessions of `userId`, most recently active first.
 * @throws when the store or Redis fails.
 */
export async function listUserSessions(props: {
  store: Store;
  sessions: SessionIndex;
  userId: number;
  now?: number;
}): Promise<UserSessionView[]> {
  const now = props.now ?? Date.now();
  const idleMs = SESSION_IDLE_SECONDS * 1000;
  const views: UserSessionView[] = [];
  for (const { sid, sess } of await openSessions(props)) {
    const remaining = isPortalSessionStore(props.store) ? await props.store.remainingMs(sid) : null;
    if (remaining === null && isPortalSessionStore(props.store)) continue;
    const signedInAt = sess.loginAt ?? sess.issuedAt ?? now;
    const idleEnd = now + (remaining ?? idleMs);
    views.push({
      id: sessionHandle(sid),
      device: sess.device ?? "Unknown device",
      ip: sess.ip ?? null,
      signedInAt: new Date(signedInAt),
      lastSeenAt: new Date(Math.max(signedInAt, idleEnd - idleMs)),
      expiresAt: new Date(Math.min(idleEnd, signedInAt + SESSION_ABSOLUTE_MS)),
    });
  }
  return views.sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime());
}

/**
 * Ends the open session of `userId` that `handle` names; returns 1, or 0 when it is not open (any
 * more).
 * @throws when the store or Redis fails.
 */
export async function revokeUserSession(props: {
  store: Store;
  sessions: SessionIndex;
  userId: number;
  handle: string;
}): Promise<number> {
  const found = (await openSessions(props)).find(({ sid }) => sessionHandle(sid) === props.handle);
  if (!found) return 0;
  await props.sessions.revoke({ store: props.store, userId: props.userId, sid: found.sid });
  return 1;
}
