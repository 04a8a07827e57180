import { BUSINESS_TIME_ZONE } from "@schema/validation/appointment";
import { DateTime } from "luxon";
import { type LoadRequest, load, loadMetrics } from "./load";
import { startBenchPortal } from "./portalServer";
import { type BenchReport, teardown } from "./support";

// R7 of the hardening issue: 50 signed-in users, each on a connection of their own, for 60 s of the
// traffic the web client makes (the current user over REST and GraphQL, the config and branding, the
// permission and session checks, their appointments and the 60-day availability, a note saved now and
// then, the app's page), through the whole portal in production mode. Goal: 0 errors, p99 <= 200 ms.
// The same portal answering only GET /api/user, measured before and after, is the reference.

const USERS = 50;
const SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 60);

function mix(cookie: string, i: number): LoadRequest[] {
  const json = { cookie, "content-type": "application/json" };
  const today = DateTime.now().setZone(BUSINESS_TIME_ZONE).toISODate() ?? "";
  const to = DateTime.now().setZone(BUSINESS_TIME_ZONE).plus({ days: 60 }).toISODate() ?? "";
  const graphql = (query: string, variables: Record<string, unknown> = {}): LoadRequest => ({
    method: "POST",
    path: "/graphql",
    headers: json,
    body: JSON.stringify({ query, variables }),
  });
  return [
    { path: "/dashboard", headers: { cookie } },
    { path: "/api/user", headers: { cookie } },
    { path: "/api/server-config" },
    { path: "/api/branding" },
    graphql("{ me { id username firstName lastName email userType permissions esrtSynced } }"),
    { path: "/api/auth/check-permissions?permissions=manage:appointments", headers: { cookie } },
    { path: "/api/appointments/mine", headers: { cookie } },
    graphql(
      "query($from: String!, $to: String) { appointmentAvailability(from: $from, to: $to) { date slots { dateTime time label taken } } }",
      { from: today, to },
    ),
    { path: "/api/user", headers: { cookie } },
    { path: "/api/session-check", headers: { cookie } },
    {
      method: "POST",
      path: "/api/user/notes",
      headers: json,
      body: JSON.stringify({ notes: `Please call me about invoice ${1000 + i}, any weekday morning.` }),
    },
    graphql("{ myAppointments { id dateTime status appointmentType } }"),
  ];
}

/** Runs R7. @throws when the portal does not start or a sign-in fails. */
export async function run(): Promise<BenchReport> {
  const cleanup = teardown();
  try {
    const { portal, signedInClient } = await startBenchPortal(cleanup);
    const cookies: string[] = [];
    for (let i = 0; i < USERS; i++) cookies.push((await signedInClient()).cookie);
    const first = cookies[0] ?? "";
    // every request of the mix answers 2xx before the load starts (a wrong path would be all errors)
    for (const r of mix(first, 0)) {
      const res = await fetch(`${portal.url}${r.path}`, {
        method: r.method ?? "GET",
        headers: r.headers,
        body: r.body,
      });
      const text = await res.text();
      if (!res.ok || text.includes('"errors"'))
        throw new Error(`${r.method ?? "GET"} ${r.path} answered ${res.status}: ${text.slice(0, 300)}`);
    }
    const single: LoadRequest[] = [{ path: "/api/user", headers: { cookie: first } }];
    const options = { connections: USERS, seconds: Math.min(10, SECONDS) };
    await load(portal, single, options);
    const before = await load(portal, single, options);
    const mixed = await load(portal, [], {
      connections: USERS,
      seconds: SECONDS,
      perConnection: (i) => mix(cookies[i % cookies.length] ?? first, i),
    });
    const after = await load(portal, single, options);
    return {
      name: "R7: 50 signed-in users, mixed traffic",
      notes: [
        `${USERS} connections, each a signed-in client cycling through ${mix(first, 0).length} requests, for ${SECONDS} s; the portal in production mode.`,
        "Goal: 0 errors and p99 <= 200 ms over the mixed run. The reference is GET /api/user alone, before and after.",
      ],
      scenarios: [
        { name: "reference: GET /api/user before", metrics: loadMetrics([before]) },
        { name: "mixed traffic", metrics: loadMetrics([mixed]) },
        { name: "reference: GET /api/user after", metrics: loadMetrics([after]) },
      ],
    };
  } finally {
    await cleanup.run();
  }
}
