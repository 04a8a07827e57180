import path from "node:path";
import { type Request, type RequestHandler, type Response, Router } from "express";
import getAbsoluteFSPath from "swagger-ui-dist/absolute-path";
import { apiDocsCspDirectives, securityHeaders } from "../../http/security";
import { API_DOCS_PATH, OPENAPI_JSON_PATH, openApiDocument } from "./openApiDocument";

// GET /api/openapi.json (the OpenAPI 3.1 document) and GET /api/docs (its reference page: Swagger UI
// from swagger-ui-dist, served by the portal, no CDN), both public in every mode (docs/DECISIONS.md,
// "The described REST API"). The page loads its script and style sheet from /api/docs/<file>; the
// initializer is a script of its own (no inline script: the CSP forbids it).

/** The reference page: Swagger UI's style sheet and bundle, then the initializer. */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Client portal REST API</title>
    <link rel="stylesheet" href="${API_DOCS_PATH}/swagger-ui.css">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${API_DOCS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${API_DOCS_PATH}/init.js"></script>
  </body>
</html>
`;

/**
 * Starts Swagger UI on the document: no validator badge (it would send the document to
 * validator.swagger.io), "Try it out" with the browser's own session cookie.
 */
const INIT_SCRIPT = `"use strict";
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(OPENAPI_JSON_PATH)},
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    displayRequestDuration: true,
  });
});
`;

/** The files of swagger-ui-dist the page loads, with their types. */
const SWAGGER_FILES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

/** GET /api/openapi.json: the document, revalidated on each read (an unchanged one is a 304). */
export function openApiJsonHandler(): RequestHandler {
  return (_req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-cache");
    res.json(openApiDocument());
  };
}

/**
 * The reference page and its files (mounted at /api/docs), under a CSP of their own: Swagger UI
 * sets style attributes and loads its images as data: URLs, nothing from another origin.
 * `swaggerDir` defaults to swagger-ui-dist's folder.
 */
export function apiDocsRouter(swaggerDir: string = getAbsoluteFSPath()): Router {
  const router = Router();
  router.use(securityHeaders(apiDocsCspDirectives));
  router.get("/", (_req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(PAGE);
  });
  router.get("/:asset", (req: Request, res: Response, next) => {
    const asset = String(req.params.asset);
    res.setHeader("Cache-Control", "no-cache");
    if (asset === "init.js") {
      res.type("text/javascript; charset=utf-8").send(INIT_SCRIPT);
      return;
    }
    const type = Object.hasOwn(SWAGGER_FILES, asset) ? SWAGGER_FILES[asset] : undefined;
    if (!type) {
      res.status(404).json({ message: "Not found" });
      return;
    }
    res.setHeader("Content-Type", type);
    res.sendFile(path.join(swaggerDir, asset), { cacheControl: false }, (err) => {
      if (err) next(err);
    });
  });
  return router;
}
