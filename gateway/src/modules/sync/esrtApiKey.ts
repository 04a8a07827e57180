import { builder } from "@gateway/graphql/builder";
import { caller } from "@gateway/graphql/context";
import { dbQuery } from "@gateway/graphql/dbQuery";
import { runIdentity } from "@gateway/graphql/run";
import { parseId, parseInput } from "@gateway/input";
import { createApiKeySchema } from "@schema/esrt/apiKeys";
import { type ApiKeyView, createApiKey, listApiKeys, revokeApiKey } from "@services/esrt-sync";
import { AppError } from "@services/shared/errors";

// The Pro app's API keys (issue 10; manage:esrt_sync): listed without their secret, made (the key is
// returned this once), revoked. A key opens GET /api/users/by-uniqueid and POST /api/esrt/ack only.

const EsrtApiKeyRef = builder.objectRef<ApiKeyView>("EsrtApiKey").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    prefix: t.exposeString("prefix", { description: "the key's first characters, to tell keys apart" }),
    createdAt: t.field({ type: "DateTime", resolve: (k) => k.createdAt }),
    lastUsedAt: t.field({ type: "DateTime", nullable: true, resolve: (k) => k.lastUsedAt }),
    revokedAt: t.field({ type: "DateTime", nullable: true, resolve: (k) => k.revokedAt }),
  }),
});

const EsrtApiKeyCreatedRef = builder
  .objectRef<{ apiKey: ApiKeyView; key: string }>("EsrtApiKeyCreated")
  .implement({
    description: "A new API key; `key` is shown this once and never again.",
    fields: (t) => ({
      apiKey: t.field({ type: EsrtApiKeyRef, resolve: (c) => c.apiKey }),
      key: t.exposeString("key"),
    }),
  });

dbQuery("esrtApiKeys", {
  type: [EsrtApiKeyRef],
  description: "The Pro app's API keys, newest first (manage:esrt_sync).",
  authScopes: { manageEsrtSync: true },
  read: listApiKeys,
});

builder.mutationField("createEsrtApiKey", (t) =>
  t.field({
    type: EsrtApiKeyCreatedRef,
    description: "Makes an API key for the Pro app; the key is returned this once (manage:esrt_sync).",
    authScopes: { manageEsrtSync: true },
    errors: { types: [AppError] },
    args: { name: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => {
        const input = parseInput(createApiKeySchema, { name: args.name });
        return createApiKey({ db: ctx.db, name: input.name, actorId: caller(ctx).id });
      }),
  }),
);

builder.mutationField("revokeEsrtApiKey", (t) =>
  t.field({
    type: EsrtApiKeyRef,
    description: "Revokes an API key at once (manage:esrt_sync).",
    authScopes: { manageEsrtSync: true },
    errors: { types: [AppError] },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) =>
      runIdentity(() => revokeApiKey({ db: ctx.db, id: parseId(args.id), actorId: caller(ctx).id })),
  }),
);
