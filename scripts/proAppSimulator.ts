import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { proAppPayloadSchema } from "@schema/esrt/contract";
import { Webhook } from "standardwebhooks";
import { z } from "zod";

// A stand-in for ESRT Pro's webhook receiver (issue 10): it verifies each POST /webhooks with the
// `standardwebhooks` library (the reference implementation of the specification the portal signs
// by, so the portal's signatures are checked by code that is not ours), records it, and answers as
// it is told: 204 (ok), 500 or another status (fail), nothing at all (hang), 410 (gone), or 429 with
// Retry-After (throttle). Tests start it with startProAppSimulator; `make pro-app` runs it beside
// `make start` (scripts/proApp.ts), told what to do over its control API:
//   POST /control {"mode": "ok"|"fail"|"hang"|"gone"|"throttle", "retryAfterSeconds"?, "failStatus"?}
//   GET /received        the messages received, oldest first
//   POST /reset          forgets them and goes back to "ok"

/** How the simulator answers webhooks. */
export const proAppBehaviourSchema = z.object({
  mode: z.enum(["ok", "fail", "hang", "gone", "throttle"]),
  /** throttle: the Retry-After it sends (default 1) */
  retryAfterSeconds: z.number().int().min(0).max(86_400).optional(),
  /** fail: the status it answers (default 500) */
  failStatus: z.number().int().min(400).max(599).optional(),
});

export type ProAppBehaviour = z.infer<typeof proAppBehaviourSchema>;
export type ProAppMode = ProAppBehaviour["mode"];

/** One verified webhook the simulator received. */
export interface ReceivedWebhook {
  /** webhook-id: the same on every retry of one message */
  id: string;
  /** the payload's type: "user.sync" or "endpoint.test" */
  type: string;
  /** user.sync: the user's uniqueId and version */
  uniqueId: string | null;
  version: number | null;
  /** webhook-timestamp, in seconds */
  timestamp: number;
  receivedAt: string;
  /** the mode it was answered in, and the status (null: hang, never answered) */
  mode: ProAppMode;
  status: number | null;
  /** whether an earlier message carried the same webhook-id */
  duplicate: boolean;
  payload: unknown;
}

export interface ProAppSimulatorOptions {
  /** port to listen on (default 0: any free port) */
  port?: number;
  /** address to listen on (default 127.0.0.1) */
  host?: string;
  /** the endpoint's whsec_ secrets; a webhook verified by any of them is taken (rotation) */
  secrets: string[];
}

export interface ProAppSimulator {
  /** http://host:port (the webhook URL is `${url}/webhooks`) */
  url: string;
  webhookUrl: string;
  /** the verified webhooks received, oldest first (the same array for the simulator's lifetime) */
  received: ReceivedWebhook[];
  /** requests refused 401: missing or bad signature, stale timestamp */
  rejected(): number;
  setMode(behaviour: ProAppMode | ProAppBehaviour): void;
  /** forgets what was received and refused; back to "ok" */
  reset(): void;
  /** resolves once `check` holds for the received list; rejects after `timeoutMs` (default 10 s) */
  waitFor(check: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<void>;
  /** stops listening and ends every connection (hung requests included) */
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY) throw new BodyTooLarge("body too large");
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function headerOf(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

/**
 * Starts the Pro-app simulator (see the file's head).
 * @throws Error when no secret is given, a secret is not a whsec_ secret, or the port is taken.
 */
export async function startProAppSimulator(options: ProAppSimulatorOptions): Promise<ProAppSimulator> {
  if (options.secrets.length === 0) throw new Error("the simulator needs at least one whsec_ secret");
  const verifiers = options.secrets.map((secret) => {
    if (!secret.startsWith("whsec_")) throw new Error("a webhook secret starts with whsec_");
    return new Webhook(secret);
  });
  const received: ReceivedWebhook[] = [];
  const seen = new Set<string>();
  let rejected = 0;
  let behaviour: ProAppBehaviour = { mode: "ok" };

  function verify(body: string, headers: Record<string, string>): unknown {
    let lastError: unknown;
    for (const verifier of verifiers) {
      try {
        return verifier.verify(body, headers);
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError;
  }

  async function webhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const headers = {
      "webhook-id": headerOf(req, "webhook-id"),
      "webhook-timestamp": headerOf(req, "webhook-timestamp"),
      "webhook-signature": headerOf(req, "webhook-signature"),
    };
    let verified: unknown;
    try {
      verified = verify(body, headers);
    } catch (err) {
      rejected++;
      sendJson(res, 401, { message: err instanceof Error ? err.message : "Invalid signature" });
      return;
    }
    const parsed = proAppPayloadSchema.safeParse(verified);
    if (!parsed.success) {
      sendJson(res, 400, { message: "The payload does not match the contract", issues: parsed.error.issues });
      return;
    }
    const payload = parsed.data;
    const now = behaviour;
    const record: ReceivedWebhook = {
      id: headers["webhook-id"],
      type: payload.type,
      uniqueId: payload.type === "user.sync" ? payload.data.uniqueId : null,
      version: payload.type === "user.sync" ? payload.data.version : null,
      timestamp: Number(headers["webhook-timestamp"]),
      receivedAt: new Date().toISOString(),
      mode: now.mode,
      status: null,
      duplicate: seen.has(headers["webhook-id"]),
      payload,
    };
    seen.add(record.id);
    received.push(record);
    switch (now.mode) {
      case "ok":
        record.status = 204;
        res.writeHead(204).end();
        return;
      case "fail":
        record.status = now.failStatus ?? 500;
        sendJson(res, record.status, { message: "The Pro app is failing (simulated)" });
        return;
      case "gone":
        record.status = 410;
        sendJson(res, 410, { message: "This endpoint is gone (simulated)" });
        return;
      case "throttle":
        record.status = 429;
        sendJson(
          res,
          429,
          { message: "Too many requests (simulated)" },
          {
            "Retry-After": String(now.retryAfterSeconds ?? 1),
          },
        );
        return;
      case "hang":
        // never answered: the connection stays open until the sender gives up or close()
        return;
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "POST" && path === "/webhooks") return webhook(req, res);
    if (req.method === "POST" && path === "/control") {
      let json: unknown;
      try {
        json = JSON.parse(await readBody(req));
      } catch {
        return sendJson(res, 400, { message: "The body must be JSON" });
      }
      const parsed = proAppBehaviourSchema.safeParse(json);
      if (!parsed.success)
        return sendJson(res, 400, { message: parsed.error.issues[0]?.message ?? "Bad mode" });
      behaviour = parsed.data;
      return sendJson(res, 200, behaviour);
    }
    if (req.method === "GET" && path === "/received") return sendJson(res, 200, received);
    if (req.method === "POST" && path === "/reset") {
      reset();
      return sendJson(res, 200, behaviour);
    }
    if (req.method === "GET" && path === "/") {
      return sendJson(res, 200, { mode: behaviour, received: received.length, rejected });
    }
    sendJson(res, 404, { message: "Not found" });
  }

  function reset(): void {
    received.length = 0;
    seen.clear();
    rejected = 0;
    behaviour = { mode: "ok" };
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (res.headersSent) return;
      if (err instanceof BodyTooLarge) sendJson(res, 413, { message: "The body is too large" });
      else sendJson(res, 500, { message: "The simulator failed" });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  return {
    url,
    webhookUrl: `${url}/webhooks`,
    received,
    rejected: () => rejected,
    setMode(next) {
      behaviour = proAppBehaviourSchema.parse(typeof next === "string" ? { mode: next } : next);
    },
    reset,
    async waitFor(check, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!check(received)) {
        if (Date.now() > deadline)
          throw new Error(`the simulator did not receive what was expected in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
