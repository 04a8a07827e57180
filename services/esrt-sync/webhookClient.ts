import http from "node:http";
import https from "node:https";
import { Webhook } from "standardwebhooks";
import { literalAddressRefused, safeLookup } from "./urlSafety";

// One webhook request, per the Standard Webhooks specification: the headers webhook-id (stable
// across retries), webhook-timestamp (seconds) and webhook-signature ("v1,<base64 HMAC-SHA256>",
// signed by the standardwebhooks library; during a secret rotation both secrets sign, space
// separated). The connection goes only to addresses the safety rules allow.

/** How much of an answer is kept for the delivery log. */
export const SNIPPET_CHARS = 500;
const READ_LIMIT_BYTES = 4096;

/** What came of one request. */
export interface WebhookOutcome {
  /** the HTTP status, or null when no answer came (refused, timed out, reset) */
  statusCode: number | null;
  latencyMs: number;
  /** the start of the answer's body */
  snippet: string | null;
  /** the Retry-After header */
  retryAfter: string | null;
  /** why no answer came */
  error: string | null;
}

/**
 * Connections kept open between deliveries (as webhook senders do): a burst to one endpoint reuses a
 * few connections rather than opening (and for https, negotiating) one per message. Each connection
 * is checked by the safety rules when it is opened (the lookup below); one left idle for 4 s is
 * closed, before a receiver's usual 5 s keep-alive would close it under a request.
 */
const agentOptions = { keepAlive: true, maxFreeSockets: 64, timeout: 4000 };
const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

/** The webhook-signature header for a message: one "v1,..." per secret, space separated. */
export function signatureHeader(
  secrets: readonly string[],
  messageId: string,
  at: Date,
  body: string,
): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(" ");
}

/**
 * POSTs a signed JSON body to an endpoint and reports what came of it; never throws for network
 * failures (they are outcomes), only for a malformed secret.
 */
export async function sendWebhook(props: {
  url: string;
  messageId: string;
  body: string;
  secrets: readonly string[];
  timeoutMs: number;
  at?: Date;
}): Promise<WebhookOutcome> {
  const at = props.at ?? new Date();
  const headers = {
    "content-type": "application/json",
    "user-agent": "ESRT-Portal-Webhooks/1.0",
    "webhook-id": props.messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signatureHeader(props.secrets, props.messageId, at, props.body),
    "content-length": String(Buffer.byteLength(props.body)),
  };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(props.url);
  const secure = url.protocol === "https:";
  const transport = secure ? https : http;
  // a literal address is connected to without a lookup: judged here (an endpoint saved before a
  // rule tightened, or while the switch was on)
  if (literalAddressRefused(url.hostname)) {
    return {
      statusCode: null,
      snippet: null,
      retryAfter: null,
      error: `${url.hostname} is a loopback or private address`,
      latencyMs: 0,
    };
  }
  return new Promise<WebhookOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<WebhookOutcome, "latencyMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, latencyMs: elapsed() });
    };
    const req = transport.request(
      url,
      { method: "POST", headers, lookup: safeLookup, agent: secure ? agents.https : agents.http },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        // an answer read to its end leaves the connection for the next delivery; one longer than
        // the read limit is cut off with its connection
        const done = (cut: boolean) => {
          const snippet = Buffer.concat(chunks).toString("utf8").slice(0, SNIPPET_CHARS);
          const retryAfter = res.headers["retry-after"];
          finish({
            statusCode: res.statusCode ?? null,
            snippet: snippet.length > 0 ? snippet : null,
            retryAfter: typeof retryAfter === "string" ? retryAfter : null,
            error: null,
          });
          if (cut) res.destroy();
        };
        res.on("data", (chunk: Buffer) => {
          if (size < READ_LIMIT_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= READ_LIMIT_BYTES) done(true);
        });
        res.on("end", () => done(false));
        res.on("error", () => done(true));
        res.on("close", () => done(false));
      },
    );
    const timer = setTimeout(() => {
      finish({
        statusCode: null,
        snippet: null,
        retryAfter: null,
        error: `No answer within ${props.timeoutMs} ms`,
      });
      req.destroy();
    }, props.timeoutMs);
    req.on("error", (err: NodeJS.ErrnoException) => {
      finish({ statusCode: null, snippet: null, retryAfter: null, error: describe(err) });
    });
    req.end(props.body);
  });
}

function describe(err: NodeJS.ErrnoException): string {
  if (err.name === "PrivateAddressError") return err.message;
  switch (err.code) {
    case "ECONNREFUSED":
      return "Connection refused";
    case "ECONNRESET":
      return "Connection reset";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "Host not found";
    case "CERT_HAS_EXPIRED":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `TLS certificate refused (${err.code})`;
    default:
      return err.code ? `Request failed (${err.code})` : "Request failed";
  }
}
