import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Pool } from "pg";
import { createClient } from "redis";

// The baseline of benchmark P1: a bare node:http server doing for GET /api/user what the portal
// must do at the least: verify the signed session cookie, read the session from Redis and roll its
// expiry (the 30-minute idle rule), look the user up in PostgreSQL, refuse an ended session, and
// answer the same JSON. No framework, no logging, no metrics, no security headers.

const SESSION_COOKIE = "portal.sid";
const IDLE_SECONDS = 30 * 60;
const ABSOLUTE_MS = 12 * 60 * 60 * 1000;

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is unset`);
  return value;
}

const secret = env("SESSION_SECRET");
const prefix = `${env("REDIS_PREFIX")}sess:`;
const pool = new Pool({ connectionString: env("DATABASE_URL"), max: 10 });
const redis = createClient({ url: env("REDIS_URL") });

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

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(json);
}

const PERMISSIONS: Record<string, string[]> = {
  mainAdmin: [
    "manage:users",
    "manage:config",
    "read:all_documents",
    "approve:documents",
    "manage:esrt_sync",
    "manageEmails",
    "manage:appointments",
  ],
  userAdmin: [
    "manage:users",
    "read:all_documents",
    "approve:documents",
    "manage:esrt_sync",
    "manage:appointments",
  ],
};

async function currentUser(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const sid = sessionId(req);
  if (!sid) return send(res, 401, { message: "Unauthorized - Please log in" });
  const key = `${prefix}${sid}`;
  const raw = await redis.get(key);
  if (!raw) return send(res, 401, { message: "Unauthorized - Please log in" });
  await redis.expire(key, IDLE_SECONDS);
  const session = JSON.parse(raw) as { userId?: number; loginAt?: number; issuedAt?: number };
  if (session.userId === undefined || Date.now() - (session.loginAt ?? 0) > ABSOLUTE_MS) {
    return send(res, 401, { message: "Unauthorized - Please log in" });
  }
  const { rows } = await pool.query("SELECT * FROM users WHERE id = $1", [session.userId]);
  const u = rows[0] as Record<string, unknown> | undefined;
  const validAfter = u?.sessionsValidAfter instanceof Date ? u.sessionsValidAfter.getTime() : 0;
  if (u?.userStatus !== "active" || (session.issuedAt ?? 0) < validAfter) {
    return send(res, 401, { message: "Unauthorized - Please log in" });
  }
  send(res, 200, {
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
    permissions: PERMISSIONS[String(u.userType)] ?? [],
  });
}

async function main(): Promise<void> {
  await redis.connect();
  const server = createServer((req, res) => {
    if (req.url === "/healthz") return send(res, 200, { status: "ok" });
    if (req.url === "/api/user" && req.method === "GET") {
      currentUser(req, res).catch(() => send(res, 500, { message: "Internal server error" }));
      return;
    }
    send(res, 404, { message: "Not found" });
  });
  server.keepAliveTimeout = 5000;
  server.listen(Number(env("PORT")), "127.0.0.1");
  process.on("SIGTERM", () => {
    setTimeout(() => process.exit(0), 200).unref();
    server.close();
    void redis.quit().finally(() => pool.end());
  });
}

void main();
