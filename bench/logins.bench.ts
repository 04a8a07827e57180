import { createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import { alternate, type LoadRequest, load, loadMetrics, median, startServer } from "./load";
import { startBenchPortal } from "./portalServer";
import { type BenchReport, teardown } from "./support";

// P4 of the hardening issue: sign-ins per second through the whole portal (POST /api/login: rate
// limits, the account lookup, argon2id, the audit row, lastLoginAt, a new session in Redis) against
// the raw argon2id verify rate of the same package and parameters behind a bare HTTP server. The
// hash dominates a sign-in; the goal is that everything else costs little beside it.

const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Distinct accounts signing in, so no one account's rows or keys are the bottleneck. */
const ACCOUNTS = 50;
/**
 * Client addresses per account. The portal trusts X-Forwarded-For from the load balancer (the
 * loopback here), and limits sign-ins per address (100 per 15 minutes by default): one address for
 * every request would measure the limiter's refusals, not sign-ins. 250 addresses keep each one far
 * under its limit for the whole run, as many clients behind a load balancer would be.
 */
const ADDRESSES_PER_ACCOUNT = 5;

/** Runs P4. @throws when a server does not start or a sign-in fails. */
export async function run(): Promise<BenchReport> {
  const cleanup = teardown();
  try {
    const { portal, env, db } = await startBenchPortal(cleanup);
    const argon2 = await startServer({ name: "argon2", script: "bench/servers/argon2Verify.ts", env });
    cleanup.defer("stop the argon2 server", () => argon2.stop());

    const json = { "content-type": "application/json" };
    // Connection i signs account i in, from its addresses in turn: one sign-in of an account in
    // flight at a time. With one list for all, every connection began with the same account, and
    // its attempts in flight together went past the account's free attempts (each attempt counts
    // until a success clears them): the limiter refused a quarter of the sign-ins.
    const loginsOf: LoadRequest[][] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const user = await createUser(db, { userType: "client" });
      const logins: LoadRequest[] = [];
      loginsOf.push(logins);
      for (let j = 0; j < ADDRESSES_PER_ACCOUNT; j++) {
        logins.push({
          method: "POST",
          path: "/api/login",
          headers: { ...json, "x-forwarded-for": `10.0.${j}.${i + 1}` },
          body: JSON.stringify({ login: user.username, password: TEST_PASSWORD }),
        });
      }
    }
    const verify: LoadRequest[] = [
      { method: "POST", path: "/login", headers: json, body: JSON.stringify({ password: TEST_PASSWORD }) },
    ];
    const first = loginsOf[0]?.[0];
    if (!first) throw new Error("no account");
    const check = await fetch(`${portal.url}${first.path}`, {
      method: "POST",
      headers: json,
      body: first.body,
    });
    await check.arrayBuffer();
    if (check.status !== 200) throw new Error(`sign-in answered ${check.status}`);

    const options = { connections: CONNECTIONS, seconds: SECONDS };
    const rounds = await alternate(
      [
        { name: "argon2", round: () => load(argon2, verify, options) },
        {
          name: "portal",
          round: () =>
            load(portal, [first], { ...options, perConnection: (i) => loginsOf[i % ACCOUNTS] ?? [first] }),
        },
      ],
      ROUNDS,
    );
    const argonRounds = rounds.get("argon2") ?? [];
    const portalRounds = rounds.get("portal") ?? [];
    // a refused sign-in is quicker than a sign-in: a run with refusals measures something else
    const refused = portalRounds.reduce((n, r) => n + r.errors, 0);
    if (refused > 0)
      throw new Error(`${refused} sign-ins were refused or failed: the ratio would not be sign-ins`);
    return {
      name: "P4: sign-ins per second against the raw argon2id verify rate",
      notes: [
        `${CONNECTIONS} connections, ${ACCOUNTS} accounts from ${ACCOUNTS * ADDRESSES_PER_ACCOUNT} client addresses (X-Forwarded-For), ${ROUNDS} alternating rounds of ${SECONDS} s after a warm-up round each; medians.`,
        "Baseline: the portal's verifyPassword (@node-rs/argon2, m=19456 KiB, t=2, p=1) behind a bare node:http server.",
        "Goal: portal/argon2 >= 0.85.",
      ],
      scenarios: [
        { name: "argon2id verify (baseline)", metrics: loadMetrics(argonRounds) },
        { name: "portal POST /api/login", metrics: loadMetrics(portalRounds) },
        {
          name: "ratio",
          metrics: [
            {
              name: "P4 portal/argon2",
              unit: "",
              value:
                median(portalRounds.map((r) => r.requestsPerSec)) /
                median(argonRounds.map((r) => r.requestsPerSec)),
            },
          ],
        },
      ],
    };
  } finally {
    await cleanup.run();
  }
}
