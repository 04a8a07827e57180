import { builder, PUBLIC } from "@gateway/graphql/builder";
import type { Config } from "@services/shared/config";

/** What GET /api/server-config and the serverConfig query answer (spec §3, Server config). */
export interface ServerConfigShape {
  port: number;
  proAppUrl: string;
  environment: string;
  serverTime: Date;
}

/** The server configuration a browser may know, from the gateway's configuration. */
export function currentServerConfig(cfg: Config): ServerConfigShape {
  return { port: cfg.PORT, proAppUrl: cfg.PRO_APP_URL, environment: cfg.NODE_ENV, serverTime: new Date() };
}

export const ServerConfigRef = builder.objectRef<ServerConfigShape>("ServerConfig").implement({
  description: "Settings the web client needs before anything else.",
  fields: (t) => ({
    port: t.exposeInt("port"),
    proAppUrl: t.exposeString("proAppUrl", { description: "Base address of the Pro app (ESRT Pro)." }),
    environment: t.exposeString("environment"),
    serverTime: t.expose("serverTime", { type: "DateTime" }),
  }),
});

builder.queryField("serverConfig", (t) =>
  t.field({
    type: ServerConfigRef,
    authScopes: PUBLIC,
    resolve: (_root, _args, ctx) => currentServerConfig(ctx.config),
  }),
);
