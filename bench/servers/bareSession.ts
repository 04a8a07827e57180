import { createServer, type ServerResponse } from "node:http";
import { currentUser, env, redis, stopOnSigterm } from "./sessionRead";

// The baseline of benchmark P1: a bare node:http server answering GET /api/user with the least work
// the portal must do (./sessionRead.ts). No framework, no logging, no metrics, no security headers.

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(json);
}

async function main(): Promise<void> {
  await redis.connect();
  const server = createServer((req, res) => {
    if (req.url === "/healthz") return send(res, 200, { status: "ok" });
    if (req.url === "/api/user" && req.method === "GET") {
      currentUser(req)
        .then((answer) => send(res, answer.status, answer.body))
        .catch(() => send(res, 500, { message: "Internal server error" }));
      return;
    }
    send(res, 404, { message: "Not found" });
  });
  server.keepAliveTimeout = 5000;
  server.listen(Number(env("PORT")), "127.0.0.1");
  stopOnSigterm(server);
}

void main();
