import { getStorageSettings, testStorageConnection } from "@services/document";
import { currentSmtpTarget, targetLabel, verifySmtp } from "@services/email";
import { type EsrtHealth, listEndpoints } from "@services/esrt-sync";
import { services } from "@services/registry";
import { deploymentOf } from "@services/shared/deployment";
import { durableName } from "@services/shared/events/consumer";
import type { BusConsumerState } from "@services/shared/events/transport";
import { logger } from "@services/shared/logger";
import { redactUrl } from "@services/shared/net";
import { PROBE_TIMEOUT_MS, type SystemProbes, within } from "./probes";

/** up: answered; degraded: answers but something waits or failed last; down: no answer; off: not in use. */
export type DependencyStatus = "up" | "degraded" | "down" | "off";

/** One dependency as the testing tools show it. */
export interface DependencyHealth {
  /** stable key: database, sessions, events, smtp, storage, or proApp:<endpoint id> */
  key: string;
  name: string;
  status: DependencyStatus;
  /** how it is provided: postgres or embedded, redis or memory, jetstream or in-process, ... */
  mode: string;
  /** how long the probe took; null when nothing was probed */
  latencyMs: number | null;
  /** what the probe found, in words for the administrator */
  detail: string;
  /** the last attempt recorded for it (Pro-app endpoints) */
  lastAttemptAt: Date | null;
}

/** One service's durable consumer on the event stream. */
export interface ConsumerHealth {
  name: string;
  service: string;
  /** events not yet delivered to it; null when the bus has no such durable (its service never ran) */
  pending: number | null;
  ackPending: number | null;
  redelivered: number | null;
  /** whether a worker is pulling from it right now */
  active: boolean;
}

export interface SystemHealth {
  checkedAt: Date;
  dependencies: DependencyHealth[];
  /** the JetStream stream (null on the in-process bus) and its size */
  stream: string | null;
  streamMessages: number | null;
  consumers: ConsumerHealth[];
}

const SMTP_TIMEOUT_MS = 3000;
const STORAGE_TIMEOUT_MS = 3000;

function message(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split("\n")[0]?.slice(0, 300) ?? "failed";
}

/** Runs one probe: its latency, up when it resolves, down with the reason when it throws or hangs. */
async function probe(
  base: Omit<DependencyHealth, "status" | "latencyMs" | "detail" | "lastAttemptAt">,
  work: () => Promise<string>,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<DependencyHealth> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const detail = await within(work, timeoutMs);
    return { ...base, status: "up", latencyMs: latency(), detail, lastAttemptAt: null };
  } catch (err) {
    logger("diagnostics").warn({ dependency: base.key, err }, "dependency probe failed");
    return { ...base, status: "down", latencyMs: latency(), detail: message(err), lastAttemptAt: null };
  }
}

async function smtpHealth(probes: SystemProbes): Promise<DependencyHealth> {
  const base = { key: "smtp", name: "SMTP" };
  let target: Awaited<ReturnType<typeof currentSmtpTarget>>;
  try {
    target = await within(() => currentSmtpTarget(probes.db), PROBE_TIMEOUT_MS);
  } catch (err) {
    return {
      ...base,
      status: "down",
      mode: "unknown",
      latencyMs: null,
      detail: message(err),
      lastAttemptAt: null,
    };
  }
  if (target === null) {
    return {
      ...base,
      status: "off",
      mode: "captured",
      latencyMs: null,
      detail: "Not configured: messages are captured in the delivery log, not sent",
      lastAttemptAt: null,
    };
  }
  if (target instanceof Error) {
    return {
      ...base,
      status: "down",
      mode: "settings",
      latencyMs: null,
      detail: target.message,
      lastAttemptAt: null,
    };
  }
  const mode = "url" in target ? redactUrl(target.url) : targetLabel(target);
  return probe(
    { ...base, mode },
    async () => {
      const verified = await verifySmtp(target, SMTP_TIMEOUT_MS);
      if (!verified.ok) throw new Error(verified.message);
      return "Connected and ready to send";
    },
    SMTP_TIMEOUT_MS + 500,
  );
}

async function storageHealth(probes: SystemProbes): Promise<DependencyHealth> {
  let mode = "local";
  return probe(
    { key: "storage", name: "Document storage", mode },
    async () => {
      const settings = await getStorageSettings(probes.db);
      mode = settings.storageType;
      const result = await testStorageConnection({
        db: probes.db,
        deadlineMs: STORAGE_TIMEOUT_MS,
        // the stored store, which uploads use wherever it was saved
        addressRule: false,
        input: {
          storageType: settings.storageType,
          maxFileSize: settings.maxFileSize,
          allowedFileTypes: settings.allowedFileTypes,
          cloudEndpoint: settings.cloudEndpoint ?? undefined,
          cloudRegion: settings.cloudRegion ?? undefined,
          cloudBucket: settings.cloudBucket ?? undefined,
          cloudForcePathStyle: settings.cloudForcePathStyle,
          cloudAccessKeyId: settings.cloudAccessKeyId ?? undefined,
        },
      });
      if (!result.ok) throw new Error(result.message);
      return result.message;
    },
    STORAGE_TIMEOUT_MS + 500,
  ).then((h) => ({ ...h, mode }));
}

const ENDPOINT_STATUS: Record<EsrtHealth, DependencyStatus> = {
  healthy: "up",
  degraded: "degraded",
  paused: "down",
  disabled: "off",
};

/** Each Pro-app endpoint's recorded health (never a request to it: the sync's own attempts are the probe). */
async function proAppHealth(probes: SystemProbes): Promise<DependencyHealth[]> {
  const endpoints = await within(() => listEndpoints(probes.db), PROBE_TIMEOUT_MS);
  return endpoints.map((e) => {
    const lastAttemptAt =
      [e.lastSuccessAt, e.lastFailureAt]
        .filter((d): d is Date => d !== null)
        .sort((a, b) => b.getTime() - a.getTime())[0] ?? null;
    const detail =
      e.health === "disabled"
        ? `Disabled${e.disabledReason ? `: ${e.disabledReason}` : ""}`
        : e.consecutiveFailures > 0
          ? `${e.consecutiveFailures} failed attempt(s) in a row; ${e.waitingDeliveries} waiting`
          : lastAttemptAt
            ? `Last attempt succeeded; ${e.waitingDeliveries} waiting`
            : "No delivery attempted yet";
    return {
      key: `proApp:${e.id}`,
      name: `Pro app ${e.url}`,
      status: ENDPOINT_STATUS[e.health],
      mode: "webhook",
      latencyMs: null,
      detail,
      lastAttemptAt,
    };
  });
}

/** Every consumer of every service, with its durable's counts where the bus has it. */
async function consumerHealth(
  probes: SystemProbes,
): Promise<{ stream: string | null; messages: number | null; consumers: ConsumerHealth[] }> {
  const registered = Object.entries(services).flatMap(([service, s]) =>
    s.consumers.map((c) => ({ service, name: c.name })),
  );
  let stream: string | null = null;
  let messages: number | null = null;
  const byDurable = new Map<string, BusConsumerState>();
  if (probes.transport) {
    const transport = probes.transport;
    const [state, deployment] = await within(
      () => Promise.all([transport.state(), deploymentOf(probes.db)]),
      PROBE_TIMEOUT_MS,
    );
    stream = state.stream;
    messages = state.messages;
    for (const c of state.consumers) byDurable.set(c.durable, c);
    return {
      stream,
      messages,
      consumers: registered.map(({ service, name }) => {
        const c = byDurable.get(durableName(name, deployment.id));
        return {
          name,
          service,
          pending: c?.pending ?? null,
          ackPending: c?.ackPending ?? null,
          redelivered: c?.redelivered ?? null,
          active: (c?.waiting ?? 0) > 0,
        };
      }),
    };
  }
  return {
    stream,
    messages,
    consumers: registered.map(({ service, name }) => ({
      name,
      service,
      pending: null,
      ackPending: null,
      redelivered: null,
      active: false,
    })),
  };
}

function readinessProbe(
  probes: SystemProbes,
  key: "database" | "sessions" | "events",
  name: string,
): Promise<DependencyHealth> {
  const entry = probes.readiness[key];
  if (!entry) {
    return Promise.resolve({
      key,
      name,
      status: "off",
      mode: "none",
      latencyMs: null,
      detail: "Not used by this process",
      lastAttemptAt: null,
    });
  }
  const embedded = ["embedded", "memory", "in-process"].includes(entry.mode);
  return probe({ key, name, mode: entry.mode }, async () => {
    await entry.check();
    return embedded ? "Embedded stand-in in this process (make start without the service)" : "Answered";
  });
}

/**
 * The health of every dependency, each probed at once and bounded by its own timeout, so a down one
 * shows as down within a few seconds: PostgreSQL, Redis and NATS (the process's readiness checks,
 * with their embedded stand-ins named as such), the event stream and each service's durable
 * consumer (lag, unsettled, redelivered), SMTP (a verify; "off" while mail is captured), the
 * document storage (the storage page's probe with the stored settings) and each Pro-app endpoint
 * (its recorded health and last attempt; no request is sent to it).
 * @throws nothing for a down dependency (it is reported); the database driver's error while
 * listing endpoints is reported as the Pro-app row.
 */
export async function systemHealth(probes: SystemProbes): Promise<SystemHealth> {
  const bus = consumerHealth(probes).catch((err: unknown) => {
    logger("diagnostics").warn({ err }, "event stream state unavailable");
    return { stream: null, messages: null, consumers: [] as ConsumerHealth[], error: message(err) };
  });
  const proApp = proAppHealth(probes).catch((err: unknown): DependencyHealth[] => [
    {
      key: "proApp",
      name: "Pro app endpoints",
      status: "down",
      mode: "webhook",
      latencyMs: null,
      detail: message(err),
      lastAttemptAt: null,
    },
  ]);
  const [database, sessions, events, smtp, storage, endpoints, stream] = await Promise.all([
    readinessProbe(probes, "database", "PostgreSQL"),
    readinessProbe(probes, "sessions", "Redis"),
    readinessProbe(probes, "events", "NATS"),
    smtpHealth(probes),
    storageHealth(probes),
    proApp,
    bus,
  ]);
  const eventsRow =
    "error" in stream && events.status === "up"
      ? { ...events, status: "degraded" as const, detail: `Stream state unavailable: ${stream.error}` }
      : events.status === "up" && stream.stream
        ? { ...events, detail: `Stream ${stream.stream}: ${stream.messages ?? 0} messages` }
        : events;
  return {
    checkedAt: new Date(),
    dependencies: [database, sessions, eventsRow, smtp, storage, ...endpoints],
    stream: stream.stream,
    streamMessages: stream.messages,
    consumers: stream.consumers,
  };
}
