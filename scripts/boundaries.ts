import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The layout's boundaries (issue 19), checked by scripts/boundaries.test.ts over every source file:
 *
 * - no import climbs three or more `../` (the aliases @services/*, @schema/*, @gateway/*, @db/*,
 *   @web/* reach across instead);
 * - a relative import stays in its own room: a service, services/shared, the gateway, schema/,
 *   prisma/, the web app, or the tools (scripts/, e2e/, bench/, which may share helpers);
 * - another service is reached only through its face, `@services/<name>` (its index.ts), and test
 *   code may also use its test helpers, `@services/<name>/testing`; services/shared is reached by
 *   subpath (`@services/shared/db`);
 * - production code never imports test helpers (`.../testing`); tests and the tools may;
 * - the web app imports only itself and the shared contracts of schema/; services and schema/ never
 *   import the gateway (their tests may drive it); schema/ (the contracts) imports no service.
 */

/** The portal's services: rooms with one public face each. */
export const SERVICE_NAMES = [
  "user",
  "document",
  "appointment",
  "email",
  "esrt-sync",
  "diagnostics",
] as const;

const SOURCE = /\.(ts|tsx)$/;
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bjest\.(?:mock|requireActual|doMock)\s*\(\s*)["']([^"'\n]+)["']/g;

/** One source file as the checker reads it. */
export interface SourceFile {
  /** path from the repository's root, with forward slashes */
  path: string;
  text: string;
}

/** The room a repository path belongs to. */
export function roomOf(file: string): string {
  const [top, second] = file.split("/");
  if (top === "services") {
    if (second === "shared") return "shared";
    if ((SERVICE_NAMES as readonly string[]).includes(second ?? "")) return `service:${second}`;
    return "services";
  }
  if (top === "scripts" || top === "e2e" || top === "bench") return "tools";
  if (top === "gateway" || top === "schema" || top === "prisma" || top === "web") return top;
  return "root";
}

/** Whether a file is test code (a test, a test helper, a benchmark or a browser test). */
export function isTestCode(file: string): boolean {
  return (
    /\.test\.tsx?$/.test(file) ||
    /(^|\/)testing(\/|\.tsx?$)/.test(file) ||
    /^(e2e|bench|scripts)\//.test(file)
  );
}

/** The module specifiers a file imports (static, dynamic, require and jest.mock). */
export function specifiersOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) if (match[1]) found.push(match[1]);
  return found;
}

/** The repository path an alias or relative specifier points at (without extension), or undefined. */
function targetOf(file: string, spec: string): string | undefined {
  if (spec.startsWith(".")) return path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  const alias = /^@(services|schema|gateway|db|web)\/(.*)$/.exec(spec);
  if (!alias) return undefined;
  const [, name, rest] = alias;
  const base = {
    services: "services",
    schema: "schema",
    gateway: "gateway/src",
    db: "prisma",
    web: "web/src",
  }[name as "services" | "schema" | "gateway" | "db" | "web"];
  return `${base}/${rest}`;
}

/** Every boundary a set of files crosses, one line each ("file: import 'x': why"). */
export function boundaryViolations(files: SourceFile[]): string[] {
  const problems: string[] = [];
  for (const { path: file, text } of files) {
    const from = roomOf(file);
    for (const spec of specifiersOf(text)) {
      const say = (why: string) => problems.push(`${file}: import '${spec}': ${why}`);
      if (/^(\.\.\/){3,}/.test(spec)) say("climbs three or more '../' (use an alias)");
      const target = targetOf(file, spec);
      if (target === undefined) continue;
      const to = roomOf(target);
      if (spec.startsWith(".") && to !== from && !(from === "tools" && to === "tools")) {
        say(`reaches from ${from} into ${to} by a relative path (use an alias)`);
      }
      if (to.startsWith("service:") && to !== from) {
        const name = to.slice("service:".length);
        const inner = target.slice(`services/${name}`.length);
        if (inner === "/testing" || inner === "/testing/index") {
          if (!isTestCode(file)) say("production code imports another service's test helpers");
        } else if (inner !== "" && inner !== "/index") {
          say(`imports a file inside the ${name} service (use @services/${name})`);
        }
      }
      if (to === "shared" && /\/testing(\/|$)/.test(target) && !isTestCode(file)) {
        say("production code imports test helpers");
      }
      if (from === "web" && to !== "web" && to !== "schema")
        say("the web app imports only itself and schema/");
      const contract = from.startsWith("service:") || from === "shared" || from === "schema";
      if (contract && to === "gateway" && !isTestCode(file)) {
        say("services and contracts never import the gateway");
      }
      if (
        from === "schema" &&
        (to.startsWith("service:") || to === "shared" || to === "services") &&
        !isTestCode(file)
      ) {
        say("the contracts in schema/ import no service");
      }
    }
  }
  return problems;
}

/** The repository's source files (tracked and new, not ignored), read from `root`. */
export function repositorySources(root: string): SourceFile[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  return listed
    .split("\n")
    .filter((file) => SOURCE.test(file) && !file.includes("/generated/") && !file.startsWith("node_modules/"))
    .flatMap((file) => {
      try {
        return [{ path: file, text: readFileSync(path.join(root, file), "utf8") }];
      } catch {
        return []; // deleted in the working tree
      }
    });
}
