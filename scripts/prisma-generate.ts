import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

// `prisma generate` refuses to run unless a schema engine binary exists, but it only checks that the
// file named by PRISMA_SCHEMA_ENGINE_BINARY exists; it never runs it to generate the client. These
// machines cannot download Prisma's engines, so a small stand-in file takes its place (see DECISIONS.md).

const root = path.resolve(__dirname, "..");

/**
 * Creates (once) the stand-in schema engine file and returns its path.
 * @throws when node_modules/.cache cannot be written.
 */
export function ensureEngineStandIn(): string {
  const dir = path.join(root, "node_modules", ".cache", "prisma-engine-stand-in");
  const file = path.join(dir, "schema-engine");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      file,
      "#!/bin/sh\necho 'stand-in: migrations are applied by npm run db:migrate' >&2\nexit 1\n",
      { mode: 0o755 },
    );
  }
  return file;
}

/**
 * Runs `prisma generate` (the Prisma client) without any engine download. The Pothos Prisma types
 * an earlier schema generated are removed: the GraphQL builder no longer loads that plugin, and
 * their global types would ask it for the plugin's options.
 * @throws never; exits the process with prisma's status when it fails.
 */
export function generate(): void {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? ensureEngineStandIn(),
    PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING: "1",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  };
  rmSync(path.join(root, "services", "shared", "generated", "pothos-prisma-types.ts"), { force: true });
  const cli = path.join(root, "node_modules", "prisma", "build", "index.js");
  const result = spawnSync(process.execPath, [cli, "generate"], { cwd: root, env, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (require.main === module) generate();
