import { access, stat } from "node:fs/promises";
import path from "node:path";
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  Router,
} from "express";

/** Where the built web app is looked for when AppDeps.webDist is not given. */
export const DEFAULT_WEB_DIST = path.resolve(__dirname, "../../../web/dist");

const NOT_BUILT =
  "The web app has not been built yet. Run `make build` (or `npm run web:build`) and reload this page.\n";

/** Cache-Control of a file of the build, by its path relative to the build directory. */
function cacheControlFor(rel: string): string {
  return rel.startsWith("assets/") ? "public, max-age=31536000, immutable" : "public, max-age=3600";
}

/** The content codings kept beside built files (`x.js.br`, `x.js.gz`), in the server's order of preference. */
export const PRECOMPRESSED_CODINGS = [
  { coding: "br", suffix: ".br" },
  { coding: "gzip", suffix: ".gz" },
] as const;

/** A content coding the build keeps precompressed. */
export type PrecompressedCoding = (typeof PRECOMPRESSED_CODINGS)[number]["coding"];

/**
 * The quality (0 to 1) an Accept-Encoding header gives each coding it names; `*` stands for every
 * coding not named. A missing header accepts only identity.
 */
export function acceptedCodings(header: string | undefined): Map<string, number> {
  const accepted = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name = "", ...params] = part.split(";").map((item) => item.trim());
    if (name === "") continue;
    let q = 1;
    for (const param of params) {
      const match = /^q=([01](?:\.\d{0,3})?)$/i.exec(param);
      if (match?.[1] !== undefined) q = Number(match[1]);
    }
    accepted.set(name.toLowerCase(), q);
  }
  return accepted;
}

/**
 * The precompressed coding to answer with: the one among `available` the client accepts with the
 * highest quality, brotli before gzip on a tie; null when it accepts none of them (it then gets the
 * file as it is).
 */
export function chooseCoding(
  header: string | undefined,
  available: readonly PrecompressedCoding[],
): PrecompressedCoding | null {
  const accepted = acceptedCodings(header);
  const wildcard = accepted.get("*") ?? 0;
  let best: PrecompressedCoding | null = null;
  let bestQ = 0;
  for (const { coding } of PRECOMPRESSED_CODINGS) {
    if (!available.includes(coding)) continue;
    const q = accepted.get(coding) ?? wildcard;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * Answers a request for a built file that has precompressed copies beside it (`.br`, `.gz`, written
 * by the build) with the copy the client accepts: the original's Content-Type, the coding in
 * Content-Encoding, `Vary: Accept-Encoding` and the original's cache headers. A client that accepts
 * neither (or a file without copies) falls through to the plain static files.
 */
function precompressedFiles(webDist: string): RequestHandler {
  const root = path.resolve(webDist);
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let rel: string;
    try {
      rel = decodeURIComponent(req.path).replace(/^\/+/, "");
    } catch {
      return next();
    }
    const file = path.resolve(root, rel);
    if (rel === "" || rel.includes("\0") || !file.startsWith(root + path.sep)) return next();
    const available: PrecompressedCoding[] = [];
    for (const { coding, suffix } of PRECOMPRESSED_CODINGS) {
      if (await isFile(file + suffix)) available.push(coding);
    }
    if (available.length === 0 || !(await isFile(file))) return next();
    res.vary("Accept-Encoding");
    const coding = chooseCoding(req.headers["accept-encoding"], available);
    const suffix = PRECOMPRESSED_CODINGS.find((c) => c.coding === coding)?.suffix;
    if (!coding || !suffix) return next();
    const relative = path.relative(root, file);
    res.type(path.extname(file));
    res.setHeader("Content-Encoding", coding);
    res.setHeader("Cache-Control", cacheControlFor(relative.split(path.sep).join("/")));
    // relative to the build's root, so only the path inside the build is checked for dot-files
    const options = { root, cacheControl: false, acceptRanges: false, dotfiles: "deny" as const };
    res.sendFile(relative + suffix, options, (err) => {
      if (!err) return;
      if (res.headersSent) return next(err);
      res.removeHeader("Content-Encoding");
      next();
    });
  };
}

/** A source map's path (`x.js.map`, `x.css.map`, or a compressed copy of one). */
const SOURCE_MAP = /\.map(?:\.(?:br|gz))?$/i;

/** Whether `urlPath` names a source map, as the static files would read it (percent-decoded). */
function isSourceMap(urlPath: string): boolean {
  let decoded = urlPath;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    // not decodable: the static files refuse it too
  }
  return SOURCE_MAP.test(decoded);
}

/**
 * Serves the built web app: hashed files under /assets/ cached for a year (immutable), other files
 * briefly, each as its precompressed brotli or gzip copy when the build wrote one and the client
 * accepts it, and index.html (no-cache) for every other GET so client-side routes, unknown ones
 * included, reach the React router. Answers 503 text while the build output is missing. Without
 * `sourceMaps` (production) a source map is never served, even one a build left behind: 404.
 */
export function webAppRouter(webDist: string, options: { sourceMaps?: boolean } = {}): Router {
  const router = Router();
  const indexHtml = path.join(webDist, "index.html");

  router.use((req: Request, res: Response, next: NextFunction) => {
    res.locals.metricsRoute = "static";
    if (!options.sourceMaps && isSourceMap(req.path)) {
      res.status(404).type("text/plain").send("Not found\n");
      return;
    }
    next();
  });

  router.use(precompressedFiles(webDist));
  router.use(
    express.static(webDist, {
      index: false,
      redirect: false,
      fallthrough: true,
      setHeaders: (res, filePath) => {
        const rel = path.relative(webDist, filePath).split(path.sep).join("/");
        res.setHeader("Cache-Control", cacheControlFor(rel));
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
    res.sendFile("index.html", { root: webDist, cacheControl: false }, (err) => {
      if (err) next(err);
    });
  });

  return router;
}
