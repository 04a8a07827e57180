import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The id of a request: the caller's x-request-id when it looks like an id (letters, digits and
 * `._:-`, 8 to 128 characters), else a new UUID. Echoed in the x-request-id response header.
 */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers["x-request-id"];
  const id = typeof incoming === "string" && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader("x-request-id", id);
  return id;
}
