import { existsSync } from "node:fs";
import path from "node:path";
import type { CodegenConfig } from "@graphql-codegen/cli";

// Generates the web client's typed Apollo hooks from the gateway's printed SDL (`npm run codegen`).
const printedSchema = path.join(__dirname, "schema", "schema.graphql");

// The SDL agreed for the first release, used only while the gateway has not printed its schema yet.
const agreedSdl = /* GraphQL */ `
  scalar DateTime
  type ServerConfig {
    environment: String!
    port: Int!
    proAppUrl: String!
    serverTime: DateTime!
  }
  type Query {
    health: String!
    serverConfig: ServerConfig!
  }
`;

const schema = existsSync(printedSchema) ? printedSchema : agreedSdl;
if (schema === agreedSdl) console.warn("codegen: schema/schema.graphql is missing; using the agreed SDL");

/**
 * typescript-react-apollo 5 writes its suspense-hook overloads against Apollo Client 3's result types
 * and puts `// @ts-ignore` on the first overload only; Apollo Client 4's narrower result type makes
 * TypeScript reject the second one too. This marks every declared overload (the implementation, which
 * has no return type, stays checked) so the generated file type-checks as a whole.
 */
function ignoreSuspenseOverloads(_path: string, content: string): string {
  return content.replace(
    /^(export function use\w+SuspenseQuery\(baseOptions\?: [^\n]*\): [^\n]*;)$/gm,
    (line, _match, offset: number) =>
      content.slice(Math.max(0, offset - 14), offset) === "// @ts-ignore\n" ? line : `// @ts-ignore\n${line}`,
  );
}

const config: CodegenConfig = {
  overwrite: true,
  hooks: { beforeOneFileWrite: [ignoreSuspenseOverloads] },
  schema,
  documents: "web/src/**/*.graphql",
  generates: {
    "web/src/generated/graphql.tsx": {
      plugins: ["typescript", "typescript-operations", "typescript-react-apollo"],
      config: {
        withHooks: true,
        withHOC: false,
        withComponent: false,
        useTypeImports: true,
        avoidOptionals: false,
        enumsAsTypes: true,
        scalars: { DateTime: "string" },
        // Apollo Client 4 keeps the React hooks (and the older option/result type names) in
        // @apollo/client/react; gql stays in @apollo/client.
        apolloReactHooksImportFrom: "@apollo/client/react",
        apolloReactCommonImportFrom: "@apollo/client/react",
        gqlImport: "@apollo/client#gql",
      },
    },
  },
};

export default config;
