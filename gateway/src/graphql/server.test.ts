import { Writable } from "node:stream";
import { testDb } from "@services/shared/testing/db";
import { GraphQLError, getIntrospectionQuery } from "graphql";
import pino from "pino";
import { testConfig } from "../testing/appHarness";
import type { GraphQLContext } from "./context";
import { createGraphQLServer, formatGraphQLError } from "./server";

async function contextValue(): Promise<GraphQLContext> {
  const db = await testDb();
  return {
    req: {} as GraphQLContext["req"],
    res: {} as GraphQLContext["res"],
    config: testConfig(),
    db,
    requestId: "test-request",
    identity: {} as GraphQLContext["identity"],
    currentUser: null,
    limitedTo: null,
    probes: { db, readiness: {} },
  };
}

describe("Apollo server", () => {
  it("answers the full GraphiQL introspection query outside production", async () => {
    const server = await createGraphQLServer(testConfig());
    try {
      const query = getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
        oneOf: true,
      });
      const res = await server.executeOperation({ query }, { contextValue: await contextValue() });
      expect(res.body.kind).toBe("single");
      if (res.body.kind === "single") expect(res.body.singleResult.errors).toBeUndefined();
    } finally {
      await server.stop();
    }
  });

  it("refuses introspection in production", async () => {
    const server = await createGraphQLServer(
      testConfig({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32) }),
    );
    try {
      const res = await server.executeOperation(
        { query: "{ __schema { types { name } } }" },
        { contextValue: await contextValue() },
      );
      expect(res.body.kind).toBe("single");
      if (res.body.kind === "single") {
        expect(res.body.singleResult.errors?.[0]?.message).toMatch(/introspection/i);
      }
    } finally {
      await server.stop();
    }
  });
});

describe("formatGraphQLError", () => {
  const internal = {
    message: "connect ECONNREFUSED 10.1.2.3:5432",
    extensions: { code: "INTERNAL_SERVER_ERROR" },
  };

  it("hides internal errors, whatever NODE_ENV says", () => {
    const formatted = formatGraphQLError()(internal, new Error(internal.message));
    expect(formatted).toEqual({
      message: "Internal server error",
      extensions: { code: "INTERNAL_SERVER_ERROR" },
    });
    expect(JSON.stringify(formatted)).not.toContain("10.1.2.3");
  });

  it("keeps GraphQL's own verdict on a request, as BAD_REQUEST", () => {
    const verdict = new GraphQLError("Schema is not configured to execute subscription operation.");
    const formatted = formatGraphQLError()(
      { message: verdict.message, extensions: { code: "INTERNAL_SERVER_ERROR" } },
      verdict,
    );
    expect(formatted).toEqual({ message: verdict.message, extensions: { code: "BAD_REQUEST" } });
  });

  it("hides an exception a resolver threw even when GraphQL wrapped it", () => {
    const wrapped = new GraphQLError("Invalid `prisma.user.findUnique()` invocation in /work/x.ts:3:1", {
      originalError: new Error("Invalid `prisma.user.findUnique()` invocation in /work/x.ts:3:1"),
    });
    const formatted = formatGraphQLError()({ message: wrapped.message, path: ["me"] }, wrapped);
    expect(formatted.message).toBe("Internal server error");
  });
});

describe("the error plugin", () => {
  function capture() {
    const lines: { level: number; msg: string; requestId?: string; err?: { message?: string } }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString("utf8")));
        done();
      },
    });
    return { lines, log: pino({ level: "debug" }, sink) };
  }

  it("answers a subscription 400 BAD_REQUEST and logs it at warn with the request id", async () => {
    const { lines, log } = capture();
    const server = await createGraphQLServer(testConfig(), { log });
    try {
      const res = await server.executeOperation(
        { query: "subscription { health }" },
        { contextValue: await contextValue() },
      );
      expect(res.http.status).toBe(400);
      expect(res.body.kind === "single" && res.body.singleResult.errors?.[0]?.extensions?.code).toBe(
        "BAD_REQUEST",
      );
      expect(lines.map((l) => [l.level, l.msg, l.requestId])).toEqual([
        [40, "GraphQL request refused", "test-request"],
      ]);
    } finally {
      await server.stop();
    }
  });

  it("masks a failure in development too, gives it the request id, and logs its detail at error", async () => {
    const { lines, log } = capture();
    const server = await createGraphQLServer(testConfig({ NODE_ENV: "development" }), { log });
    const failing = {
      prisma: {
        brandingConfig: {
          findFirst: async () => {
            throw new Error("Invalid `prisma.brandingConfig.findFirst()` invocation in /work/x.ts:3:1 22021");
          },
        },
      },
    } as unknown as GraphQLContext["db"];
    try {
      const res = await server.executeOperation(
        { query: "{ branding { title } }" },
        { contextValue: { ...(await contextValue()), db: failing } },
      );
      expect(res.body.kind === "single" && res.body.singleResult.errors).toEqual([
        {
          message: "Internal server error",
          locations: [{ line: 1, column: 3 }],
          path: ["branding"],
          extensions: { code: "INTERNAL_SERVER_ERROR", requestId: "test-request" },
        },
      ]);
      expect(lines.map((l) => [l.level, l.msg, l.requestId, l.err?.message])).toEqual([
        [50, "GraphQL resolver failed", "test-request", expect.stringContaining("prisma.brandingConfig")],
      ]);
    } finally {
      await server.stop();
    }
  });
});
