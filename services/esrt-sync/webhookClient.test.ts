import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { config, setConfig } from "@services/shared/config";
import { Webhook } from "standardwebhooks";
import { newWebhookSecret } from "./endpoints";
import { sendWebhook } from "./webhookClient";

// One webhook request as the Pro app meets it: signed per Standard Webhooks (checked by the
// standardwebhooks library), and over connections kept open between deliveries, so a burst does not
// open one connection (and for https one handshake) per message.

const before = config();
let server: Server;
let url: string;
let connections = 0;
let answer = "";
const secret = newWebhookSecret();

beforeAll(async () => {
  setConfig({ ...before, ESRT_ALLOW_HTTP: true, ESRT_ALLOW_PRIVATE: true });
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = {
        "webhook-id": String(req.headers["webhook-id"]),
        "webhook-timestamp": String(req.headers["webhook-timestamp"]),
        "webhook-signature": String(req.headers["webhook-signature"]),
      };
      try {
        new Webhook(secret).verify(Buffer.concat(chunks).toString("utf8"), headers);
      } catch {
        res.writeHead(401).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" }).end(answer);
    });
  });
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://localhost:${(server.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  setConfig(before);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  connections = 0;
  answer = "";
});

const send = (n: number) =>
  sendWebhook({
    url,
    messageId: `msg_${n}`,
    body: JSON.stringify({ type: "endpoint.test", n }),
    secrets: [secret],
    timeoutMs: 5000,
  });

describe("webhook requests", () => {
  it("are signed so that the standardwebhooks library accepts them", async () => {
    const outcome = await send(1);
    expect(outcome).toMatchObject({ statusCode: 200, error: null });
  });

  it("reuse one connection for deliveries one after another", async () => {
    answer = "ok";
    for (let n = 0; n < 10; n += 1) {
      expect(await send(n)).toMatchObject({ statusCode: 200, snippet: "ok" });
    }
    // at most one opened (an earlier test's connection may serve them all)
    expect(connections).toBeLessThanOrEqual(1);
  });

  it("cut off an answer longer than the read limit with its connection, and keep the start", async () => {
    answer = "x".repeat(64 * 1024);
    const first = await send(1);
    expect(first.statusCode).toBe(200);
    expect(first.snippet).toHaveLength(500);
    const opened = connections;
    await send(2);
    expect(connections).toBe(opened + 1);
  });
});

describe("the address rule at delivery", () => {
  it("refuses an endpoint whose literal address is internal, saved before the rule (issue 20), connecting to nothing", async () => {
    const port = (server.address() as AddressInfo).port;
    setConfig({ ...before, ESRT_ALLOW_HTTP: true, ESRT_ALLOW_PRIVATE: false });
    try {
      for (const target of [`http://127.0.0.1:${port}/hooks`, `http://[::ffff:127.0.0.1]:${port}/hooks`]) {
        const outcome = await sendWebhook({
          url: target,
          messageId: "msg_refused",
          body: "{}",
          secrets: [secret],
          timeoutMs: 2000,
        });
        expect(outcome).toMatchObject({
          statusCode: null,
          error: expect.stringMatching(/is a loopback or private address$/),
        });
      }
      // a name is judged when it is resolved
      expect(await send(1)).toMatchObject({
        statusCode: null,
        error: "localhost resolves to a loopback or private address",
      });
    } finally {
      setConfig({ ...before, ESRT_ALLOW_HTTP: true, ESRT_ALLOW_PRIVATE: true });
    }
    expect(connections).toBe(0);
  });
});
