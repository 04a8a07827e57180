import { builder, PUBLIC } from "@gateway/graphql/builder";

builder.queryField("health", (t) =>
  t.string({
    description: "Answers ok while the API is serving requests.",
    authScopes: PUBLIC,
    resolve: () => "ok",
  }),
);
