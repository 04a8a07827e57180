import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { permissionsOf } from "@gateway/auth/permissions";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { Pool } from "pg";
import { createClient } from "redis";

// What the baselines of benchmark P1 do for GET /api/user, and no more: verify the signed session
// cookie, read the session from Redis and roll its expiry (the 30-minute idle rule), look the user
// up in PostgreSQL, refuse an ended session, and answer the same JSON as the portal. The bare
// node:http server (bareSession.ts) and the Express-alone server (expressSession.ts) both run it.

const SESSION_COOKIE = "portal.sid";
const IDLE_SECONDS = 30 * 60;
const ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/** A required environment variable. @throws when it is unset. */
export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is unset`);
  return value;
}

const secret = env("SESSION_SECRET");
const prefix = `${env("REDIS_PREFIX")}sess:`;
export const pool = new Pool({ connectionString: env("DATABASE_URL"), max: 10 });
export const redis = createClient({ url: env("REDIS_URL") });

/** The session id of a signed `s:<sid>.<mac>` cookie value, or null when the signature is wrong. */
function unsign(value: string): string | null {
  if (!value.startsWith("s:")) return null;
  const dot = value.lastIndexOf(".");
  const sid = value.slice(2, dot);
  const mac = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(createHmac("sha256", secret).update(sid).digest("base64").replace(/=+$/, ""));
  return mac.length === expected.length && timingSafeEqual(mac, expected) ? sid : null;
}

function sessionId(req: IncomingMessage): string | null {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) return unsign(decodeURIComponent(rest.join("=")));
  }
  return null;
}

/**
 * Ends a baseline server on SIGTERM as the benchmark stops it: no new connections, then `closing`
 * (a framework's own shutdown, if any), Redis and the pool; the process exits 200 ms later at most.
 */
export function stopOnSigterm(server: { close(): unknown }, closing?: () => Promise<unknown>): void {
  process.on("SIGTERM", () => {
    setTimeout(() => process.exit(0), 200).unref();
    server.close();
    void Promise.resolve(closing?.()).finally(() => redis.quit().finally(() => pool.end()));
  });
}

const UNAUTHORIZED = { status: 401, body: { message: "Unauthorized - Please log in" } };

/** The answer to GET /api/user for `req`: its status and JSON body. */
export async function currentUser(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
  const sid = sessionId(req);
  if (!sid) return UNAUTHORIZED;
  const key = `${prefix}${sid}`;
  const raw = await redis.get(key);
  if (!raw) return UNAUTHORIZED;
  await redis.expire(key, IDLE_SECONDS);
  const session = JSON.parse(raw) as { userId?: number; loginAt?: number; issuedAt?: number };
  if (session.userId === undefined || Date.now() - (session.loginAt ?? 0) > ABSOLUTE_MS) {
    return UNAUTHORIZED;
  }
  const { rows } = await pool.query("SELECT * FROM users WHERE id = $1", [session.userId]);
  const u = rows[0] as Record<string, unknown> | undefined;
  const validAfter = u?.sessionsValidAfter instanceof Date ? u.sessionsValidAfter.getTime() : 0;
  if (u?.userStatus !== "active" || (session.issuedAt ?? 0) < validAfter) {
    return UNAUTHORIZED;
  }
  return {
    status: 200,
    body: {
      id: u.id,
      uniqueId: u.uniqueId,
      username: u.username,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      phone: u.phone,
      companyName: u.companyName,
      userType: u.userType,
      notes: u.notes,
      createdAt: (u.createdAt as Date).toISOString(),
      lastLoginAt: u.lastLoginAt instanceof Date ? u.lastLoginAt.toISOString() : null,
      accessLevel: u.accessLevel,
      esrtSynced: u.esrtSynced,
      userStatus: u.userStatus,
      emailVerified: u.emailVerified,
      securityQuestionsSet: u.securityQuestionsSet,
      securityLevel: u.securityLevel,
      permissions: [...permissionsOf(u.userType as UserType)],
    },
  };
}
