import { createServer } from "node:http";
import express from "express";

const body = JSON.stringify({
  id: 1,
  username: "someone",
  email: "a@b.c",
  firstName: "A",
  lastName: "B",
  permissions: [],
});
if (process.env.ABLATE === "express") {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  const router = express.Router();
  router.get("/user", (_req, res) => {
    res.json(JSON.parse(body));
  });
  app.use("/api", router);
  app.get("/healthz", (_q, r) => {
    r.json({});
  });
  app.listen(Number(process.env.PORT), "127.0.0.1");
} else {
  createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(req.url === "/healthz" ? "{}" : JSON.stringify(JSON.parse(body)));
  }).listen(Number(process.env.PORT), "127.0.0.1");
}
process.on("SIGTERM", () => process.exit(0));
