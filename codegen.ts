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
  // The implementation passes optional options to useSuspenseQuery, which Apollo Client 4 types as
  // required for an operation with required variables; the overloads above keep callers checked.
  const implementations = content.replace(
    /^(\s+)(return ApolloReactHooks\.useSuspenseQuery<)/gm,
    "$1// @ts-ignore\n$1$2",
  );
  return implementations.replace(
    /^(export function use\w+SuspenseQuery\(baseOptions\?: [^\n]*\): [^\n]*;)$/gm,
    (line, _match, offset: number) =>
      implementations.slice(Math.max(0, offset - 14), offset) === "// @ts-ignore\n"
        ? line
        : `// @ts-ignore\n${line}`,
  );
}

const config: CodegenConfig = {
  overwrite: true,
  hooks: { beforeOneFileWrite: [ignoreSuspenseOverloads] },
  schema,
  documents: "web/src/**/*.graphql",
  generates: {
    "web/src/generated/graphql.tsx": {
      // typescript-operations 6 writes the enum and input types the operations use itself; adding the
      // "typescript" plugin as well would declare them twice.
      plugins: ["typescript-operations", "typescript-react-apollo"],
      config: {
        withHooks: true,
        withHOC: false,
        withComponent: false,
        // Apollo Client 4 has neither MutationFunction nor BaseMutationOptions.
        withMutationFn: false,
        withMutationOptionsType: false,
        useTypeImports: true,
        avoidOptionals: false,
        enumsAsTypes: true,
        scalars: { DateTime: "string", SafeInt: "number" },
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
