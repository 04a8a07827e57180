import { access } from "node:fs/promises";
import path from "node:path";
import express, { type Request, type Response, Router } from "express";
import { graphiqlCspDirectives, securityHeaders } from "../http/security";

/** Where `npm run graphiql:build` writes the self-hosted GraphiQL page. */
export const GRAPHIQL_DIST = path.resolve(__dirname, "../../graphiql/dist");

const NOT_BUILT = "GraphiQL has not been built yet. Run `npm run graphiql:build` and reload this page.\n";

/**
 * Serves the self-hosted GraphiQL build (mounted at /graphiql outside production) with its own CSP:
 * Monaco needs inline <style> elements and same-origin workers. Answers 503 text when not built.
 */
export function graphiqlRouter(dist: string = GRAPHIQL_DIST): Router {
  const router = Router();
  router.use((_req: Request, res: Response, next) => {
    res.locals.metricsRoute = "/graphiql";
    next();
  });
  router.use(securityHeaders(graphiqlCspDirectives));
  router.use(
    "/assets",
    express.static(path.join(dist, "assets"), {
      index: false,
      redirect: false,
      setHeaders: (res) => res.setHeader("Cache-Control", "public, max-age=31536000, immutable"),
    }),
  );
  router.get("/", async (req: Request, res: Response, next) => {
    if (!req.originalUrl.split("?")[0]?.endsWith("/")) {
      // Relative asset URLs and the Vite base both expect the trailing slash.
      res.redirect(301, "/graphiql/");
      return;
    }
    const index = path.join(dist, "index.html");
    try {
      await access(index);
    } catch {
      res.status(503).type("text/plain").setHeader("Cache-Control", "no-store").send(NOT_BUILT);
      return;
    }
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(index, { cacheControl: false }, (err) => {
      if (err) next(err);
    });
  });
  return router;
}
