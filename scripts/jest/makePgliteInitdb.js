// Makes the run's PGlite initdb tarball (scripts/jest/pgliteInitdb.ts) in a process of its own, so
// that initdb's seconds of WebAssembly never hold up Jest's parent: node makePgliteInitdb.js <tarball>.
// Writes <tarball>.failed instead when it cannot, so that the tests waiting for it run initdb themselves.
const { renameSync, writeFileSync } = require("node:fs");
const { PGlite } = require("@electric-sql/pglite");
const { pg_trgm } = require("@electric-sql/pglite/contrib/pg_trgm");
const { unaccent } = require("@electric-sql/pglite/contrib/unaccent");

const tarball = process.argv[2];
(async () => {
  const fresh = await PGlite.create({ extensions: { pg_trgm, unaccent } });
  const dump = await fresh.dumpDataDir("none");
  writeFileSync(`${tarball}.tmp`, Buffer.from(await dump.arrayBuffer()));
  renameSync(`${tarball}.tmp`, tarball);
  await fresh.close();
})().catch((err) => {
  writeFileSync(`${tarball}.failed`, String(err?.stack ?? err));
  process.exitCode = 1;
});
