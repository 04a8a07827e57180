import {
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
} from "graphql";
import { schema } from "./schema";

/** Every description of a schema (types, fields, arguments, input fields, enum values), by where it is. */
function descriptionsOf(target: GraphQLSchema): [string, string][] {
  const found: [string, string][] = [];
  const add = (where: string, description: string | null | undefined) => {
    if (description) found.push([where, description]);
  };
  for (const type of Object.values(target.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    add(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        add(`${type.name}.${field.name}`, field.description);
        for (const arg of "args" in field ? field.args : []) {
          add(`${type.name}.${field.name}(${arg.name})`, arg.description);
        }
      }
    }
    if (isEnumType(type))
      for (const value of type.getValues()) add(`${type.name}.${value.name}`, value.description);
  }
  return found;
}

/**
 * What a public description must not name: a source or project file (`branding.ts`, `DECISIONS.md`),
 * a path of the repository (`schema/validation/...`), or an internal document (`spec §4`, `issue 12`).
 */
const NAMES_THE_CODE = [
  /\b[\w-]+\.(?:tsx?|jsx?|mjs|cjs|md|graphql|prisma|sql|json|ya?ml)\b/i,
  /\b(?:services|gateway|web|schema|prisma|scripts|docs|e2e|src)\/[\w./-]+/,
  /§|\bissue \d+\b/i,
];

/** The descriptions that speak of the code instead of the behaviour, with the rule they break. */
function descriptionsNamingTheCode(target: GraphQLSchema): string[] {
  return descriptionsOf(target)
    .filter(([, description]) => NAMES_THE_CODE.some((rule) => rule.test(description)))
    .map(([where, description]) => `${where}: ${description}`);
}

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

  it("describes behaviour, never a source file, a repository path or an internal document", () => {
    expect(descriptionsOf(schema).length).toBeGreaterThan(200);
    expect(descriptionsNamingTheCode(schema)).toEqual([]);
  });

  it("flags a description that names a source file", () => {
    const leaky = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: "Query",
        description: "The branding form (schema/validation/branding.ts checks every field).",
        fields: {
          branding: { type: GraphQLString, description: "The public branding (DECISIONS.md, Branding)." },
          title: { type: GraphQLString, description: "Set by brandingSettings.ts, see spec §5." },
          plain: { type: GraphQLString, description: "The product title, e.g. user.type_changed." },
        },
      }),
    });
    expect(descriptionsNamingTheCode(leaky)).toEqual([
      "Query: The branding form (schema/validation/branding.ts checks every field).",
      "Query.branding: The public branding (DECISIONS.md, Branding).",
      "Query.title: Set by brandingSettings.ts, see spec §5.",
    ]);
  });

  it("exposes the public queries the web client starts with", () => {
    const query = schema.getQueryType()?.getFields() ?? {};
    expect(Object.keys(query)).toEqual(expect.arrayContaining(["health", "serverConfig"]));
  });
});
