import { createHmac, timingSafeEqual } from "node:crypto";
import express, { type Request, type Response } from "express";
import session from "express-session";
import { present } from "../../gateway/src/auth/identity";
import { createMetrics } from "../../gateway/src/http/metrics";
import { requestLog } from "../../gateway/src/http/requestLog";
import { securityHeaders } from "../../gateway/src/http/security";
import { parseConfig, setConfig } from "../../services/shared/config";
import { connectPostgres } from "../../services/shared/db";
import { logger } from "../../services/shared/logger";
import { createRedisClient } from "../../services/shared/redis";
import { createSessionStore } from "../../services/shared/sessionStore";
import { findSessionUser } from "../../services/user/findSessionUser";

const layers = new Set((process.env.ABLATE ?? "").split(","));
const cfg = parseConfig(process.env);
setConfig(cfg);
const secret = cfg.SESSION_SECRET ?? "";
const prefix = `${cfg.REDIS_PREFIX}sess:`;
function unsign(value: string): string | null {
  if (!value.startsWith("s:")) return null;
  const dot = value.lastIndexOf(".");
  const sid = value.slice(2, dot);
  const mac = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(createHmac("sha256", secret).update(sid).digest("base64").replace(/=+$/, ""));
  return mac.length === expected.length && timingSafeEqual(mac, expected) ? sid : null;
}
async function main() {
  const redis = createRedisClient(cfg.REDIS_URL ?? "");
  await redis.connect();
  const db = await connectPostgres(cfg.DATABASE_URL ?? "");
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  if (layers.has("log")) app.use(requestLog({ logger: logger("http") }));
  if (layers.has("metrics")) app.use(createMetrics({ db }).observe);
  if (layers.has("helmet")) app.use(securityHeaders());
  if (layers.has("json")) app.use(express.json());
  if (layers.has("session")) {
    app.use(
      session({
        name: "portal.sid",
        secret,
        store: createSessionStore({ redis, prefix: cfg.REDIS_PREFIX }),
        resave: false,
        saveUninitialized: false,
        rolling: false,
        cookie: { httpOnly: true, sameSite: "lax", secure: "auto", maxAge: 12 * 3600000 },
      }),
    );
  }
  const router = express.Router();
  router.get("/user", async (req: Request, res: Response) => {
    let userId: number | undefined;
    if (layers.has("session")) userId = req.session.userId;
    else {
      const cookie = (req.headers.cookie ?? "")
        .split(";")
        .map((s) => s.trim())
        .find((s) => s.startsWith("portal.sid="));
      const sid = cookie ? unsign(decodeURIComponent(cookie.slice(11))) : null;
      const raw2 = sid ? await redis.get(`${prefix}${sid}`) : null;
      if (sid && raw2) {
        void redis.expire(`${prefix}${sid}`, 1800);
        userId = (JSON.parse(raw2) as { userId: number }).userId;
      }
    }
    if (userId === undefined) {
      res.status(401).json({ message: "no" });
      return;
    }
    const user = await findSessionUser({ db, userId });
    if (!user) {
      res.status(401).json({ message: "no" });
      return;
    }
    res.setHeader("Cache-Control", "no-store");
    if (layers.has("rawsend")) {
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(present(user)));
      return;
    }
    res.json(present(user));
  });
  app.use("/api", router);
  app.get("/healthz", (_req, res) => {
    res.json({ ok: true });
  });
  app.listen(Number(process.env.PORT), "127.0.0.1");
  process.on("SIGTERM", () => process.exit(0));
}
void main();
