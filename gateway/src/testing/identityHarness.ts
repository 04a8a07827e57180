import type { RateLimitRules } from "@services/shared/rateLimit";
import type { RedisClient } from "@services/shared/redis";
import { testDb } from "@services/shared/testing/db";
import { TEST_PASSWORD, TEST_SECURITY_ANSWERS } from "@services/shared/testing/factories";
import type { Express } from "express";
import type { Logger } from "pino";
import type { Response } from "supertest";
import { createApp } from "../app";
import { SESSION_COOKIE } from "../http/session";
import { fakeWebDist, redisSessionStore, testConfig, testRedis } from "./appHarness";

// Helpers for the identity route tests: the real app on this run's database and Redis (with
// rate limits the test chooses), the session cookie of an answer, and a record of every answer so a
// test can prove none carried a password, hash or token.

export interface IdentityApp {
  app: Express;
  redis: RedisClient;
  /** every response body the test saw, for the secrets scan */
  bodies: string[];
  close(): Promise<void>;
}

/** Builds the app for identity tests. @throws when Redis or the database does not answer. */
export async function identityApp(
  rateLimits: Partial<RateLimitRules> = {},
  options: { httpLogger?: Logger } = {},
): Promise<IdentityApp> {
  const cfg = testConfig();
  const redis = await testRedis();
  const web = fakeWebDist();
  const db = await testDb();
  const { app, stop } = await createApp({
    config: cfg,
    db,
    readiness: {},
    sessionStore: redisSessionStore(redis, cfg),
    webDist: web.dir,
    redis,
    rateLimits,
    httpLogger: options.httpLogger,
  });
  return {
    app,
    redis,
    bodies: [],
    async close() {
      await stop();
      redis.destroy();
      web.remove();
    },
  };
}

/** The `portal.sid=...` pair an answer set, or undefined. */
export function sessionCookieOf(res: Response): string | undefined {
  const header = res.headers["set-cookie"];
  const cookies: string[] = Array.isArray(header) ? header : header ? [String(header)] : [];
  const cookie = cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return cookie?.split(";")[0];
}

/**
 * The recorded bodies that show the test password, an argon2 hash, a test security answer or one
 * of `extra` (raw tokens, other passwords).
 */
export function leakedSecrets(bodies: string[], extra: string[] = []): string[] {
  const needles = [TEST_PASSWORD, "$argon2", ...TEST_SECURITY_ANSWERS, ...extra];
  return bodies.filter((body) => needles.some((n) => n.length > 0 && body.includes(n)));
}
