import { createServer } from "node:http";
import { hashPassword, verifyPassword } from "@services/user";

// The baseline of benchmark P4: the raw argon2id verify rate of the portal's own password check
// (the same package and parameters), behind the thinnest HTTP server: POST /login verifies the
// password sent against one stored hash and answers 200 or 401. No database, Redis or session.

const PASSWORD = process.env.BENCH_PASSWORD ?? "Test-Password-1!";

async function main(): Promise<void> {
  const stored = await hashPassword(PASSWORD);
  const server = createServer((req, res) => {
    if (req.url === "/healthz") {
      res.end('{"status":"ok"}');
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const { password } = JSON.parse(Buffer.concat(chunks).toString() || "{}") as { password?: string };
      void verifyPassword(stored, password ?? "").then((ok) => {
        res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
        res.end(JSON.stringify({ ok }));
      });
    });
  });
  server.listen(Number(process.env.PORT), "127.0.0.1");
  process.on("SIGTERM", () => process.exit(0));
}

void main();
