import { connect, type NatsConnection } from "@nats-io/transport-node";
import { logger } from "./logger";

export interface NatsOptions {
  /** connection name shown by the server (default "portal") */
  name?: string;
  /** first connection timeout in ms (default 5000) */
  timeoutMs?: number;
  reconnectTimeWaitMs?: number;
  pingIntervalMs?: number;
}

/**
 * Connects to NATS and keeps reconnecting for ever when the server goes away; status changes are
 * logged. The connection buffers publishes while it reconnects.
 * @throws Error when the first connection cannot be made within the timeout.
 */
export async function connectNats(url: string, options: NatsOptions = {}): Promise<NatsConnection> {
  const log = logger("nats");
  const nc = await connect({
    servers: url.split(",").map((s) => s.trim()),
    name: options.name ?? "portal",
    timeout: options.timeoutMs ?? 5000,
    maxReconnectAttempts: -1,
    reconnectTimeWait: options.reconnectTimeWaitMs ?? 1000,
    reconnectJitter: 200,
    pingInterval: options.pingIntervalMs ?? 10_000,
    maxPingOut: 3,
  });
  log.info({ server: nc.getServer() }, "connected to NATS");
  void (async () => {
    for await (const status of nc.status()) {
      switch (status.type) {
        case "disconnect":
          log.warn({ server: status.server }, "disconnected from NATS");
          break;
        case "reconnecting":
          log.debug("reconnecting to NATS");
          break;
        case "reconnect":
          log.info({ server: status.server }, "reconnected to NATS");
          break;
        case "error":
          log.error({ err: status.error }, "NATS error");
          break;
        case "staleConnection":
          log.warn("NATS connection is stale");
          break;
        case "slowConsumer":
          log.warn({ sub: status.sub }, "NATS slow consumer");
          break;
        default:
          break;
      }
    }
  })().catch((err: unknown) => log.error({ err }, "NATS status watcher stopped"));
  void nc.closed().then((err) => {
    if (err) log.error({ err }, "NATS connection closed with an error");
  });
  return nc;
}
