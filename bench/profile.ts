import { mkdirSync } from "node:fs";
import { TEST_PASSWORD } from "@services/shared/testing/factories";
import { type LoadRequest, load } from "./load";
import { startBenchPortal } from "./portalServer";
import { teardown } from "./support";

// Not a benchmark: a profiling aid. Starts the portal as the load benchmarks do (BENCH_NODE_ARGS,
// e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", reaches its processes), signs a client in and loads
// one endpoint for PROFILE_SECONDS (default 15): `npx tsx bench/profile.ts rest|graphql|login`.
// The profile is written when the portal stops at the end.

process.env.LOG_LEVEL = "silent";

const ME_QUERY = "{ me { id uniqueId username email firstName lastName userType permissions } }";

async function main(): Promise<void> {
  const what = process.argv[2] ?? "rest";
  const seconds = Number(process.env.PROFILE_SECONDS ?? 15);
  const cleanup = teardown();
  try {
    const dir = process.env.PROFILE_DIR;
    if (dir) mkdirSync(dir, { recursive: true });
    const { portal, signedInClient } = await startBenchPortal(cleanup);
    const { cookie, username } = await signedInClient();
    const requests: LoadRequest[] =
      what === "graphql"
        ? [
            {
              method: "POST",
              path: "/graphql",
              headers: { cookie, "content-type": "application/json" },
              body: JSON.stringify({ query: ME_QUERY }),
            },
          ]
        : what === "login"
          ? [
              {
                method: "POST",
                path: "/api/login",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ login: username, password: TEST_PASSWORD }),
              },
            ]
          : [{ path: "/api/user", headers: { cookie } }];
    const result = await load(portal, requests, { connections: 50, seconds });
    process.stdout.write(`${what}: ${JSON.stringify(result)}\n`);
  } finally {
    await cleanup.run();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
