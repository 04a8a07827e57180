import { openApiDocument } from "@gateway/modules/apiDocs/openApiDocument";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import type { Express } from "express";

// The REST API's contract in tests (issue 22): the routes Express really has (found by walking its
// router, so a new route is covered without touching a test), and a check of any answer against
// the OpenAPI document: its status must be one the operation lists, and a JSON body must validate
// against that status's schema (JSON Schema 2020-12, which OpenAPI 3.1 schemas are).

/** A route: method (upper case) and path (Express's `:param` form, or OpenAPI's `{param}`). */
export interface RouteInfo {
  method: string;
  path: string;
}

interface LayerLike {
  route?: { path?: unknown; methods?: Record<string, boolean> };
  handle?: unknown;
  rawPath?: unknown;
}

function stackOf(handle: unknown): LayerLike[] | undefined {
  if (handle === null || (typeof handle !== "function" && typeof handle !== "object")) return undefined;
  const stack: unknown = Reflect.get(handle, "stack");
  return Array.isArray(stack) ? (stack as LayerLike[]) : undefined;
}

function joinPath(prefix: string, path: string): string {
  return `${prefix}${path === "/" ? "" : path}`.replace(/\/+/g, "/") || "/";
}

/** What the walk finds: routes, and the paths of handlers mounted with app.use that are not routers. */
function walkApp(app: Express): { routes: RouteInfo[]; mounts: string[] } {
  const routes: RouteInfo[] = [];
  const mounts: string[] = [];
  const walk = (stack: LayerLike[], prefix: string) => {
    for (const layer of stack) {
      const route = layer.route;
      if (route && typeof route.path === "string") {
        for (const [method, on] of Object.entries(route.methods ?? {})) {
          if (on && method !== "_all")
            routes.push({ method: method.toUpperCase(), path: joinPath(prefix, route.path) });
        }
        continue;
      }
      const at = typeof layer.rawPath === "string" ? layer.rawPath : "/";
      const inner = stackOf(layer.handle);
      if (inner) walk(inner, joinPath(prefix, at));
      else if (at !== "/") mounts.push(joinPath(prefix, at));
    }
  };
  walk(stackOf(app.router) ?? [], "");
  return { routes, mounts };
}

/** Every route registered under /api, each method and path once. */
export function apiRoutes(app: Express): RouteInfo[] {
  const seen = new Set<string>();
  return walkApp(app).routes.filter((r) => {
    const key = `${r.method} ${r.path}`;
    if (!r.path.startsWith("/api/") || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The paths under /api where a handler that is not a router serves whatever lies below (the tus
 * uploads): no route can be found there, so the document's operations below it stand for them.
 */
export function opaqueApiMounts(app: Express): string[] {
  const { routes, mounts } = walkApp(app);
  const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  return [...new Set(mounts)].filter(
    (mount) => mount.startsWith("/api/") && !routes.some((r) => under(r.path, mount)),
  );
}

/** Express's `/users/:id` as OpenAPI's `/users/{id}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

type Doc = ReturnType<typeof openApiDocument>;
type OperationLike = { responses?: Record<string, ResponseLike> };
type ResponseLike = { content?: Record<string, { schema?: unknown }> };

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Every operation of the document, as method and OpenAPI path. */
export function documentedOperations(doc: Doc = openApiDocument()): RouteInfo[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => Reflect.get(item ?? {}, m) !== undefined).map((m) => ({
      method: m.toUpperCase(),
      path,
    })),
  );
}

/** An answer to check: the request's method and URL (or path), the status, its type and body text. */
export interface Answer {
  method: string;
  url: string;
  status: number;
  contentType?: string;
  text?: string;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, validateFormats: false });
const validators = new Map<string, ValidateFunction>();

/** The operation template matching a request path (the one with fewest parameters), or undefined. */
function templateFor(
  doc: Doc,
  method: string,
  path: string,
): { path: string; op: OperationLike } | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const m = method.toLowerCase();
  let best: { path: string; op: OperationLike; params: number } | undefined;
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    // Express answers HEAD with a GET route
    const op = (Reflect.get(item ?? {}, m) ?? (m === "head" ? Reflect.get(item ?? {}, "get") : undefined)) as
      | OperationLike
      | undefined;
    if (!op) continue;
    const pattern = new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`,
    );
    if (!pattern.test(clean)) continue;
    const params = (template.match(/\{/g) ?? []).length;
    if (!best || params < best.params) best = { path: template, op, params };
  }
  return best;
}

/** Whether `type` (an answer's Content-Type) is one of `declared` (media types, ranges allowed). */
function mediaMatch(type: string, declared: string): boolean {
  if (declared === "*/*") return true;
  if (declared.endsWith("/*")) return type.startsWith(declared.slice(0, -1));
  return type === declared;
}

/**
 * What is wrong with `answer` (to a path under /api) by the document: a path no operation serves (unless the answer is the
 * API's own 404 for such a path), a status the operation does not list, a JSON body that does not
 * validate against the status's schema, or a media type the status does not list. Empty when it
 * holds to the contract.
 */
export function contractProblems(answer: Answer, doc: Doc = openApiDocument()): string[] {
  // the path as sent: a URL parser would resolve a "..", which the router takes as a parameter
  const path = answer.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]+/i, "").split(/[?#]/)[0] ?? "";
  // GraphQL and the web app are not the document's
  if (!path.startsWith("/api/")) return [];
  const where = `${answer.method} ${path} -> ${answer.status}`;
  const type = (answer.contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  let body: unknown;
  if (type === "application/json" && answer.text) {
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [`${where}: the body is not JSON`];
    }
  }
  const found = templateFor(doc, answer.method, path);
  if (!found) {
    const notRouted =
      answer.status === 404 &&
      typeof body === "object" &&
      body !== null &&
      Reflect.get(body, "message") === "Not found";
    return notRouted ? [] : [`${where}: no operation of the document serves this path`];
  }
  const responses = found.op.responses ?? {};
  const response = responses[String(answer.status)] ?? responses.default;
  if (!response) {
    return [`${where}: ${found.path} lists only ${Object.keys(responses).join(", ")}`];
  }
  const content = response.content ?? {};
  if (!type || !answer.text) return [];
  const declared = Object.keys(content);
  if (!declared.some((d) => mediaMatch(type, d))) {
    return [`${where}: answered ${type}; ${found.path} lists ${declared.join(", ") || "no body"}`];
  }
  const schema = content[type]?.schema;
  if (type !== "application/json" || schema === undefined) return [];
  const key = `${answer.method} ${found.path} ${answer.status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ ...(schema as object), components: doc.components });
    validators.set(key, validate);
  }
  if (validate(body)) return [];
  const errors = (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`)
    .join("; ");
  return [
    `${where}: the body does not match ${found.path}'s ${answer.status} schema: ${errors}; ${answer.text.slice(0, 300)}`,
  ];
}

/** The {@link Answer} of a supertest response. */
export function answerOf(res: {
  status: number;
  text?: string;
  headers: Record<string, string>;
  request: { method: string; url: string };
}): Answer {
  return {
    method: res.request.method,
    url: res.request.url,
    status: res.status,
    contentType: res.headers["content-type"],
    text: res.text,
  };
}

/** Expects a supertest response to hold to the OpenAPI document ({@link contractProblems}). */
export function expectInContract(res: Parameters<typeof answerOf>[0]): void {
  expect(contractProblems(answerOf(res))).toEqual([]);
}
