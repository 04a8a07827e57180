import { access } from "node:fs/promises";
import path from "node:path";
import express, { type NextFunction, type Request, type Response, Router } from "express";

/** Where the built web app is looked for when AppDeps.webDist is not given. */
export const DEFAULT_WEB_DIST = path.resolve(__dirname, "../../../web/dist");

const NOT_BUILT =
  "The web app has not been built yet. Run `make build` (or `npm run web:build`) and reload this page.\n";

/**
 * Serves the built web app: hashed files under /assets/ cached for a year (immutable), other files
 * briefly, and index.html (no-cache) for every other GET so client-side routes, unknown ones
 * included, reach the React router. Answers 503 text while the build output is missing.
 */
export function webAppRouter(webDist: string): Router {
  const router = Router();
  const indexHtml = path.join(webDist, "index.html");

  router.use((_req: Request, res: Response, next: NextFunction) => {
    res.locals.metricsRoute = "static";
    next();
  });

  router.use(
    express.static(webDist, {
      index: false,
      redirect: false,
      fallthrough: true,
      setHeaders: (res, filePath) => {
        const rel = path.relative(webDist, filePath).split(path.sep).join("/");
        res.setHeader(
          "Cache-Control",
          rel.startsWith("assets/") ? "public, max-age=31536000, immutable" : "public, max-age=3600",
        );
      },
    }),
  );

  router.get("/assets/{*rest}", (_req: Request, res: Response) => {
    res.status(404).type("text/plain").send("Not found\n");
  });

  router.get("/{*rest}", async (_req: Request, res: Response, next: NextFunction) => {
    try {
      await access(indexHtml);
    } catch {
      res.status(503).type("text/plain").setHeader("Cache-Control", "no-store").send(NOT_BUILT);
      return;
    }
    res.locals.metricsRoute = "spa";
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(indexHtml, { cacheControl: false }, (err) => {
      if (err) next(err);
    });
  });

  return router;
}
