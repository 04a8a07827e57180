import type { Db } from "@services/shared/db";
import type { UserType } from "@services/shared/generated/prisma/enums";
import { testDb } from "@services/shared/testing/db";
import { createAdmin, createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import type { Express } from "express";
import request from "supertest";
import { type IsolatedApp, isolatedApp } from "./appHarness";
import { type IdentityApp, identityApp, leakedSecrets, sessionCookieOf } from "./identityHarness";
import { type FilesServer, startFilesServer } from "./uploadHarness";

// Per-file fixtures for the gateway's route tests: each `use…` registers the file's beforeAll and
// afterAll and hands back an object that beforeAll fills in, so a test file states its app in one
// line; plus the GraphQL call and the sign-in every such file makes.

/** An {@link IdentityApp} with this run's shared database connection. */
export type IdentityFixture = IdentityApp & { db: Db };

/**
 * Starts an {@link identityApp} (with `rateLimits` and `options`) before the file's tests and closes
 * it after them. With `options.noLeaks`, the file ends by expecting that no recorded body showed a
 * secret ({@link leakedSecrets}, with the extra secrets `noLeaks` answers then). The returned object
 * is empty until beforeAll has run.
 */
export function identityAppFixture(
  rateLimits: Parameters<typeof identityApp>[0] = {},
  options: Parameters<typeof identityApp>[1] & { noLeaks?: true | (() => string[]) } = {},
): IdentityFixture {
  const { noLeaks, ...appOptions } = options;
  const fixture = {} as IdentityFixture;
  beforeAll(async () => {
    const db = await testDb();
    Object.assign(fixture, await identityApp(rateLimits, appOptions), { db });
  });
  afterAll(async () => {
    if (noLeaks) expect(leakedSecrets(fixture.bodies, noLeaks === true ? [] : noLeaks())).toEqual([]);
    await fixture.close();
  });
  return fixture;
}

/**
 * Starts an {@link isolatedApp} (a database of the file's own, with `options.settings`) before the
 * file's tests and closes it after them, once `options.beforeClose` (what the file started on it)
 * has finished. The returned object is empty until beforeAll has run.
 */
export function isolatedAppFixture(
  options: Parameters<typeof isolatedApp>[0] & { beforeClose?: () => Promise<void> } = {},
): IsolatedApp {
  const { beforeClose, ...appOptions } = options;
  const fixture = {} as IsolatedApp;
  beforeAll(async () => {
    Object.assign(fixture, await isolatedApp(appOptions));
  });
  afterAll(async () => {
    await beforeClose?.();
    await fixture.close();
  });
  return fixture;
}

/**
 * Starts a {@link FilesServer} (the app on a socket, with a data directory of its own) before the
 * file's tests and closes it after them. The returned object is empty until beforeAll has run.
 */
export function filesServerFixture(): FilesServer {
  const fixture = {} as FilesServer;
  beforeAll(async () => {
    Object.assign(fixture, await startFilesServer());
  });
  afterAll(async () => {
    await fixture.close();
  });
  return fixture;
}

/** A GraphQL error as the tests read it. */
export interface GqlError {
  message?: string;
  extensions?: { code?: string };
}

/**
 * Posts `query` with `variables` to `app`'s /graphql as the session `cookie`; the answer's text is
 * added to `bodies` when given (for the secrets scan).
 */
export async function postGraphql(
  app: Express,
  query: string,
  cookie = "",
  variables: Record<string, unknown> = {},
  bodies?: string[],
) {
  const res = await request(app).post("/graphql").set("Cookie", cookie).send({ query, variables });
  bodies?.push(res.text);
  return {
    status: res.status,
    text: res.text,
    data: res.body.data ?? null,
    errors: res.body.errors as GqlError[] | undefined,
  };
}

/**
 * The `gql(query, cookie, variables)` of a test file: {@link postGraphql} to `harness`'s app, each
 * answer's text added to `bodies` when given.
 */
export function graphqlClient(harness: { readonly app: Express }, bodies?: string[]) {
  return (query: string, cookie = "", variables: Record<string, unknown> = {}) =>
    postGraphql(harness.app, query, cookie, variables, bodies);
}

/**
 * Signs `login` in over /api/login and answers the session cookie.
 * @throws when the sign-in sets no session cookie.
 */
export async function sessionFor(app: Express, login: string, password = TEST_PASSWORD): Promise<string> {
  const res = await request(app).post("/api/login").send({ login, password });
  const cookie = sessionCookieOf(res);
  if (!cookie) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return cookie;
}

/**
 * Creates a user of `userType` (with `fields`) in `fixture.db` and signs them in on `fixture.app`;
 * answers the session cookie. @throws when the sign-in sets no session cookie.
 */
export async function signedInAs(
  fixture: { app: Express; db: Db },
  userType: UserType,
  fields: Parameters<typeof createUser>[1] = {},
): Promise<string> {
  const user = await createUser(fixture.db, { ...fields, userType });
  return sessionFor(fixture.app, user.username);
}

/** The refusal's code, whether answered as a top-level error or as a typed AppError result. */
export function refusal(res: { data: Record<string, unknown> | null; errors?: GqlError[] }, field: string) {
  const typed = res.data?.[field] as { __typename?: string; code?: string } | null | undefined;
  if (typed?.__typename === "AppError") return typed.code;
  return res.errors?.[0]?.extensions?.code;
}

/**
 * The callers a manage:config field refuses, as [cookie, code] pairs: the signed out
 * (UNAUTHENTICATED), then one signed-in user of each of `userTypes`, in order (FORBIDDEN).
 */
export async function refusedCallers<T extends string>(
  signIn: (userType: T) => Promise<string>,
  userTypes: readonly T[],
): Promise<[string, string][]> {
  const cases: [string, string][] = [["", "UNAUTHENTICATED"]];
  for (const userType of userTypes) cases.push([await signIn(userType), "FORBIDDEN"]);
  return cases;
}

/**
 * Signs `login` in over /api/login, expects the 200 and answers the session cookie ("" when the
 * answer set none); the answer's text is added to `bodies` when given (for the secrets scan).
 */
export async function signInOk(
  app: Express,
  login: string,
  password = TEST_PASSWORD,
  bodies?: string[],
): Promise<string> {
  const res = await request(app).post("/api/login").send({ login, password });
  bodies?.push(res.text);
  expect(res.status).toBe(200);
  return sessionCookieOf(res) ?? "";
}

/** The Redis key of the session a `portal.sid=s:<sid>.<sig>` cookie names. */
export function sessionStoreKey(cookie: string): string {
  const sid =
    decodeURIComponent(cookie.split("=")[1] ?? "")
      .slice(2)
      .split(".")[0] ?? "";
  return `${process.env.REDIS_PREFIX ?? "portal:"}sess:${sid}`;
}

/** A prospect's registration as `username` (email `<username>@example.test`, the test password). */
export function prospectRegistration(username: string, firstName: string, lastName: string) {
  return {
    username,
    email: `${username}@example.test`,
    password: TEST_PASSWORD,
    firstName,
    lastName,
    userType: "prospect",
  };
}

/** Signs in a new client, then a new mainAdmin, on `fixture` (each expecting the 200); answers their cookies. */
export async function clientAndAdminCookies(
  fixture: IdentityFixture,
): Promise<{ client: string; admin: string }> {
  const client = await signInOk(fixture.app, (await createUser(fixture.db, { userType: "client" })).username);
  const admin = await signInOk(fixture.app, (await createAdmin(fixture.db)).username);
  return { client, admin };
}

/** A GraphQL answer on an identity app, with the session cookie it set. */
export interface IdentityGqlAnswer {
  status: number;
  cookie: string | undefined;
  data: Record<string, unknown> | null;
  errors: { message: string; extensions?: { code?: string } }[] | undefined;
}

/**
 * Posts `query` with `variables` to `fixture`'s /graphql as the session `cookie` (with `headers`),
 * adding the answer's text to `fixture.bodies` for the secrets scan.
 */
export async function identityGql(
  fixture: IdentityFixture,
  query: string,
  variables: Record<string, unknown> = {},
  cookie = "",
  headers: Record<string, string> = {},
): Promise<IdentityGqlAnswer> {
  const res = await request(fixture.app)
    .post("/graphql")
    .set("Cookie", cookie)
    .set(headers)
    .send({ query, variables });
  fixture.bodies.push(res.text);
  return {
    status: res.status,
    cookie: sessionCookieOf(res),
    data: res.body.data ?? null,
    errors: res.body.errors,
  };
}

/**
 * Expects each of `calls` ([query, the field it answers, variables]) to be refused to each caller of
 * `cases` ({@link refusedCallers}) with that caller's code, caller by caller, in order.
 */
export async function expectRefusals(
  gql: (
    query: string,
    cookie: string,
    variables?: Record<string, unknown>,
  ) => Promise<{ data: Record<string, unknown> | null; errors?: GqlError[] }>,
  cases: [string, string][],
  calls: [query: string, field: string, variables?: Record<string, unknown>][],
): Promise<void> {
  for (const [cookie, code] of cases) {
    for (const [query, field, variables] of calls) {
      expect(refusal(await gql(query, cookie, variables), field)).toBe(code);
    }
  }
}
