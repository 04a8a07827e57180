import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { printSchemaFile, SCHEMA_FILE } from "./print-schema";

describe("print-schema", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "portal-schema-"));
  const file = path.join(dir, "schema.graphql");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes the sorted SDL and then finds it up to date", async () => {
    await printSchemaFile({ file });
    const sdl = readFileSync(file, "utf8");
    expect(sdl).toContain("serverConfig: ServerConfig!");
    expect(sdl.indexOf("type AppError")).toBeLessThan(sdl.indexOf("type Query"));
    expect(await printSchemaFile({ file, check: true })).toBe(true);
  });

  it("reports a stale or missing file", async () => {
    writeFileSync(file, "type Query { old: String }\n");
    expect(await printSchemaFile({ file, check: true })).toBe(false);
    expect(await printSchemaFile({ file: path.join(dir, "missing.graphql"), check: true })).toBe(false);
  });

  it("finds the committed schema/schema.graphql up to date", async () => {
    expect(await printSchemaFile({ file: SCHEMA_FILE, check: true })).toBe(true);
  });
});
