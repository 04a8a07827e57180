import { alternate, type LoadRequest, type LoadResult, load, loadMetrics, median, startServer } from "./load";
import { startBenchPortal } from "./portalServer";
import type { BenchReport, Metric } from "./support";
import { teardown } from "./support";

// P1 and P2 of the hardening issue. P1: the signed-in user's GET /api/user through the whole portal
// (production mode, logging, metrics, security headers, sessions in Redis, the user from
// PostgreSQL) against a bare node:http server doing the same session read, rolling expiry and user
// lookup, and against Express alone doing that same work (the framework's own ceiling). P2: GraphQL
// `me` for the same fields against GET /api/user, on the same portal, and Apollo Server alone doing
// the bare server's work behind `{ me }` (GraphQL's own ceiling: what Apollo costs before any of the
// portal's code). All are measured in alternating rounds; the ratio of the medians is the figure.

/** Concurrent connections, as the outside harness used. */
const CONNECTIONS = 50;
/** Measured rounds per contender (alternating). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Seconds per round. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const ME_QUERY = `{ me { id uniqueId username email firstName lastName phone companyName userType notes createdAt
  lastLoginAt accessLevel esrtSynced userStatus emailVerified securityQuestionsSet securityLevel permissions } }`;

function ratio(name: string, a: readonly LoadResult[], b: readonly LoadResult[]): Metric {
  return {
    name,
    unit: "",
    value: median(a.map((r) => r.requestsPerSec)) / median(b.map((r) => r.requestsPerSec)),
  };
}

/** Runs P1 and P2. @throws when a server does not start or a request fails. */
export async function run(): Promise<BenchReport> {
  const cleanup = teardown();
  try {
    const { portal, env, signedInClient } = await startBenchPortal(cleanup);
    const bare = await startServer({ name: "bare", script: "bench/servers/bareSession.ts", env });
    cleanup.defer("stop the bare server", () => bare.stop());
    const framework = await startServer({ name: "express", script: "bench/servers/expressSession.ts", env });
    cleanup.defer("stop the Express-alone server", () => framework.stop());
    const apollo = await startServer({ name: "apollo", script: "bench/servers/apolloSession.ts", env });
    cleanup.defer("stop the Apollo-alone server", () => apollo.stop());
    const { cookie } = await signedInClient();

    const rest: LoadRequest[] = [{ path: "/api/user", headers: { cookie } }];
    const graphql: LoadRequest[] = [
      {
        method: "POST",
        path: "/graphql",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ query: ME_QUERY }),
      },
    ];
    // the same user in both answers: a wrong cookie would make a fast 401 look like a win
    for (const server of [bare, framework, portal]) {
      const res = await fetch(`${server.url}/api/user`, { headers: { cookie } });
      const body = (await res.json()) as { username?: string };
      if (res.status !== 200 || !body.username) throw new Error(`${server.name} answered ${res.status}`);
    }
    for (const server of [apollo, portal]) {
      const me = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ query: ME_QUERY }),
      });
      const meBody = (await me.json()) as { data?: { me?: { username?: string } } };
      if (!meBody.data?.me?.username) {
        throw new Error(`GraphQL me of ${server.name} answered ${JSON.stringify(meBody)}`);
      }
    }

    const options = { connections: CONNECTIONS, seconds: SECONDS };
    const rounds = await alternate(
      [
        { name: "bare", round: () => load(bare, rest, options) },
        { name: "express", round: () => load(framework, rest, options) },
        { name: "rest", round: () => load(portal, rest, options) },
        { name: "graphql", round: () => load(portal, graphql, options) },
        { name: "apollo", round: () => load(apollo, graphql, options) },
      ],
      ROUNDS,
    );
    const of = (name: string) => rounds.get(name) ?? [];
    return {
      name: "P1/P2: the signed-in user, portal against a bare server and GraphQL against REST",
      notes: [
        `${CONNECTIONS} connections (autocannon in the benchmark's process), ${ROUNDS} alternating rounds of ${SECONDS} s after a warm-up round each; medians.`,
        "Servers in processes of their own; the portal in production mode with its info log, laid out as docker-compose.yml: the gateway (relaying the outbox) apart from the services' workers.",
        "P1 goal: portal/bare req/s >= 0.60 and portal p99 <= 20 ms; portal/Express alone >= 0.75. P2 goal: GraphQL/REST req/s >= 0.85.",
        "Express alone runs the bare server's very work behind the portal's framework: the most the portal could reach with Express in the path.",
        "Apollo alone runs that same work behind `{ me }` on Apollo Server's Express integration: Apollo alone/Express alone is the most GraphQL/REST could reach with Apollo in the path.",
      ],
      scenarios: [
        { name: "bare node:http GET /api/user (baseline)", metrics: loadMetrics(of("bare")) },
        { name: "Express alone, same work (ceiling)", metrics: loadMetrics(of("express")) },
        { name: "portal GET /api/user", metrics: loadMetrics(of("rest")) },
        { name: "portal GraphQL { me }", metrics: loadMetrics(of("graphql")) },
        { name: "Apollo alone, same work (GraphQL ceiling)", metrics: loadMetrics(of("apollo")) },
        {
          name: "ratios",
          metrics: [
            ratio("P1 portal/bare", of("rest"), of("bare")),
            ratio("Express alone/bare", of("express"), of("bare")),
            ratio("portal/Express alone", of("rest"), of("express")),
            ratio("P2 GraphQL/REST", of("graphql"), of("rest")),
            ratio("Apollo alone/Express alone", of("apollo"), of("express")),
            ratio("portal GraphQL/Apollo alone", of("graphql"), of("apollo")),
          ],
        },
      ],
    };
  } finally {
    await cleanup.run();
  }
}
