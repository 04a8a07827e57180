import { randomBytes } from "node:crypto";
import { createRateLimiter, type RateLimiter, reserveAll } from "./rateLimit";
import { connectRedis, type RedisClient } from "./redis";

const rules = {
  register: { points: 2, durationSec: 1 },
  loginIp: { points: 10, durationSec: 60 },
  loginAccount: { free: 2, maxDelaySec: 2, memorySec: 60 },
};

async function expectLimited(work: Promise<unknown>, maxSeconds: number): Promise<void> {
  await expect(work).rejects.toMatchObject({ code: "RATE_LIMITED" });
  const err = await work.catch((e: unknown) => e);
  const retryAfter = (err as { details?: { retryAfter?: number } }).details?.retryAfter ?? 0;
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

function behaves(name: string, make: () => Promise<{ limiter: RateLimiter; close(): void }>) {
  describe(name, () => {
    let limiter: RateLimiter;
    let close: () => void;
    beforeAll(async () => {
      ({ limiter, close } = await make());
    });
    afterAll(() => close());

    it("refuses past a window's points with a retry hint, and admits again when it ends", async () => {
      const key = randomBytes(4).toString("hex");
      await limiter.consume("register", key);
      await limiter.consume("register", key);
      await expectLimited(limiter.consume("register", key), 1);
      await new Promise((r) => setTimeout(r, 1100));
      await expect(limiter.consume("register", key)).resolves.toBeDefined();
    });

    it("counts a window's attempts before the work, exactly its points at once, and takes back a released one", async () => {
      const key = randomBytes(4).toString("hex");
      const results = await Promise.allSettled(
        Array.from({ length: 30 }, () => limiter.consume("loginIp", key)),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
      const other = randomBytes(4).toString("hex");
      const taken = await Promise.all(Array.from({ length: 10 }, () => limiter.consume("loginIp", other)));
      await expectLimited(limiter.consume("loginIp", other), 60);
      // a success gives its attempt back: one more fits, and a second release of it changes nothing
      await taken[0]?.release();
      await taken[0]?.release();
      await limiter.consume("loginIp", other);
      await expectLimited(limiter.consume("loginIp", other), 60);
    });

    it("lets exactly the free attempts and one more through at once, then doubles the delay up to the cap", async () => {
      const key = randomBytes(4).toString("hex");
      const first = await Promise.allSettled(
        Array.from({ length: 20 }, () => limiter.reserve("loginAccount", key)),
      );
      // two free attempts, then the one the first delay lets through
      expect(first.filter((r) => r.status === "fulfilled")).toHaveLength(3);
      await expectLimited(limiter.reserve("loginAccount", key), 1);
      await new Promise((r) => setTimeout(r, 1100));
      await limiter.reserve("loginAccount", key);
      await expectLimited(limiter.reserve("loginAccount", key), 2);
      await new Promise((r) => setTimeout(r, 2100));
      await limiter.reserve("loginAccount", key);
      // capped at maxDelaySec (2)
      await expectLimited(limiter.reserve("loginAccount", key), 2);
      await limiter.succeed(["loginAccount", key]);
      await expect(limiter.reserve("loginAccount", key)).resolves.toBeDefined();
    });

    it("gives back a released attempt, free or past the delay, and never refuses an unenforced one", async () => {
      const key = randomBytes(4).toString("hex");
      const a = await limiter.reserve("loginAccount", key);
      await limiter.reserve("loginAccount", key);
      await a.release();
      // the released free attempt is free again; the next one takes the delay's passage
      await limiter.reserve("loginAccount", key);
      const gated = await limiter.reserve("loginAccount", key);
      await expectLimited(limiter.reserve("loginAccount", key), 1);
      await gated.release();
      // the passage given back: the next attempt goes through at once, with the first delay again
      await limiter.reserve("loginAccount", key);
      await expectLimited(limiter.reserve("loginAccount", key), 1);
      // the owner's known browser is counted but not held back
      await expect(limiter.reserve("loginAccount", key, { enforce: false })).resolves.toBeDefined();
    });

    it("clears several keys' failures and delays with one success, counting afresh after it", async () => {
      const pair = randomBytes(4).toString("hex");
      const account = randomBytes(4).toString("hex");
      for (let i = 0; i < 3; i++) await limiter.reserve("loginAccount", pair);
      // loginAccountAny keeps its default rule: 10 free failures, then one through per delay
      for (let i = 0; i < 11; i++) await limiter.reserve("loginAccountAny", account);
      await expectLimited(limiter.reserve("loginAccount", pair), 1);
      await expectLimited(limiter.reserve("loginAccountAny", account), 1);
      await limiter.succeed(["loginAccount", pair], ["loginAccountAny", account]);
      // the failures before the success no longer count: two free, then the first delay's passage
      await limiter.reserve("loginAccount", pair);
      await limiter.reserve("loginAccount", pair);
      await limiter.reserve("loginAccount", pair);
      await expectLimited(limiter.reserve("loginAccount", pair), 1);
      await limiter.reserve("loginAccountAny", account);
    });

    it("takes several reservations together, or none when one is refused", async () => {
      const window = randomBytes(4).toString("hex");
      const pair = randomBytes(4).toString("hex");
      for (let i = 0; i < 3; i++) await limiter.reserve("loginAccount", pair);
      await expectLimited(
        reserveAll([limiter.consume("register", window), limiter.reserve("loginAccount", pair)]),
        1,
      );
      // the window's attempt was given back: both of its points are still there
      await limiter.consume("register", window);
      await limiter.consume("register", window);
      await expectLimited(limiter.consume("register", window), 1);
    });
  });
}

behaves("rate limits on Redis", async () => {
  const url = process.env.REDIS_URL;
  if (!url) throw new Error("REDIS_URL is unset: run the tests with `npx jest`");
  const redis: RedisClient = await connectRedis(url);
  const prefix = `${process.env.REDIS_PREFIX ?? "portal:"}rltest:`;
  return { limiter: createRateLimiter({ redis, prefix, rules }), close: () => redis.destroy() };
});

behaves("rate limits in memory (embedded mode)", async () => ({
  limiter: createRateLimiter({ prefix: "memtest:", rules }),
  close: () => undefined,
}));
