import { getQueryFn } from "@web/data/api";

/** What the server says about itself (spec §3 "Server config"). */
export interface ServerConfig {
  environment: string;
  port: number;
  proAppUrl: string;
  /** ISO date-time */
  serverTime: string;
}

/** Cache key (and path) of the server config (spec §7). */
export const SERVER_CONFIG_PATH = "/api/server-config";

/** Spec §9: the server config is cached for one hour. */
export const SERVER_CONFIG_TTL_MS = 60 * 60 * 1000;

/** The built-in config used until the server answers (spec §3); serverTime is the browser's now. */
export function defaultServerConfig(now: Date = new Date()): ServerConfig {
  return {
    environment: "development",
    port: 3000,
    proAppUrl: "https://pro.esrt.example",
    serverTime: now.toISOString(),
  };
}

/** Whether a copy fetched at `at` (epoch ms) is older than the one-hour cache at `now`. */
export function isServerConfigStale(at: number, now: number = Date.now()): boolean {
  return at === 0 || now - at >= SERVER_CONFIG_TTL_MS;
}

const getConfig = getQueryFn<ServerConfig>({ on401: "throw" });

/**
 * GET /api/server-config.
 * @throws Error "<status>: <body>" for a non-OK answer, TypeError when the network fails.
 */
export async function fetchServerConfig(): Promise<ServerConfig> {
  const config = await getConfig(SERVER_CONFIG_PATH);
  if (!config) throw new Error("The server config answer was empty");
  return config;
}
