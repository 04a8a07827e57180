import { existsSync } from "node:fs";
import path from "node:path";
import type { CodegenConfig } from "@graphql-codegen/cli";

// Generates the web client's typed GraphQL documents from the gateway's printed SDL (`npm run codegen`).
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

const config: CodegenConfig = {
  overwrite: true,
  schema,
  documents: "web/src/**/*.graphql",
  generates: {
    // The client preset writes typed documents (graphql.ts: each operation as a TypedDocumentNode with
    // its result and variable types) used with Apollo Client 4's own hooks, `useQuery(SomeDocument)`
    // from @apollo/client/react. The documents are precompiled ASTs, so no GraphQL parser ships to the
    // browser.
    "web/src/generated/": {
      preset: "client",
      presetConfig: {
        // Components read the fields their operation selects; no fragment masking.
        fragmentMasking: false,
        // Operations are imported by name from generated/graphql; no graphql() tag function.
        gqlTagName: "graphql",
      },
      config: {
        useTypeImports: true,
        avoidOptionals: false,
        enumsAsTypes: true,
        scalars: { DateTime: "string", SafeInt: "number" },
      },
    },
  },
};

export default config;
