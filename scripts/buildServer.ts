import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { build, type Metafile, type Plugin } from "esbuild";

// `npm run build:server`: the production image's runtime tree (issue 20 §3), built without Docker.
// The gateway, the worker and the operator commands are bundled by esbuild into one CommonJS file
// each (our TypeScript and the path aliases compiled in, every npm package left to node_modules);
// beside them go the files read at run time by path (the SQL migrations, the built web app) and a
// package.json that names only the packages the bundles import. The Dockerfile and
// scripts/runtimeImage.test.ts both run this script, so what the test starts is what the image holds.

const root = path.resolve(__dirname, "..");

/** The bundles of the runtime tree: its file under server/, and the source it starts from. */
export const SERVER_ENTRIES = {
  main: "gateway/src/main.ts",
  worker: "services/worker.ts",
  migrate: "prisma/migrate.ts",
  seed: "services/seed.ts",
  "admin-password": "scripts/adminPassword.ts",
} as const;

/**
 * The runtime tree's npm scripts: the development names (`npm run start`, `npm run admin:password`),
 * each running its compiled bundle, so an operator types the same commands in the image.
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: expanded by the shell npm runs scripts in
const HEAP = "--max-old-space-size=${PORTAL_HEAP_MB:-1024}";
const RUNTIME_SCRIPTS: Record<string, string> = {
  start: `node ${HEAP} server/main.js`,
  worker: `node ${HEAP} server/worker.js`,
  "db:migrate": "node server/migrate.js",
  "db:seed": "node server/seed.js",
  "admin:password": "node server/admin-password.js",
};

/** Files read at run time by path, copied from the repository into the same place in the tree. */
const RUNTIME_FILES = ["prisma/migrations", "web/dist"];

/**
 * How the runtime tree installs its packages, here and in the Dockerfile: the lockfile's versions,
 * no install script (none of the runtime's packages needs one: DECISIONS.md, Workspace), the npm
 * cache first.
 */
export const RUNTIME_INSTALL = [
  "install",
  "--omit=dev",
  "--ignore-scripts",
  "--prefer-offline",
  "--no-audit",
  "--no-fund",
  "--loglevel=error",
];

/**
 * Makes the bundled code see the CommonJS module globals as it does under tsx, file by file:
 * `__dirname` and `__filename` name the source file's place, translated into the runtime tree (so
 * `path.resolve(__dirname, "../../../web/dist")` in gateway/src/http still finds web/dist), and
 * `require.main === module` holds in the bundle's own entry only (a module that is also a command,
 * such as prisma/migrate.ts, does not run its command inside the gateway's bundle).
 * @throws (through esbuild) on any other use of `require.main` or of `module`, which it cannot map.
 */
function moduleGlobals(entry: string, outdir: string): Plugin {
  return {
    name: "module-globals",
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        let text = readFileSync(args.path, "utf8");
        const rel = path.relative(root, args.path);
        const isEntry = rel === entry;
        text = text.replace(/\brequire\.main\s*===\s*module\b/g, isEntry ? "true" : "false");
        if (/\brequire\.main\b|\bmodule\.(exports|children|parent|filename|paths)\b/.test(text)) {
          throw new Error(`${rel}: a use of require.main or module that the server build cannot map`);
        }
        const sourceDir = path.relative(outdir, path.dirname(args.path));
        text = text
          .replace(/\b__dirname\b/g, `require("node:path").join(__dirname, ${JSON.stringify(sourceDir)})`)
          .replace(
            /\b__filename\b/g,
            `require("node:path").join(__dirname, ${JSON.stringify(path.relative(outdir, args.path))})`,
          );
        return { contents: text, loader: "ts" };
      });
    },
  };
}

/** The npm package a bare import names (`@aws-sdk/client-s3/x` → `@aws-sdk/client-s3`). */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * The packages the bundles import, checked against package.json: each must be a production
 * dependency (a devDependency would be missing from the runtime tree).
 * @throws when a bundle imports a package that is not a production dependency.
 */
function importedPackages(metafiles: Metafile[], dependencies: Record<string, string>): string[] {
  const found = new Set<string>();
  for (const metafile of metafiles) {
    for (const output of Object.values(metafile.outputs)) {
      for (const imported of output.imports) {
        if (!imported.external || BUILTINS.has(imported.path)) continue;
        found.add(packageOf(imported.path));
      }
    }
  }
  const missing = [...found].filter((name) => !(name in dependencies));
  if (missing.length > 0) {
    throw new Error(
      `the server imports packages that are not production dependencies: ${missing.join(", ")}`,
    );
  }
  return [...found].sort();
}

export interface RuntimeTree {
  /** the tree's folder */
  dir: string;
  /** the packages its package.json depends on */
  dependencies: string[];
}

/**
 * Builds the runtime tree into `outDir` (emptied first): server/*.js, prisma/migrations, web/dist,
 * package.json (runtime dependencies and scripts only) and package-lock.json. With `install`, also
 * installs the production dependencies there (`npm install --omit=dev`, lockfile versions).
 * @throws when web/dist is not built (`npm run web:build`), a bundle fails, or the install fails.
 */
export async function buildRuntimeTree(
  outDir: string,
  options: { install?: boolean } = {},
): Promise<RuntimeTree> {
  if (!existsSync(path.join(root, "web/dist/index.html"))) {
    throw new Error("web/dist is not built: run `npm run web:build` (or `make build`) first");
  }
  rmSync(outDir, { recursive: true, force: true });
  const serverDir = path.join(outDir, "server");
  mkdirSync(serverDir, { recursive: true });
  // the tree's root stands for the repository root: a source's folder keeps its place below it
  const virtualOutdir = path.join(root, "server");

  const metafiles = await Promise.all(
    Object.entries(SERVER_ENTRIES).map(async ([name, entry]) => {
      const result = await build({
        entryPoints: { [name]: path.join(root, entry) },
        outdir: serverDir,
        bundle: true,
        platform: "node",
        format: "cjs",
        target: "node24",
        packages: "external",
        tsconfig: path.join(root, "tsconfig.json"),
        metafile: true,
        logLevel: "warning",
        legalComments: "none",
        plugins: [moduleGlobals(entry, virtualOutdir)],
      });
      return result.metafile;
    }),
  );

  for (const rel of RUNTIME_FILES) {
    cpSync(path.join(root, rel), path.join(outDir, rel), {
      recursive: true,
      // no source map, even one an older build left behind
      filter: (src) => !src.endsWith(".map"),
    });
  }

  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    name: string;
    version: string;
    description?: string;
    license?: string;
    engines?: Record<string, string>;
    dependencies: Record<string, string>;
    overrides?: Record<string, string>;
  };
  const dependencies = importedPackages(metafiles, pkg.dependencies);
  const runtimePkg = {
    name: pkg.name,
    version: pkg.version,
    private: true,
    description: `${pkg.description ?? pkg.name}: the compiled server (npm run build:server)`,
    license: pkg.license,
    engines: pkg.engines,
    scripts: RUNTIME_SCRIPTS,
    dependencies: Object.fromEntries(dependencies.map((name) => [name, pkg.dependencies[name]])),
    overrides: pkg.overrides,
  };
  writeFileSync(path.join(outDir, "package.json"), `${JSON.stringify(runtimePkg, null, 2)}\n`);
  cpSync(path.join(root, "package-lock.json"), path.join(outDir, "package-lock.json"));

  if (options.install) {
    execFileSync("npm", RUNTIME_INSTALL, { cwd: outDir, stdio: "inherit" });
  }
  return { dir: outDir, dependencies };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const install = args.includes("--install");
  const out = args.find((arg) => !arg.startsWith("--")) ?? "dist/runtime";
  buildRuntimeTree(path.resolve(root, out), { install }).then(
    (tree) => process.stdout.write(`runtime tree in ${tree.dir} (${tree.dependencies.length} packages)\n`),
    (err: unknown) => {
      process.stderr.write(`build:server failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
