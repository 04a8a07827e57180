import express from "express";
import { currentUser, env, redis, stopOnSigterm } from "./sessionRead";

// The framework's ceiling in benchmark P1: Express alone (the portal's router, no middleware)
// answering GET /api/user with exactly the bare server's work (./sessionRead.ts).

async function main(): Promise<void> {
  await redis.connect();
  const app = express();
  app.disable("x-powered-by");
  const api = express.Router();
  api.get("/user", (req, res, next) => {
    currentUser(req)
      .then((answer) => {
        res.setHeader("Cache-Control", "no-store");
        res.status(answer.status).json(answer.body);
      })
      .catch(next);
  });
  app.use("/api", api);
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  stopOnSigterm(app.listen(Number(env("PORT")), "127.0.0.1"));
}

void main();
