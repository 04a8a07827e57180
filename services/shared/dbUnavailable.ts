// Whether an error means the database could not do the work now (unreachable, the connection lost,
// too busy, a statement or transaction that ran out of time), as opposed to a fault of the request
// or of the code. Requests that meet one answer 503 UNAVAILABLE with Retry-After, never 500
// (gateway/src/errors.ts): the client may try again, and nothing was changed.

/** Prisma's codes for a server it cannot reach or use now (P1xxx connection, P2024 pool, P2028 transaction). */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028"]);

/** The driver adapter's kinds for the same (Prisma 7 driver adapters, meta.driverAdapterError.cause.kind). */
const ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "DatabaseDoesNotExist",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TransactionAlreadyClosed",
]);

/**
 * PostgreSQL SQLSTATEs: connection exceptions (08), insufficient resources (53), operator
 * intervention (57: a statement timeout or cancel, an admin shutdown, "cannot connect now") and a
 * lock that was not granted in time (55P03).
 */
function isUnavailableSqlState(code: string): boolean {
  return /^(08|53|57)/.test(code) || code === "55P03";
}

/** Node's socket errors, met when a connection is opened or lost. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
]);

/** pg and pg-pool's own messages for a lost connection or a connection not given in time. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error/,
  /^(PostgreSQL|The embedded database) did not answer within \d+ ms$/,
];

function holds(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { code?: unknown; message?: unknown; meta?: { driverAdapterError?: { cause?: unknown } } };
  const code = typeof e.code === "string" ? e.code : "";
  if (PRISMA_CODES.has(code) || SOCKET_CODES.has(code)) return true;
  const cause = e.meta?.driverAdapterError?.cause as { kind?: unknown; code?: unknown } | undefined;
  if (cause) {
    if (typeof cause.kind === "string" && ADAPTER_KINDS.has(cause.kind)) return true;
    if (cause.kind === "postgres" && typeof cause.code === "string" && isUnavailableSqlState(cause.code)) {
      return true;
    }
  }
  // a pg DatabaseError carries its SQLSTATE in `code` (five characters) and `severity`
  if ("severity" in e && /^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code)) return true;
  const message = typeof e.message === "string" ? e.message : "";
  return DRIVER_MESSAGES.some((pattern) => pattern.test(message));
}

/** Whether `err`, or an error it was caused by, says the database cannot do the work now. */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (holds(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
