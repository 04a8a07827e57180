import { deploymentName } from "../config";
import type { Db } from "../db";
import { deploymentOf } from "../deployment";
import { Prisma } from "../generated/prisma/client";
import { logger } from "../logger";
import {
  contextOf,
  endSpan,
  MESSAGING,
  SpanKind,
  startSpan,
  type TraceContext,
  traceContextOf,
  tracingEnabled,
} from "../telemetry";
import type { EventTransport } from "./transport";

export interface RelayOptions {
  db: Db;
  transport: EventTransport;
  /** rows published per transaction (default 100) */
  batchSize?: number;
  /** fallback poll when no NOTIFY arrives (default 1000 ms) */
  pollMs?: number;
  /** first wait after a failed attempt, doubled at each failure after it (default 200 ms) */
  backoffMs?: number;
  /** longest wait between attempts while the bus is down (default 10 s) */
  maxBackoffMs?: number;
  /** published rows older than this are deleted (default 7 days) */
  retainPublishedMs?: number;
  /**
   * Publishes again, at start, the rows published since this time. For the in-process bus, which
   * loses what its consumers had not settled when the process stopped; consumers' inboxes make the
   * repeats harmless.
   */
  republishSince?: Date;
  /**
   * Subjects are `${subjectPrefix}.${type}` (default: the process-wide SUBJECT_PREFIX once resolved,
   * read at start): the prefix of the process that publishes, not the one recorded in the row.
   */
  subjectPrefix?: string;
  /** stamped on every envelope published (default: the deployment of `db`) */
  deployment?: string;
}

export interface Relay {
  /** stops waking up; waits for the batch in progress */
  stop(): Promise<void>;
  /**
   * Publishes every row that is unpublished now (rows another relay holds are left to it).
   * @throws the transport's error when a row cannot be published.
   */
  drain(): Promise<void>;
  /** unpublished rows in the outbox (a metric) */
  backlog(): Promise<number>;
}

interface Row {
  id: string;
  type: string;
  envelope: unknown;
}

interface BatchResult {
  full: boolean;
  error?: Error;
}

const PRUNE_EVERY_MS = 10 * 60_000;

/** The trace context an outbox row's envelope carries (none when it was written untraced). */
function storedTrace(envelope: unknown): { traceparent?: string; tracestate?: string } {
  if (typeof envelope !== "object" || envelope === null) return {};
  const { traceparent, tracestate } = envelope as Record<string, unknown>;
  return {
    ...(typeof traceparent === "string" ? { traceparent } : {}),
    ...(typeof tracestate === "string" ? { tracestate } : {}),
  };
}

/**
 * Starts the outbox relay: wakes on NOTIFY outbox_events (sent when an emitting transaction
 * commits) and on a fallback timer, and publishes unpublished rows in order, each with its event id
 * as message id. Rows are claimed with FOR UPDATE SKIP LOCKED, so several relays may run at once;
 * a batch's rows are sent together and settled in order, so the rows from its first failure on
 * stay unpublished (and go again in order), and attempts back off while the bus is down. Each envelope is
 * published with this database's deployment id, also on rows written before envelopes carried it.
 * @throws when the database refuses the LISTEN or its deployment cannot be read.
 */
export async function startRelay(options: RelayOptions): Promise<Relay> {
  const { db, transport } = options;
  const batchSize = options.batchSize ?? 100;
  const backoffMs = options.backoffMs ?? 200;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const retainMs = options.retainPublishedMs ?? 7 * 24 * 3600_000;
  const log = logger("relay");
  const encoder = new TextEncoder();
  const prefix = options.subjectPrefix ?? deploymentName("SUBJECT_PREFIX");
  const deployment = options.deployment ?? (await deploymentOf(db)).id;
  const stamped = (envelope: unknown, trace?: TraceContext): unknown =>
    typeof envelope === "object" && envelope !== null && !Array.isArray(envelope)
      ? { ...envelope, deployment, ...trace }
      : envelope;

  /**
   * Publishes one row. While tracing is on, the publish is a span (`publish <type>`, a producer's)
   * child of the outbox write's context in the envelope, and the envelope goes out carrying the
   * publish span's context instead, so each consumer's span is a child of the publish.
   */
  const publishRow = (row: Row): Promise<void> => {
    const subject = `${prefix}.${row.type}`;
    const span = tracingEnabled()
      ? startSpan({
          name: `publish ${row.type}`,
          kind: SpanKind.PRODUCER,
          parent: contextOf(storedTrace(row.envelope)),
          attributes: {
            [MESSAGING.system]: "nats",
            [MESSAGING.operationType]: "send",
            [MESSAGING.operationName]: "publish",
            [MESSAGING.destinationName]: subject,
            [MESSAGING.messageId]: row.id,
          },
        })
      : undefined;
    const data = encoder.encode(JSON.stringify(stamped(row.envelope, span && traceContextOf(span))));
    const sent = transport.publish(subject, row.id, data);
    if (!span) return sent;
    return sent.then(
      () => endSpan(span),
      (err: unknown) => {
        endSpan(span, err);
        throw err;
      },
    );
  };

  let stopped = false;
  let wanted = false;
  let loop: Promise<void> | undefined;
  let failures = 0;
  let lastPrune = 0;
  let cancelSleep: (() => void) | undefined;
  // batches of this relay run one at a time (the loop and drain share it)
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  const publishBatch = (): Promise<BatchResult> =>
    exclusive(() =>
      db.prisma.$transaction(
        async (tx) => {
          const rows = await tx.$queryRaw<Row[]>`
            SELECT id::text AS id, type, envelope FROM outbox_events
            WHERE "publishedAt" IS NULL
            ORDER BY "createdAt", id
            LIMIT ${batchSize}
            FOR UPDATE SKIP LOCKED`;
          // sent together (the bus client writes them in order on one connection and the stream
          // stores them in that order), then settled in order: the rows up to the first failure are
          // published; the failed one and those after it stay in the outbox and go again in the
          // same order, where the stream's Nats-Msg-Id dedupe drops any that had been stored
          const sent = rows.map(publishRow);
          const outcomes = await Promise.allSettled(sent);
          const published: string[] = [];
          let error: Error | undefined;
          for (const [i, outcome] of outcomes.entries()) {
            const row = rows[i];
            if (!row) break;
            if (outcome.status === "fulfilled") {
              published.push(row.id);
              continue;
            }
            const reason: unknown = outcome.reason;
            error = reason instanceof Error ? reason : new Error(String(reason));
            await tx.$executeRaw`
              UPDATE outbox_events SET "publishAttempts" = "publishAttempts" + 1,
                "lastError" = ${error.message.slice(0, 1000)}
              WHERE id = ${row.id}::uuid`;
            break;
          }
          if (published.length > 0) {
            const ids = Prisma.join(published.map((id) => Prisma.sql`${id}::uuid`));
            await tx.$executeRaw`
              UPDATE outbox_events SET "publishedAt" = now(), "publishAttempts" = "publishAttempts" + 1,
                "lastError" = NULL
              WHERE id IN (${ids})`;
          }
          return { full: rows.length === batchSize && !error, error };
        },
        { maxWait: 10_000, timeout: 120_000 },
      ),
    );

  async function prune(): Promise<void> {
    if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = Date.now();
    const cutoff = new Date(Date.now() - retainMs);
    const deleted = await db.prisma.$executeRaw`
      DELETE FROM outbox_events WHERE "publishedAt" IS NOT NULL AND "publishedAt" < ${cutoff}`;
    if (deleted > 0) log.debug({ deleted }, "pruned published outbox rows");
  }

  async function run(): Promise<void> {
    while (wanted && !stopped) {
      wanted = false;
      try {
        for (;;) {
          const result = await publishBatch();
          if (result.error) throw result.error;
          if (!result.full || stopped) break;
        }
        if (failures > 0) log.info({ afterFailures: failures }, "outbox relay publishing again");
        failures = 0;
        await prune();
      } catch (err) {
        failures++;
        const delay = Math.min(backoffMs * 2 ** Math.min(failures - 1, 10), maxBackoffMs);
        if (failures === 1 || failures % 10 === 0) {
          log.warn({ err, failures, retryInMs: delay }, "outbox relay cannot publish; retrying");
        }
        // stopped while the batch was out: no wait for a retry that will not come
        if (stopped) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          cancelSleep = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        cancelSleep = undefined;
        wanted = true;
      }
    }
  }

  function wake(): void {
    wanted = true;
    if (stopped || loop) return;
    loop = run().finally(() => {
      loop = undefined;
      if (wanted && !stopped) wake();
    });
  }

  if (options.republishSince) {
    const again = await db.prisma.$executeRaw`
      UPDATE outbox_events SET "publishedAt" = NULL WHERE "publishedAt" >= ${options.republishSince}`;
    if (again > 0) log.info({ rows: again }, "publishing recent events again");
  }
  const unlisten = await db.listen("outbox_events", wake);
  const timer = setInterval(wake, options.pollMs ?? 1000);
  timer.unref();
  wake();

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      cancelSleep?.();
      await unlisten().catch(() => undefined);
      await loop;
      await queue;
    },

    async drain() {
      for (;;) {
        const result = await publishBatch();
        if (result.error) throw result.error;
        if (!result.full) return;
      }
    },

    async backlog() {
      const [row] = await db.prisma.$queryRaw<{ count: number }[]>`
        SELECT count(*)::int AS count FROM outbox_events WHERE "publishedAt" IS NULL`;
      return row?.count ?? 0;
    },
  };
}
