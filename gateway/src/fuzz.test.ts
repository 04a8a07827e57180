import { createServer, type Server } from "node:http";
import { gzipSync } from "node:zlib";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { apiRoutes, contractProblems, type RouteInfo } from "@gateway/testing/openApiContract";
import { applySnapshot, createApiKey } from "@services/esrt-sync";
import { connectPostgres, type Db } from "@services/shared/db";
import type { RateLimitRules } from "@services/shared/rateLimit";
import type { RedisClient } from "@services/shared/redis";
import { migratedScratchDatabase } from "@services/shared/testing/db";
import { createAdmin, createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import { syncSnapshot } from "@services/user";
import type { Express } from "express";
import * as fc from "fast-check";
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
} from "graphql";
import request from "supertest";
import { createApp } from "./app";
import { schema } from "./graphql/schema";
import { fakeWebDist, redisSessionStore, testConfig, testRedis } from "./testing/appHarness";

// Issue 8, "Bad input: a clear 4xx, never a 500": thousands of generated malformed requests (wrong
// types, NUL, unpaired surrogates, huge, deep, odd encodings) against every REST route under /api
// (found by walking Express's router, so a new route is covered without touching this file) and every
// GraphQL query and mutation (found by walking the schema), signed out, as a client and as a
// mainAdmin (and the REST routes also with a Pro-app API key). No answer may be a 5xx or GraphQL's INTERNAL_SERVER_ERROR, none may show a stack, a file
// path or a database message, and the process is ready afterwards. Every REST answer holds to the
// OpenAPI document (issue 22): a status its operation lists, a body its schema validates.
//
// The app runs on its own scratch database and Redis key prefix, with rate limits out of the way, so
// the requests reach the handlers and nothing they change touches other test files' data.
// FUZZ_SEED replays a run (the seed is in every failure message); FUZZ_SCALE multiplies the runs.

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
/** Property runs (each a batch of 1 to 3 concurrent requests) per identity and surface. */
const RUNS = {
  rest: Math.round(350 * SCALE),
  graphql: Math.round(280 * SCALE),
  raw: Math.round(200 * SCALE),
};

/** What no answer may show: a stack frame, a file path, or the database's or Prisma's words. */
const LEAK =
  /\s{4}at |\/work\/|\.ts:\d|node_modules|prisma|invalid byte sequence|unsupported unicode escape|SQLSTATE|relation "|\bP[12]\d{3}\b|code: ?\\?"[0-9A-Z]{5}\\?"|stacktrace/i;

type Identity = "anon" | "client" | "admin" | "key";
/** The identities of a browser: signed out, or a session */
const IDENTITIES: Identity[] = ["anon", "client", "admin"];
/** ...and the Pro app's API key, which REST routes must refuse (or, two of them, serve) cleanly */
const REST_IDENTITIES: Identity[] = [...IDENTITIES, "key"];

interface Spec {
  identity: Identity;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** the REST route (METHOD /path) or GraphQL field it aims at */
  target: string;
  graphql: boolean;
}

// ---- the surface ----------------------------------------------------------------------------------

interface Operation {
  kind: "query" | "mutation";
  field: GraphQLField<unknown, unknown>;
}

/** Every root query and mutation of the schema. */
function graphqlOperations(): Operation[] {
  const query = Object.values(schema.getQueryType()?.getFields() ?? {}).map((field) => ({
    kind: "query" as const,
    field,
  }));
  const mutation = Object.values(schema.getMutationType()?.getFields() ?? {}).map((field) => ({
    kind: "mutation" as const,
    field,
  }));
  return [...query, ...mutation];
}

// ---- values ---------------------------------------------------------------------------------------

function futureSlot(days: number, hourUtc: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  d.setUTCHours(hourUtc, 0, 0, 0);
  return d.toISOString();
}

const SPECIAL_TEXT = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "caf\ud800e",
  "\udfff",
  "\udbff\udbff",
  "😀",
  "\u202e\ufeff",
  "%00",
  "%E0%A4%A",
  "../../etc/passwd",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "{{x}}",
  " ",
  "",
  "null",
  "NaN",
  "-1",
  "0",
  "1",
  "2147483647",
  "2147483648",
  "99999999999999999999",
  "1e309",
  "0x10",
  "next tuesday",
  "2026-12-01 17:00",
  "2030-02-30T17:00:00Z",
  "9999-12-31T23:59:59Z",
  "0000-01-01T00:00:00Z",
  "+275760-09-13T00:00:00Z",
  "2030-01-07",
  "2030-13-45",
  "Europe/Paris",
  "Mars/Olympus",
  "phone",
  "zoom",
  "teams",
  "client",
  "mainAdmin",
  "pending",
  "cancelled",
  "-dateTime",
  "manage:users",
  "jane@example.com",
  "JANE@EXAMPLE.COM\u0000",
  "Pass-w0rd-long!",
  "ESRT-ABCDEFGH",
  futureSlot(3, 17),
  futureSlot(9, 18),
  futureSlot(20, 21),
];

const safe = (s: string) => !LEAK.test(s);

// NUL most often: text columns refuse it, while they store an unpaired surrogate as U+FFFD
const BAD_CHARS = ["\u0000", "\u0000", "\u0000", "\ud800", "\udfff"];

/** Text that PostgreSQL cannot store: a NUL or an unpaired surrogate somewhere in it. */
const badTextArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(fc.constantFrom(...SPECIAL_TEXT), fc.string({ maxLength: 8 })),
    fc.constantFrom(...BAD_CHARS),
    fc.oneof(fc.constant(""), fc.string({ maxLength: 8 })),
  )
  .map(([a, b, c]) => a + b + c)
  .filter(safe);

/** Short text: unstorable, the nasty cases above, arbitrary code units (surrogates included). */
const shortTextArb: fc.Arbitrary<string> = fc
  .oneof(
    { arbitrary: badTextArb, weight: 4 },
    { arbitrary: fc.constantFrom(...SPECIAL_TEXT), weight: 4 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 30 }), weight: 2 },
  )
  .filter(safe);

/** Text: short text, and now and then a long run. */
const textArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: shortTextArb, weight: 10 },
  { arbitrary: fc.string({ unit: "binary", minLength: 500, maxLength: 4000 }).filter(safe), weight: 1 },
);

const numberArb: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.integer({ min: -2, max: 12 }), weight: 3 },
  {
    arbitrary: fc.constantFrom(2147483647, 2147483648, -2147483649, Number.MAX_SAFE_INTEGER, 1.5, 1e308, -0),
    weight: 2,
  },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
);

const FIELD_NAMES = [
  "login",
  "password",
  "username",
  "email",
  "firstName",
  "lastName",
  "phone",
  "companyName",
  "notes",
  "userType",
  "token",
  "userId",
  "questions",
  "answers",
  "question",
  "answer",
  "questionIndex",
  "appointmentType",
  "dateTime",
  "status",
  "timeZone",
  "reason",
  "currentPassword",
  "newPassword",
  "permissions",
  "id",
  "uniqueId",
  "__proto__",
  "constructor",
  "toString",
];
const fieldNameArb = fc.oneof(
  { arbitrary: fc.constantFrom(...FIELD_NAMES), weight: 4 },
  { arbitrary: shortTextArb, weight: 1 },
);

const scalarArb: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: textArb, weight: 5 },
  { arbitrary: numberArb, weight: 2 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
);

/** Any JSON value: mostly scalars, nested arrays and objects with the portal's field names. */
const valueArb: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { arbitrary: scalarArb, weight: 6 },
    { arbitrary: fc.array(tie("value"), { maxLength: 4 }), weight: 1 },
    { arbitrary: fc.dictionary(fieldNameArb, tie("value"), { maxKeys: 4 }), weight: 1 },
  ),
})).value;

/** Percent-encodes a path segment or query value byte by byte (what a browser sends for any text). */
function encodePart(value: string): string {
  return [...Buffer.from(value, "utf8")]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}

/** A path segment: encoded text or numbers, or raw escapes that decode to nothing valid. */
const segmentArb = fc.oneof(
  {
    arbitrary: fc
      .oneof(
        shortTextArb.filter((t) => t.length > 0),
        numberArb.map(String),
      )
      .map(encodePart),
    weight: 4,
  },
  {
    arbitrary: fc.constantFrom(
      "%00",
      "a%00",
      "%E0%A4%A",
      "%",
      "%ZZ",
      "%ED%A0%80",
      "%C0%AF",
      "..",
      "%2F",
      "a%2Fb",
    ),
    weight: 3,
  },
  {
    arbitrary: fc.constantFrom("1", "2", "3", "4", "5", "2147483647", "2147483648", "0", "-1", "1e3"),
    weight: 3,
  },
);

const QUERY_NAMES = [
  "from",
  "to",
  "status",
  "userId",
  "sort",
  "permissions",
  "permissions[]",
  "userId[a]",
  "action",
  "actorId",
  "targetUserId",
  // the user directory's export (issue 11)
  "q",
  "userTypes",
  "emailVerified",
  "createdFrom",
  "direction",
];

const queryArb = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...QUERY_NAMES), shortTextArb.map(encodePart)),
      fc.oneof(
        shortTextArb.map(encodePart),
        fc.constantFrom("%00", "%E0%A4%A", "", "2147483648", "2030-01-07"),
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`));

/** A valid-looking body for a route, so that one bad field at a time reaches deep validation. */
function templateFor(
  route: string,
  ids: { client: number; admin: number; clientUniqueId: string },
): Record<string, unknown> {
  const questions = [
    { question: "First pet's name?", answer: "Rex" },
    { question: "City of birth?", answer: "Springfield" },
    { question: "Favourite colour?", answer: "Blue" },
  ];
  const templates: Record<string, Record<string, unknown>> = {
    "POST /api/login": { login: "nobody", password: "wrong-password" },
    "POST /api/register": {
      username: "fuzz_user",
      email: "fuzz@example.test",
      password: "Pass-w0rd-long!",
      firstName: "Fuzz",
      lastName: "Tester",
      userType: "prospect",
    },
    "POST /api/appointments": { appointmentType: "phone", dateTime: futureSlot(5, 17), notes: "Hello" },
    "POST /api/admin/appointments/:id/cancel": { reason: "Because" },
    "POST /api/admin/appointments/:id/reschedule": { dateTime: futureSlot(6, 18) },
    "POST /api/security-questions": { userId: ids.client, questions },
    "POST /api/verify-security-answers": {
      userId: ids.client,
      answers: [{ questionIndex: 0, answer: "Rex" }],
    },
    "POST /api/user/notes": { notes: "Call me" },
    "POST /api/esrt/ack": { uniqueId: ids.clientUniqueId, version: 1 },
    "POST /api/user/password": { currentPassword: "not-the-password", newPassword: "Pass-w0rd-long!" },
    "POST /api/reset-password": { email: "fuzz@example.test" },
    "POST /api/reset-password/confirm": { token: "t".repeat(40), password: "Pass-w0rd-long!" },
    "POST /api/verify-email": { token: "t".repeat(40) },
    "POST /api/verify-email/resend": { email: "fuzz@example.test" },
    "POST /api/admin/users/import": {
      csv: "firstName,lastName,username,email,phone,companyName\nFuzz,Tester,fuzz_import,fuzz@import.test,,",
      dryRun: true,
    },
  };
  return templates[route] ?? {};
}

const JSON_TYPES = ["application/json", "application/json; charset=utf-8", "application/json; charset=UTF-8"];
const ODD_TYPES = [
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "application/json; charset=x-nope",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/graphql",
];

interface BodyChoice {
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** A request body: JSON (one field of a template broken, or anything), or a malformed encoding. */
function bodyArb(template: Record<string, unknown>, bodyLimit: number): fc.Arbitrary<BodyChoice> {
  const own = Object.keys(template);
  const keys = [...own, ...FIELD_NAMES];
  // mostly the route's own fields, so that each bad value meets the rule that must refuse it
  const keyArb =
    own.length > 0
      ? fc.oneof({ arbitrary: fc.constantFrom(...own), weight: 4 }, { arbitrary: fieldNameArb, weight: 1 })
      : fieldNameArb;
  const json = (value: unknown, type = "application/json") => ({
    headers: { "Content-Type": type },
    body: JSON.stringify(value),
  });
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc.tuple(keyArb, badTextArb).map(([key, value]) => json({ ...template, [key]: value })),
    },
    {
      weight: 10,
      arbitrary: fc
        .tuple(
          fc.array(fc.tuple(keyArb, valueArb), { minLength: 1, maxLength: 3 }),
          fc.constantFrom(...JSON_TYPES),
        )
        .map(([changes, type]) => json({ ...template, ...Object.fromEntries(changes) }, type)),
    },
    { weight: 3, arbitrary: fc.dictionary(fieldNameArb, valueArb, { maxKeys: 8 }).map((v) => json(v)) },
    { weight: 2, arbitrary: valueArb.map((v) => json(v)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...keys), fc.integer({ min: 20, max: 3000 }))
        .map(([key, depth]) => ({
          headers: { "Content-Type": "application/json" },
          body: `{${JSON.stringify(key)}:${"[".repeat(depth)}1${"]".repeat(depth)}}`,
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...keys),
          fc.constantFrom(bodyLimit - 200, bodyLimit + 10),
          fc.constantFrom("x", "\u0000", "é"),
        )
        .map(([key, length, ch]) => json({ ...template, [key]: ch.repeat(length / (ch === "é" ? 2 : 1)) })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            "{",
            '{"a":',
            "[1,",
            "\u0000",
            '\ufeff{"a":1}',
            "'x'",
            "undefined",
            '{"a":"\\ud800"}',
            '{"a":"\\u0000"}',
            "nul\u0000l",
          ),
          fc.constantFrom(...JSON_TYPES),
        )
        .map(([body, type]) => ({ headers: { "Content-Type": type }, body })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(valueArb, fc.constantFrom(...ODD_TYPES)).map(([v, type]) => ({
        headers: { "Content-Type": type },
        body: JSON.stringify({ ...template, x: v }),
      })),
    },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => ({
        headers: { "Content-Type": "application/json" },
        body: Buffer.from(bytes),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom("gzip", "deflate", "br", "x-unknown"), fc.boolean(), valueArb)
        .map(([encoding, valid, v]) => ({
          headers: { "Content-Type": "application/json", "Content-Encoding": encoding },
          body:
            valid && encoding === "gzip"
              ? gzipSync(JSON.stringify({ ...template, x: v }))
              : Buffer.from("not compressed"),
        })),
    },
    { weight: 1, arbitrary: fc.constant({ headers: {}, body: undefined }) },
  );
}

// ---- GraphQL --------------------------------------------------------------------------------------

/** A value for an argument of `type`: usually of its type (with nasty contents), sometimes not. */
/** Ints mostly in GraphQL's 32-bit range (small ones name rows), sometimes beyond or fractional. */
const intArb: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.integer({ min: -2, max: 12 }), weight: 6 },
  { arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), weight: 2 },
  { arbitrary: fc.constantFrom(0, -1, 2147483647), weight: 1 },
  { arbitrary: numberArb, weight: 1 },
);

/** A value for an argument of `type`: usually of its type (with nasty contents), sometimes not. */
function inputArb(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  const typed = ((): fc.Arbitrary<unknown> => {
    if (isNonNullType(type)) return inputArb(type.ofType, depth);
    if (isListType(type)) {
      return fc.oneof(
        { arbitrary: fc.array(inputArb(type.ofType, depth + 1), { maxLength: 4 }), weight: 4 },
        { arbitrary: inputArb(type.ofType, depth + 1), weight: 1 },
      );
    }
    if (isEnumType(type)) {
      return fc.oneof(
        { arbitrary: fc.constantFrom(...type.getValues().map((v) => v.name)), weight: 3 },
        { arbitrary: shortTextArb, weight: 1 },
      );
    }
    if (isInputObjectType(type)) {
      if (depth > 3) return fc.constant({});
      const fields = Object.fromEntries(
        Object.values(type.getFields()).map((f) => [f.name, inputArb(f.type, depth + 1)]),
      );
      return fc.oneof(
        { arbitrary: fc.record(fields), weight: 6 },
        { arbitrary: fc.record(fields, { requiredKeys: [] }), weight: 1 },
      );
    }
    if (isScalarType(type) && (type.name === "Int" || type.name === "SafeInt")) return intArb;
    if (isScalarType(type) && type.name === "Float") return numberArb;
    if (isScalarType(type) && type.name === "DateTime") {
      // mostly instants (else an operation with a required DateTime never executes), text now and then
      return fc.oneof(
        {
          arbitrary: fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString()),
          weight: 3,
        },
        { arbitrary: textArb, weight: 1 },
      );
    }
    if (isScalarType(type) && type.name === "Boolean") return fc.boolean();
    return textArb;
  })();
  // a value of another type now and then; rarer inside lists and objects, so whole inputs still pass
  return fc.oneof({ weight: depth === 0 ? 12 : 30, arbitrary: typed }, { weight: 1, arbitrary: valueArb });
}

/**
 * A value GraphQL itself accepts for `type` (enum values, instants, small ids, safe text): what the
 * minimal calls of {@link minimalCallArb} send, so every operation runs often however many arguments
 * and nested inputs it has. Only required fields of an input object are given.
 */
function acceptedArb(type: GraphQLInputType): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return acceptedArb(type.ofType);
  if (isListType(type)) return fc.array(acceptedArb(type.ofType), { maxLength: 2 });
  if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((v) => v.name));
  if (isInputObjectType(type)) {
    const required = Object.values(type.getFields()).filter((f) => isNonNullType(f.type));
    return fc.record(Object.fromEntries(required.map((f) => [f.name, acceptedArb(f.type)])));
  }
  if (isScalarType(type) && (type.name === "Int" || type.name === "SafeInt"))
    return fc.integer({ min: 1, max: 5000 });
  if (isScalarType(type) && type.name === "Float") return fc.double({ min: 0, max: 1e6, noNaN: true });
  if (isScalarType(type) && type.name === "DateTime") {
    return fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString());
  }
  if (isScalarType(type) && type.name === "Boolean") return fc.boolean();
  return fc.string({ maxLength: 24 });
}

/** An operation called with its required arguments only, each a value GraphQL accepts. */
function minimalCallArb(op: Operation): fc.Arbitrary<{ body: Record<string, unknown> }> {
  const required = op.field.args.filter((a) => isNonNullType(a.type));
  const selection = selectionOf(op.field.type);
  return fc.tuple(...required.map((a) => acceptedArb(a.type))).map((values) => {
    const defs = required.map((a) => `$${a.name}: ${String(a.type)}`);
    const call = required.length > 0 ? `(${required.map((a) => `${a.name}: $${a.name}`).join(", ")})` : "";
    return {
      body: {
        query: `${op.kind} F${defs.length > 0 ? `(${defs.join(", ")})` : ""} { r: ${op.field.name}${call} ${selection} }`,
        variables: Object.fromEntries(required.map((a, i) => [a.name, values[i]])),
        operationName: "F",
      },
    };
  });
}

/** A selection of every field reachable without arguments, three levels deep (unions by member). */
function selectionOf(type: GraphQLOutputType, depth = 0): string {
  const named = getNamedType(type);
  if (isScalarType(named) || isEnumType(named)) return "";
  if (depth >= 3) return "{ __typename }";
  if (isUnionType(named)) {
    return `{ __typename ${named
      .getTypes()
      .map((t) => `... on ${t.name} ${selectionOf(t, depth + 1)}`)
      .join(" ")} }`;
  }
  if (isObjectType(named) || isInterfaceType(named)) {
    const fields = Object.values(named.getFields()).filter((f) =>
      f.args.every((a) => !isNonNullType(a.type)),
    );
    return `{ __typename ${fields.map((f) => `${f.name} ${selectionOf(f.type, depth + 1)}`).join(" ")} }`;
  }
  return "";
}

/** A GraphQL string literal for any text (JSON's escapes are GraphQL's; unpaired ones do not parse). */
function literalOf(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "0";
  if (typeof value === "boolean" || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.map(literalOf).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([k]) =>
      /^[_A-Za-z][_0-9A-Za-z]*$/.test(k),
    );
    return `{${entries.map(([k, v]) => `${k}: ${literalOf(v)}`).join(", ")}}`;
  }
  return "null";
}

function operationArb(op: Operation): fc.Arbitrary<{ body: Record<string, unknown> }> {
  const args = op.field.args;
  const selection = selectionOf(op.field.type);
  return fc
    .tuple(
      // an optional input object (a filter of many typed fields) is left out more often, so that the
      // operation still runs often enough to meet its other arguments' bad values
      fc.tuple(
        ...args.map((a) =>
          fc.option(inputArb(a.type), {
            freq: !isNonNullType(a.type) && isInputObjectType(getNamedType(a.type)) ? 2 : 12,
            nil: undefined,
          }),
        ),
      ),
      fc.constantFrom("variables", "variables", "variables", "literals"),
    )
    .map(([values, style]) => {
      const present = args.map((a, i) => ({ arg: a, value: values[i] })).filter((p) => p.value !== undefined);
      if (style === "literals") {
        const list = present.map((p) =>
          isEnumType(getNamedType(p.arg.type)) &&
          typeof p.value === "string" &&
          /^[_A-Za-z]\w*$/.test(p.value)
            ? `${p.arg.name}: ${p.value}`
            : `${p.arg.name}: ${literalOf(p.value)}`,
        );
        const call = list.length > 0 ? `(${list.join(", ")})` : "";
        return { body: { query: `${op.kind} { r: ${op.field.name}${call} ${selection} }` } };
      }
      const defs = present.map((p) => `$${p.arg.name}: ${String(p.arg.type)}`);
      const call =
        present.length > 0 ? `(${present.map((p) => `${p.arg.name}: $${p.arg.name}`).join(", ")})` : "";
      return {
        body: {
          query: `${op.kind} F${defs.length > 0 ? `(${defs.join(", ")})` : ""} { r: ${op.field.name}${call} ${selection} }`,
          variables: Object.fromEntries(present.map((p) => [p.arg.name, p.value])),
          operationName: "F",
        },
      };
    });
}

/** Requests GraphQL should refuse as a whole: broken documents, odd shapes, unsupported features. */
const graphqlOddArb: fc.Arbitrary<{ body: unknown; get?: string }> = fc.oneof(
  textArb.map((query) => ({ body: { query } })),
  fc
    .integer({ min: 5, max: 400 })
    .map((n) => ({ body: { query: `{ ${"me { ".repeat(n)}id${" }".repeat(n)} }` } })),
  fc.integer({ min: 10, max: 200 }).map((n) => ({
    body: { query: `{ ${Array.from({ length: n }, (_, i) => `a${i}: health`).join(" ")} }` },
  })),
  fc.constant({ body: { query: "subscription { health }" } }),
  fc.constant({ body: { query: "query A { health } query A { health }" } }),
  fc.constant({ body: { query: "{ health }", operationName: "Nope" } }),
  fc.constant({ body: [{ query: "{ health }" }, { query: "{ health }" }] }),
  valueArb.map((query) => ({ body: { query } })),
  valueArb.map((variables) => ({ body: { query: "query($a: Int) { health }", variables } })),
  fc
    .tuple(fc.constantFrom(1, 2, "1"), fc.oneof(textArb, numberArb))
    .map(([version, sha256Hash]) => ({ body: { extensions: { persistedQuery: { version, sha256Hash } } } })),
  textArb.map((q) => ({ body: undefined, get: `?query=${encodePart(q)}` })),
  fc.constant({ body: undefined, get: `?query=${encodePart("mutation { logout }")}` }),
  fc.constant({ body: undefined, get: `?query=${encodePart("{ health }")}&variables=%7Bnope` }),
);

// ---- the run --------------------------------------------------------------------------------------

let app: Express;
let server: Server;
let stop: () => Promise<void>;
let db: Db;
let redis: RedisClient;
let scratch: { url: string; drop(): Promise<void> };
let web: ReturnType<typeof fakeWebDist>;
const cookies: Record<Exclude<Identity, "key">, string> = { anon: "", client: "", admin: "" };
let apiKey = "";
let clientUniqueId = "";
const users: Record<"client" | "admin", { id: number; username: string; userType: "client" | "mainAdmin" }> =
  {
    client: { id: 0, username: "", userType: "client" },
    admin: { id: 0, username: "", userType: "mainAdmin" },
  };
let bodyLimit = 100 * 1024;
const reached = new Map<string, number>();
let sent = 0;

const GENEROUS = { points: 1_000_000, durationSec: 60 };
const NO_BACKOFF = { free: 1_000_000, maxDelaySec: 1, memorySec: 60 };
const rateLimits: RateLimitRules = {
  loginIp: GENEROUS,
  loginAccount: NO_BACKOFF,
  loginAccountAny: NO_BACKOFF,
  register: GENEROUS,
  resetIp: GENEROUS,
  resetEmail: GENEROUS,
  verifyIp: GENEROUS,
  securityAnswers: NO_BACKOFF,
};

beforeAll(async () => {
  scratch = await migratedScratchDatabase();
  db = await connectPostgres(scratch.url);
  redis = await testRedis();
  web = fakeWebDist();
  const base = testConfig();
  const cfg = testConfig({ REDIS_PREFIX: `${base.REDIS_PREFIX}fuzz:` });
  bodyLimit = /kb$/i.test(cfg.JSON_BODY_LIMIT) ? Number.parseInt(cfg.JSON_BODY_LIMIT, 10) * 1024 : bodyLimit;
  ({ app, stop } = await createApp({
    config: cfg,
    db,
    readiness: { postgres: () => db.ping(), redis: async () => void (await redis.ping()) },
    sessionStore: redisSessionStore(redis, cfg),
    webDist: web.dir,
    redis,
    rateLimits,
  }));
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const client = await createUser(db, { userType: "client" });
  const admin = await createAdmin(db);
  users.client = { id: client.id, username: client.username, userType: "client" };
  users.admin = { id: admin.id, username: admin.username, userType: "mainAdmin" };
  clientUniqueId = client.uniqueId;
  // the client is known to the sync service at versions 1 and 2, so acks reach every outcome
  for (const version of [1, 2]) {
    await db.prisma.$transaction((tx) =>
      applySnapshot(tx, { userId: client.id, snapshot: { ...syncSnapshot(client), version } }),
    );
  }
  ({ key: apiKey } = await createApiKey({ db, name: "fuzz", actorId: null }));
  await ensureSignedIn();
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await stop?.();
  await db?.close();
  redis?.destroy();
  web?.remove();
  await scratch?.drop();
});

/** Signs the client and the admin in again if a generated request ended or changed their session. */
async function ensureSignedIn(): Promise<void> {
  for (const who of ["client", "admin"] as const) {
    if (cookies[who]) {
      const check = await request(server).get("/api/session-check").set("Cookie", cookies[who]);
      if (check.status === 200) continue;
    }
    const user = users[who];
    await db.prisma.user.update({
      where: { id: user.id },
      data: { userStatus: "active", userType: user.userType, emailVerified: true, securityLevel: "standard" },
    });
    const res = await request(server)
      .post("/api/login")
      .send({ login: user.username, password: TEST_PASSWORD });
    if (res.status !== 200) throw new Error(`cannot sign the ${who} in again: ${res.status} ${res.text}`);
    cookies[who] = sessionCookieOf(res) ?? "";
  }
}

function describeSpec(spec: Spec): string {
  const body =
    spec.body === undefined ? "" : Buffer.isBuffer(spec.body) ? `<${spec.body.length} bytes>` : spec.body;
  return `${spec.identity} ${spec.method} ${spec.path} ${JSON.stringify(spec.headers)} ${JSON.stringify(body.slice(0, 300))}`;
}

/** extensions.code of a GraphQL error, if any. */
function errorCode(error: unknown): unknown {
  if (typeof error !== "object" || error === null) return undefined;
  const extensions: unknown = Reflect.get(error, "extensions");
  return typeof extensions === "object" && extensions !== null ? Reflect.get(extensions, "code") : undefined;
}

/** Sends one request and records in `problems` what it must not be. */
async function send(spec: Spec, problems: string[]): Promise<void> {
  sent += 1;
  let test = spec.method === "GET" ? request(server).get(spec.path) : request(server).post(spec.path);
  if (spec.identity === "key") test = test.set("Authorization", `Bearer ${apiKey}`);
  else if (spec.identity !== "anon") test = test.set("Cookie", cookies[spec.identity]);
  test = test.set(spec.headers);
  const res = await (spec.body === undefined ? test : test.send(spec.body));
  const text = res.text ?? "";
  const fail = (why: string) => {
    if (problems.length < 25)
      problems.push(`${why} (seed ${SEED}): ${describeSpec(spec)} -> ${res.status} ${text.slice(0, 300)}`);
  };
  if (res.status >= 500) fail(`answered ${res.status}`);
  if (LEAK.test(text)) fail("leaked an internal detail");
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (typeof json === "object" && json !== null) {
    if (Reflect.get(json, "code") === "INTERNAL") fail("answered INTERNAL");
    const errors: unknown = Reflect.get(json, "errors");
    if (Array.isArray(errors) && errors.some((e: unknown) => errorCode(e) === "INTERNAL_SERVER_ERROR")) {
      fail("answered INTERNAL_SERVER_ERROR");
    }
  }
  if (!spec.graphql && spec.path.startsWith("/api/")) {
    const answer = {
      method: spec.method,
      url: spec.path,
      status: res.status,
      contentType: res.headers["content-type"],
      text,
    };
    for (const problem of contractProblems(answer)) fail(`broke the OpenAPI document: ${problem}`);
  }
  const notRouted =
    res.status === 404 &&
    typeof json === "object" &&
    json !== null &&
    Reflect.get(json, "message") === "Not found" &&
    !Reflect.has(json, "code");
  const executed = !spec.graphql || (typeof json === "object" && json !== null && Reflect.has(json, "data"));
  if (!notRouted && executed) reached.set(spec.target, (reached.get(spec.target) ?? 0) + 1);
}

let runIndex = 0;

/**
 * Runs `numRuns` batches of concurrent requests; answers the problems found. Each call draws from
 * its own seed (SEED plus the call's index), so the identities do not all get the same requests.
 */
async function runBatches(arb: fc.Arbitrary<Spec[]>, numRuns: number): Promise<string[]> {
  const problems: string[] = [];
  const seed = SEED + runIndex++;
  let batches = 0;
  await fc.assert(
    fc.asyncProperty(arb, async (batch) => {
      batches += 1;
      if (batches % 15 === 0) await ensureSignedIn();
      await Promise.all(batch.map((spec) => send(spec, problems)));
    }),
    { seed, numRuns, endOnFailure: true },
  );
  await ensureSignedIn();
  return problems;
}

function restArb(routes: RouteInfo[], identity: Identity): fc.Arbitrary<Spec> {
  const ids = { client: users.client.id, admin: users.admin.id, clientUniqueId };
  return fc.constantFrom(...routes).chain((route) => {
    const target = `${route.method} ${route.path}`;
    const params = route.path.split("/").filter((s) => s.startsWith(":"));
    return fc
      .tuple(
        fc.array(segmentArb, { minLength: params.length, maxLength: params.length }),
        queryArb,
        route.method === "GET"
          ? fc.constant<BodyChoice>({ headers: {} })
          : bodyArb(templateFor(target, ids), bodyLimit),
        fc.constantFrom<Record<string, string>>(
          {},
          {},
          {},
          {},
          { Origin: "http://evil.example" },
          { "X-Time-Zone": "\u00ff\u00fe" },
          { Authorization: `Bearer esrtk_${"A".repeat(43)}` },
          { Authorization: "Basic \u00ff" },
        ),
      )
      .map(([segments, query, body, extra]) => {
        let i = 0;
        const path = route.path.replace(/:[A-Za-z]+/g, () => segments[i++] ?? "x");
        return {
          identity,
          method: route.method,
          path: `${path}${query}`,
          headers: { ...body.headers, ...extra },
          body: body.body,
          target,
          graphql: false,
        };
      });
  });
}

/** A POST /graphql of `body` aimed at operation `op`, as `identity`. */
function graphqlSpec(identity: Identity, op: Operation, body: Record<string, unknown>): Spec {
  return {
    identity,
    method: "POST",
    path: "/graphql",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    target: `${op.kind} ${op.field.name}`,
    graphql: true,
  };
}

function graphqlArb(identity: Identity): fc.Arbitrary<Spec> {
  return fc
    .constantFrom(...graphqlOperations())
    .chain((op) =>
      fc
        .oneof({ weight: 5, arbitrary: operationArb(op) }, { weight: 1, arbitrary: minimalCallArb(op) })
        .map(({ body }) => graphqlSpec(identity, op, body)),
    );
}

function graphqlOddSpecArb(identity: Identity): fc.Arbitrary<Spec> {
  return graphqlOddArb.map(
    ({ body, get }): Spec =>
      get !== undefined
        ? {
            identity,
            method: "GET",
            path: `/graphql${get}`,
            headers: { "Apollo-Require-Preflight": "true" },
            target: "graphql (malformed)",
            graphql: false,
          }
        : {
            identity,
            method: "POST",
            path: "/graphql",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(body) ?? "",
            target: "graphql (malformed)",
            graphql: false,
          },
  );
}

const batchOf = (arb: fc.Arbitrary<Spec>) => fc.array(arb, { minLength: 1, maxLength: 3 });

describe("fuzzing every REST route and GraphQL operation", () => {
  it("finds the routes and operations it must cover", () => {
    const routes = apiRoutes(app).map((r) => `${r.method} ${r.path}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        "POST /api/login",
        "POST /api/register",
        "POST /api/user/notes",
        "GET /api/users/by-uniqueid/:uniqueId",
        "GET /api/security-questions/:userId",
        "POST /api/appointments/:id/cancel",
        "POST /api/admin/appointments/:id/reschedule",
        "GET /api/admin/appointments",
        "POST /api/esrt/ack",
        "GET /api/admin/audit/export.csv",
        "GET /api/admin/users/export.csv",
      ]),
    );
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const operations = graphqlOperations().map((o) => `${o.kind} ${o.field.name}`);
    expect(operations).toEqual(
      expect.arrayContaining(["query me", "mutation bookAppointment", "mutation register"]),
    );
  });

  it.each(REST_IDENTITIES)(
    "REST, %s: no 5xx, nothing internal",
    async (identity) => {
      expect(await runBatches(batchOf(restArb(apiRoutes(app), identity)), RUNS.rest)).toEqual([]);
    },
    180_000,
  );

  it.each(IDENTITIES)(
    "GraphQL, %s: no 5xx or INTERNAL_SERVER_ERROR, nothing internal",
    async (identity) => {
      expect(await runBatches(batchOf(graphqlArb(identity)), RUNS.graphql)).toEqual([]);
    },
    180_000,
  );

  it("GraphQL, every operation with its required arguments only, as each identity: no 5xx, nothing internal", async () => {
    // the random batches reach an operation about ten times each, too few to be sure every one ran;
    // this sweep calls each one once per identity with values GraphQL accepts
    const problems: string[] = [];
    const operations = graphqlOperations();
    for (const [i, op] of operations.entries()) {
      const [call] = fc.sample(minimalCallArb(op), { seed: SEED + 1000 + i, numRuns: 1 });
      if (!call) continue;
      await Promise.all(IDENTITIES.map((identity) => send(graphqlSpec(identity, op, call.body), problems)));
      if (i % 10 === 9) await ensureSignedIn();
    }
    await ensureSignedIn();
    expect(problems).toEqual([]);
  }, 180_000);

  it("malformed GraphQL requests: client errors only", async () => {
    const odd = batchOf(fc.constantFrom(...IDENTITIES).chain(graphqlOddSpecArb));
    expect(await runBatches(odd, RUNS.raw)).toEqual([]);
  }, 180_000);

  it("reached every route and operation, and the process is ready afterwards", async () => {
    const missed = [
      ...apiRoutes(app).map((r) => `${r.method} ${r.path}`),
      ...graphqlOperations().map((o) => `${o.kind} ${o.field.name}`),
    ].filter((target) => (reached.get(target) ?? 0) < 3);
    expect(missed).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(3000 * Math.min(SCALE, 1));

    const ready = await request(server).get("/readyz");
    expect(ready.status).toBe(200);
    await ensureSignedIn();
    const me = await request(server).get("/api/user").set("Cookie", cookies.client);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(users.client.id);
    const health = await request(server).post("/graphql").send({ query: "{ health }" });
    expect(health.body).toEqual({ data: { health: "ok" } });
  });
});
