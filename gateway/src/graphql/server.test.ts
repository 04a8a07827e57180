import { getIntrospectionQuery } from "graphql";
import { testDb } from "../../../services/shared/testing/db";
import { testConfig } from "../testing/appHarness";
import type { GraphQLContext } from "./context";
import { createGraphQLServer, formatGraphQLError } from "./server";

async function contextValue(): Promise<GraphQLContext> {
  return {
    req: {} as GraphQLContext["req"],
    res: {} as GraphQLContext["res"],
    config: testConfig(),
    db: await testDb(),
    requestId: "test-request",
    identity: {} as GraphQLContext["identity"],
    currentUser: null,
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

  it("hides internal errors outside development", () => {
    const formatted = formatGraphQLError(testConfig())(internal, new Error(internal.message));
    expect(formatted.message).toBe("Internal server error");
    expect(JSON.stringify(formatted)).not.toContain("10.1.2.3");
  });

  it("shows them in development", () => {
    const formatted = formatGraphQLError(testConfig({ NODE_ENV: "development" }))(
      internal,
      new Error(internal.message),
    );
    expect(formatted.message).toBe(internal.message);
  });
});
