import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createAdmin } from "@services/shared/testing/factories";
import { directoryPage, userFilterWhere } from "@services/user";
import { Client } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { signInOverHttp } from "../e2e/support/http";
import { deployedNodeArgs, startServer } from "./load";
import {
  type BenchReport,
  latencyMetrics,
  type Metric,
  processRssMiB,
  processRssPeak,
  quantile,
  startInProcessGateway,
  teardown,
} from "./support";

// The user directory at scale (issue 11): 1,000,000 users seeded with COPY into the benchmark's own
// database (the directory's indexes are dropped during the load and rebuilt after, as a restore
// would), then, through the in-process gateway over HTTP:
// - search p95 (goal ≤ 50 ms) for a prefix of an email, a part of a last name, and a filter
//   combination (type, status, verified and a created range, sorted by name);
// - the 1,000th page by cursor against the first (ratio goal ≈ 1), with OFFSET paging to the same
//   page measured side by side as the baseline (the Keycloak way);
// - the facet counts, with and without search text;
// - the export of all users over HTTP, streamed by a gateway process of its own: rows a second and
//   that process's RSS growth (goal ≤ 100 MB).
// DIRECTORY_BENCH_USERS sets a smaller size for a quick look.

export const USERS = Number(process.env.DIRECTORY_BENCH_USERS ?? 1_000_000);
const SEARCH_ROUNDS = Number(process.env.DIRECTORY_BENCH_ROUNDS ?? 200);
const PAGE_SIZE = 50;
const DEEP_PAGE = 1000;

const FIRST_NAMES = [
  "Zoë",
  "Ada",
  "Seán",
  "Chloé",
  "Björn",
  "Olivia",
  "Noah",
  "Émile",
  "Mia",
  "Jürgen",
  "Liam",
  "Inès",
  "Ava",
  "José",
  "Ella",
  "Luca",
  "Amélie",
  "Oscar",
  "Søren",
  "Nora",
];
const LAST_NAMES = [
  "O'Brien",
  "Ångström",
  "Smith",
  "D'Angelo",
  "Müller",
  "Nguyen",
  "García",
  "Johansson",
  "Lefèvre",
  "Kowalski",
  "O'Neill",
  "Rossi",
  "Dubois",
  "Schäfer",
  "Novák",
  "Silva",
  "Brown",
  "Łukasik",
  "Ferreira",
  "MacLeod",
  "Yılmaz",
  "Öztürk",
  "Van der Berg",
  "De Vries",
  "Ibáñez",
];
const COMPANIES = ["Acme", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Hooli", "Vandelay", null];
const TYPES = ["prospect", "prospect", "prospect", "client", "client", "user", "userAdmin"];
const STATUSES = ["active", "active", "active", "active", "inactive", "archived"];

const ascii = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z]/g, "")
    .toLowerCase();

/** A deterministic pseudo-random number generator (mulberry32), so each run seeds the same users. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

/** The users as COPY text rows, generated as they are read. */
function userRows(count: number, now: number): Readable {
  const rnd = random(11);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)] as T;
  let i = 0;
  return new Readable({
    read() {
      const lines: string[] = [];
      for (let n = 0; n < 2000 && i < count; n += 1, i += 1) {
        const first = pick(FIRST_NAMES);
        const last = pick(LAST_NAMES);
        const company = pick(COMPANIES);
        const created = new Date(now - Math.floor(rnd() * 3 * YEAR_MS));
        const login =
          rnd() < 0.3 ? null : new Date(created.getTime() + Math.floor(rnd() * (now - created.getTime())));
        lines.push(
          [
            `U${String(i).padStart(9, "0")}`,
            `${ascii(first)}${ascii(last)}${i}`,
            `${ascii(first)}.${ascii(last)}${i}@example${i % 50}.test`,
            "x",
            first,
            last,
            rnd() < 0.5 ? `+1 555 ${String(i % 10_000_000).padStart(7, "0")}` : "\\N",
            company ?? "\\N",
            pick(TYPES),
            pick(STATUSES),
            rnd() < 0.2 ? "full" : "limited",
            rnd() < 0.85 ? "t" : "f",
            rnd() < 0.6 ? "t" : "f",
            created.toISOString(),
            login ? login.toISOString() : "\\N",
          ].join("\t"),
        );
      }
      this.push(lines.length ? `${lines.join("\n")}\n` : null);
    },
  });
}

/** Seeds the users with COPY; the users' secondary indexes are dropped for the load and rebuilt. */
export async function seedUsers(url: string, count: number): Promise<{ copyMs: number; indexMs: number }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const indexes = (
      await client.query<{ name: string; def: string }>(
        `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def FROM pg_index x
         JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
         WHERE t.relname = 'users' AND NOT x.indisprimary AND NOT x.indisunique`,
      )
    ).rows;
    // per-column statistics targets (the search index's) are not part of the index's definition
    const targets = (
      await client.query<{ name: string; column: number; target: number }>(
        `SELECT i.relname AS name, a.attnum AS column, a.attstattarget AS target FROM pg_index x
         JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_attribute a ON a.attrelid = i.oid
         WHERE t.relname = 'users' AND NOT x.indisprimary AND NOT x.indisunique AND a.attstattarget > 0`,
      )
    ).rows;
    for (const index of indexes) await client.query(`DROP INDEX "${index.name}"`);
    const started = performance.now();
    await pipeline(
      userRows(count, Date.now()),
      client.query(
        copyFrom(
          `COPY users ("uniqueId", username, email, password, "firstName", "lastName", phone, "companyName", "userType", "userStatus", "accessLevel", "emailVerified", "esrtSynced", "createdAt", "lastLoginAt") FROM STDIN`,
        ),
      ),
    );
    const copyMs = performance.now() - started;
    await client.query("SET maintenance_work_mem = '512MB'");
    await client.query("SET max_parallel_maintenance_workers = 4");
    const indexStarted = performance.now();
    for (const index of indexes) await client.query(index.def);
    for (const t of targets) {
      await client.query(
        `ALTER INDEX "${t.name}" ALTER COLUMN ${Number(t.column)} SET STATISTICS ${Number(t.target)}`,
      );
    }
    await client.query("VACUUM ANALYZE users");
    return { copyMs, indexMs: performance.now() - indexStarted };
  } finally {
    await client.end();
  }
}

const DIRECTORY = `query($filter: UserFilter, $sort: UserSort, $first: Int, $after: String) {
  userDirectory(filter: $filter, sort: $sort, first: $first, after: $after) {
    __typename ... on AppError { code message }
    ... on QueryUserDirectorySuccess { data { nodes { id email } endCursor hasNextPage } } } }`;

const FACETS = `query($filter: UserFilter) { userDirectoryFacets(filter: $filter) {
  __typename ... on QueryUserDirectoryFacetsSuccess { data { total } } } }`;

export async function run(): Promise<BenchReport> {
  const cleanup = teardown();
  try {
    const gateway = await startInProcessGateway(cleanup);
    const { db, base } = gateway;
    const seeded = await seedUsers(gateway.config.DATABASE_URL ?? "", USERS);
    const admin = await createAdmin(db);
    const cookie = await signInOverHttp(base, admin.username);

    const gql = async (query: string, variables: Record<string, unknown>) => {
      const res = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookie },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: Record<string, { __typename: string; data?: unknown }> };
      const answer = Object.values(body.data ?? {})[0];
      if (!answer || answer.__typename === "AppError")
        throw new Error(`GraphQL refused: ${JSON.stringify(body)}`);
      return answer.data as { nodes: { id: number; email: string }[]; endCursor: string; total?: number };
    };
    const timed = async (fn: () => Promise<unknown>) => {
      const t = performance.now();
      await fn();
      return performance.now() - t;
    };

    // the searches: different text each round, like people typing different names
    const rnd = random(7);
    const emails = (
      await db.prisma.$queryRaw<{ email: string }[]>`
        SELECT email FROM users TABLESAMPLE SYSTEM (1) LIMIT ${SEARCH_ROUNDS}`
    ).map((r) => r.email);
    const nameParts = LAST_NAMES.map((l) => l.slice(1, 5));
    const searches: Record<string, () => Record<string, unknown>> = {
      "email prefix": () => ({
        filter: { q: (emails[Math.floor(rnd() * emails.length)] ?? "zoe").slice(0, 12) },
      }),
      "part of a last name": () => ({ filter: { q: nameParts[Math.floor(rnd() * nameParts.length)] } }),
      "part of a last name, by name": () => ({
        filter: { q: nameParts[Math.floor(rnd() * nameParts.length)] },
        sort: { by: "name", direction: "asc" },
      }),
      "filter combination": () => ({
        filter: {
          userTypes: ["client"],
          userStatuses: ["active"],
          emailVerified: true,
          createdFrom: new Date(Date.now() - (1 + rnd()) * YEAR_MS).toISOString(),
        },
        sort: { by: "name", direction: "asc" },
      }),
      "part of a name + filters": () => ({
        filter: {
          q: nameParts[Math.floor(rnd() * nameParts.length)],
          userTypes: ["prospect"],
          esrtSynced: false,
        },
        sort: { by: "lastLoginAt", direction: "desc" },
      }),
    };
    const scenarios: BenchReport["scenarios"] = [];
    for (const [name, variables] of Object.entries(searches)) {
      for (let w = 0; w < 10; w += 1) await gql(DIRECTORY, { ...variables(), first: PAGE_SIZE });
      const samples: number[] = [];
      for (let r = 0; r < SEARCH_ROUNDS; r += 1) {
        const v = variables();
        samples.push(await timed(() => gql(DIRECTORY, { ...v, first: PAGE_SIZE })));
      }
      scenarios.push({ name: `search: ${name}`, metrics: latencyMetrics("latency", samples) });
    }

    // facets
    for (const [name, filter] of [
      ["facets: no filter", {}],
      ["facets: part of a name", { q: "brie" }],
      ["facets: type + status", { userTypes: ["client"], userStatuses: ["active"] }],
    ] as const) {
      const samples: number[] = [];
      for (let r = 0; r < 20; r += 1) samples.push(await timed(() => gql(FACETS, { filter })));
      scenarios.push({ name, metrics: latencyMetrics("latency", samples) });
    }

    // deep paging: the cursor of page 999 (walked by the service), then page 1 vs page 1000 by
    // cursor over HTTP, and OFFSET to page 1000 (the same rows, the same SELECT) in alternating rounds
    const sort = { by: "createdAt", direction: "desc" } as const;
    const deepPages = Math.min(DEEP_PAGE, Math.floor(USERS / PAGE_SIZE));
    let after: string | null = null;
    for (let p = 1; p < deepPages; p += 1) {
      after = (await directoryPage(db, { filter: {}, sort, first: PAGE_SIZE, after })).endCursor;
    }
    const cursorPage = await gql(DIRECTORY, { sort, first: PAGE_SIZE, after });
    const offsetRows = async () =>
      db.prisma.$queryRaw<{ id: number }[]>`
        SELECT u.id FROM users u WHERE ${userFilterWhere({})}
        ORDER BY u."createdAt" DESC, u.id DESC OFFSET ${(deepPages - 1) * PAGE_SIZE} LIMIT ${PAGE_SIZE + 1}`;
    const offsetIds = (await offsetRows()).slice(0, PAGE_SIZE).map((r) => r.id);
    if (JSON.stringify(offsetIds) !== JSON.stringify(cursorPage.nodes.map((n) => n.id))) {
      throw new Error("OFFSET and cursor paging disagree on the deep page");
    }
    const first: number[] = [];
    const deep: number[] = [];
    const offset: number[] = [];
    const deepSql: number[] = [];
    for (let r = 0; r < 50; r += 1) {
      first.push(await timed(() => gql(DIRECTORY, { sort, first: PAGE_SIZE })));
      deep.push(await timed(() => gql(DIRECTORY, { sort, first: PAGE_SIZE, after })));
      deepSql.push(await timed(() => directoryPage(db, { filter: {}, sort, first: PAGE_SIZE, after })));
      offset.push(await timed(offsetRows));
    }
    const median = (s: number[]) =>
      quantile(
        [...s].sort((a, b) => a - b),
        0.5,
      );
    scenarios.push({ name: "page 1 by cursor (HTTP)", metrics: latencyMetrics("latency", first) });
    scenarios.push({ name: `page ${deepPages} by cursor (HTTP)`, metrics: latencyMetrics("latency", deep) });
    scenarios.push({
      name: `page ${deepPages} by cursor (query)`,
      metrics: latencyMetrics("latency", deepSql),
    });
    scenarios.push({
      name: `page ${deepPages} by OFFSET (query, baseline)`,
      metrics: latencyMetrics("latency", offset),
    });
    scenarios.push({
      name: "paging ratios (medians)",
      metrics: [
        { name: `page ${deepPages}/page 1 by cursor`, unit: "×", value: median(deep) / median(first) },
        {
          name: "OFFSET/cursor at the deep page (query)",
          unit: "×",
          value: median(offset) / median(deepSql),
        },
      ],
    });

    // the export of every user, streamed over HTTP from a gateway in a process of its own (as
    // deployed), whose RSS is sampled from /proc; the body is counted here, not kept
    const exporter = await startServer({
      name: "gateway (export)",
      script: "gateway/src/main.ts",
      env: {
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        DATABASE_URL: gateway.config.DATABASE_URL ?? "",
        REDIS_URL: gateway.config.REDIS_URL ?? "",
        NATS_URL: gateway.config.NATS_URL ?? "",
        REDIS_PREFIX: `${gateway.config.REDIS_PREFIX}export:`,
        EVENT_STREAM: gateway.config.EVENT_STREAM ?? "",
        SUBJECT_PREFIX: gateway.config.SUBJECT_PREFIX ?? "",
        SESSION_SECRET: "bench-export-session-secret-0123456789abcdef",
        PRO_APP_URL: "https://pro.esrt.example",
        // production's default asks an administrator to set up two-factor sign-in first (the
        // export answered 403 "Set up two-factor sign-in to continue."); the bench's admin has none
        TWO_FACTOR_REQUIRED_FOR_ADMINS: "0",
        WORKERS: "none",
        RELAY: "0",
      },
      readyPath: "/readyz",
      timeoutMs: 120_000,
      // its heap limit as deployed (npm run start)
      nodeArgs: deployedNodeArgs(),
    });
    cleanup.defer("stop the export gateway", () => exporter.stop());
    const exporterCookie = await signInOverHttp(exporter.url, admin.username);
    const exportAll = async (query: string) => {
      const res = await fetch(`${exporter.url}/api/admin/users/export.csv?${query}`, {
        headers: { Cookie: exporterCookie, "Accept-Encoding": "identity" },
      });
      if (!res.ok || !res.body)
        throw new Error(`export failed: ${res.status} ${res.ok ? "" : await res.text()}`);
      let bytes = 0;
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.byteLength;
        for (const b of chunk) if (b === 10) lines += 1;
      }
      return { bytes, lines };
    };
    // a first small export loads the route's code and warms the pool, as on a portal in use
    await exportAll("sort=createdAt&direction=asc&userTypes=mainAdmin");
    const rssBefore = processRssMiB(exporter.pid);
    const peak = processRssPeak(exporter.pid, 25);
    const exportStarted = performance.now();
    const { bytes, lines } = await exportAll("sort=createdAt&direction=asc");
    const exportMs = performance.now() - exportStarted;
    const rssPeakMiB = peak.stop();
    const exported = lines - 1;
    if (exported < USERS) throw new Error(`the export held ${exported} rows, expected ${USERS + 1}`);
    const exportMetrics: Metric[] = [
      { name: "rows", unit: "", value: exported },
      { name: "duration", unit: "s", value: exportMs / 1000 },
      { name: "rows/s", unit: "", value: exported / (exportMs / 1000) },
      { name: "size", unit: "MiB", value: bytes / (1024 * 1024) },
      { name: "gateway RSS before", unit: "MiB", value: rssBefore },
      { name: "gateway RSS growth", unit: "MiB", value: rssPeakMiB - rssBefore },
    ];
    scenarios.push({ name: "export of every user (HTTP, streamed)", metrics: exportMetrics });
    scenarios.unshift({
      name: `seed ${USERS.toLocaleString("en")} users`,
      metrics: [
        { name: "COPY", unit: "s", value: seeded.copyMs / 1000 },
        { name: "index build", unit: "s", value: seeded.indexMs / 1000 },
      ],
    });
    return {
      name: "User directory",
      notes: [
        `${USERS.toLocaleString("en")} users seeded by COPY; searches through GraphQL over HTTP, ${SEARCH_ROUNDS} rounds each, ${PAGE_SIZE} a page; goal search p95 ≤ 50 ms.`,
        `Paging: page ${deepPages} by cursor vs page 1 (goal ratio ≈ 1), OFFSET to the same page as the baseline, in alternating rounds.`,
        "Export: every user, streamed over HTTP in 1,000-row keyset batches by a gateway process of its own (production mode, no workers); its RSS from /proc, growth = peak − before (goal ≤ 100 MB).",
      ],
      scenarios,
    };
  } finally {
    await cleanup.run();
  }
}
