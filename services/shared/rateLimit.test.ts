import { randomBytes } from "node:crypto";
import { createRateLimiter, type RateLimiter } from "./rateLimit";
import { connectRedis, type RedisClient } from "./redis";

const rules = {
  register: { points: 2, durationSec: 1 },
  loginAccount: { free: 2, maxDelaySec: 2, memorySec: 60 },
};

async function expectLimited(work: Promise<void>, maxSeconds: number): Promise<void> {
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
      await expect(limiter.consume("register", key)).resolves.toBeUndefined();
    });

    it("delays a key after its free failures, doubling up to the cap, and a success clears it", async () => {
      const key = randomBytes(4).toString("hex");
      await limiter.fail("loginAccount", key);
      await limiter.fail("loginAccount", key);
      await expect(limiter.checkBackoff("loginAccount", key)).resolves.toBeUndefined();
      await limiter.fail("loginAccount", key);
      await expectLimited(limiter.checkBackoff("loginAccount", key), 1);
      await limiter.fail("loginAccount", key);
      await expectLimited(limiter.checkBackoff("loginAccount", key), 2);
      await limiter.fail("loginAccount", key);
      await expectLimited(limiter.checkBackoff("loginAccount", key), 2);
      await limiter.succeed(["loginAccount", key]);
      await expect(limiter.checkBackoff("loginAccount", key)).resolves.toBeUndefined();
    });

    it("clears several keys' failures and delays with one success, counting afresh after it", async () => {
      const pair = randomBytes(4).toString("hex");
      const account = randomBytes(4).toString("hex");
      for (let i = 0; i < 3; i++) await limiter.fail("loginAccount", pair);
      // loginAccountAny keeps its default rule: 10 free failures
      for (let i = 0; i < 11; i++) await limiter.fail("loginAccountAny", account);
      await expectLimited(limiter.checkBackoff("loginAccount", pair), 1);
      await expectLimited(limiter.checkBackoff("loginAccountAny", account), 1);
      await limiter.succeed(["loginAccount", pair], ["loginAccountAny", account]);
      await expect(limiter.checkBackoff("loginAccount", pair)).resolves.toBeUndefined();
      await expect(limiter.checkBackoff("loginAccountAny", account)).resolves.toBeUndefined();
      // the failures before the success no longer count: two more are still free
      await limiter.fail("loginAccount", pair);
      await limiter.fail("loginAccount", pair);
      await expect(limiter.checkBackoff("loginAccount", pair)).resolves.toBeUndefined();
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
