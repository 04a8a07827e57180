import { GraphQLObjectType, GraphQLSchema, GraphQLString } from "graphql";
import { schema } from "./schema";

/** Root fields (Query, Mutation, Subscription) that do not declare authScopes. */
function rootFieldsWithoutAuth(target: GraphQLSchema): string[] {
  const missing: string[] = [];
  for (const root of [target.getQueryType(), target.getMutationType(), target.getSubscriptionType()]) {
    if (!(root instanceof GraphQLObjectType)) continue;
    for (const field of Object.values(root.getFields())) {
      const options = field.extensions?.pothosOptions as { authScopes?: unknown } | undefined;
      if (options?.authScopes === undefined) missing.push(`${root.name}.${field.name}`);
    }
  }
  return missing;
}

describe("GraphQL schema", () => {
  it("declares authScopes (or PUBLIC) on every root field", () => {
    expect(rootFieldsWithoutAuth(schema)).toEqual([]);
  });

  it("flags a root field that forgot its authScopes", () => {
    const leaky = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: "Query",
        fields: { secrets: { type: GraphQLString } },
      }),
    });
    expect(rootFieldsWithoutAuth(leaky)).toEqual(["Query.secrets"]);
  });

  it("exposes the public queries the web client starts with", () => {
    const query = schema.getQueryType()?.getFields() ?? {};
    expect(Object.keys(query)).toEqual(expect.arrayContaining(["health", "serverConfig"]));
  });
});
