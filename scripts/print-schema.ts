import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { schema } from "@gateway/graphql/schema";
import { lexicographicSortSchema, printSchema } from "graphql";

/** Where the committed SDL lives; the web client's hooks are generated from it. */
export const SCHEMA_FILE = path.resolve(__dirname, "../schema/schema.graphql");

const HEADER =
  "# The portal's GraphQL schema, printed from the Pothos types in gateway/src/graphql.\n" +
  "# Do not edit: regenerate with `npm run schema:print` (CI runs `npm run schema:check`).\n\n";

/** The SDL of the gateway's schema, sorted so that its diff only shows real changes. */
export async function printedSchema(): Promise<string> {
  return `${HEADER}${printSchema(lexicographicSortSchema(schema))}\n`;
}

/**
 * Writes schema/schema.graphql, or with `check` compares it and returns false when it is stale.
 * @throws when the schema cannot be built or the file cannot be written.
 */
export async function printSchemaFile(options: { check?: boolean; file?: string } = {}): Promise<boolean> {
  const file = options.file ?? SCHEMA_FILE;
  const sdl = await printedSchema();
  if (options.check) {
    let committed = "";
    try {
      committed = readFileSync(file, "utf8");
    } catch {
      committed = "";
    }
    return committed === sdl;
  }
  writeFileSync(file, sdl);
  return true;
}

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const ok = await printSchemaFile({ check });
  const rel = path.relative(process.cwd(), SCHEMA_FILE);
  if (check && !ok) {
    console.error(
      `${rel} is out of date with the Pothos schema in gateway/src/graphql.\n` +
        "Run `npm run schema:print` (or `make codegen`) and commit the result.",
    );
    process.exit(1);
  }
  console.log(check ? `${rel} is up to date.` : `Wrote ${rel}.`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
