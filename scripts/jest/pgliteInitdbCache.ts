// Jest setup file (setupFiles): the embedded database's tests open PGlite on new, empty data
// directories, and PGlite then runs initdb in WebAssembly, 10 to 30 seconds each on this 2-core
// machine. initdb's result is the same every time, so the run makes it once
// (scripts/jest/pgliteInitdb.ts) and every PGlite opened on an empty directory starts from it, with
// PGlite's own `loadDataDir` (as its clone() does), instead of running initdb again. Everything after
// initdb is unchanged: the product still applies every migration to the new directory.
import { existsSync, readdirSync } from "node:fs";
import { initdbTarball } from "./pgliteInitdb";

type PGliteModule = typeof import("@electric-sql/pglite");
type Options = import("@electric-sql/pglite").PGliteOptions;

jest.mock("@electric-sql/pglite", () => {
  const actual = jest.requireActual<PGliteModule>("@electric-sql/pglite");
  const { PGlite } = actual;
  const create = PGlite.create.bind(PGlite) as (
    dataDir?: unknown,
    options?: unknown,
  ) => Promise<InstanceType<typeof PGlite>>;
  let cached: Promise<Blob | undefined> | undefined;

  PGlite.create = async function createFromInitdbCache(dataDirOrOptions?: unknown, maybeOptions?: unknown) {
    const options = (
      typeof dataDirOrOptions === "string"
        ? { ...((maybeOptions as Options | undefined) ?? {}), dataDir: dataDirOrOptions }
        : ((dataDirOrOptions as Options | undefined) ?? (maybeOptions as Options | undefined) ?? {})
    ) as Options;
    const dir = options.dataDir;
    const fresh =
      typeof dir === "string" &&
      dir !== "" &&
      !dir.includes("://") &&
      !options.loadDataDir &&
      !options.noInitDb &&
      (!existsSync(dir) || readdirSync(dir).length === 0);
    if (!fresh) return create(dataDirOrOptions, maybeOptions);
    cached ??= initdbTarball((o) => create(o), options);
    const dump = await cached;
    return create(dump ? { ...options, loadDataDir: dump } : options);
  } as typeof PGlite.create;
  return actual;
});
