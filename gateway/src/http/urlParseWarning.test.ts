import { spawnSync } from "node:child_process";
import path from "node:path";

// Node 24 walks the caller's stack on every url.parse() until it has warned once (DEP0169);
// settleUrlParseWarning has it decide once, silently, so the Express integration's call on every
// GraphQL request no longer walks it. Each case runs in a Node process of its own (the warning is
// once per process).

const HELPER = path.join(__dirname, "urlParseWarning.ts");

/** The stderr of a fresh Node process (under tsx, as `npm start`) running `script`. */
function stderrOf(script: string): string {
  const child = spawnSync(process.execPath, ["--import", "tsx", "-e", script], {
    encoding: "utf8",
    timeout: 30_000,
    // without the test run's own silencing of this warning (scripts/run-tests.sh)
    env: {
      ...process.env,
      NODE_OPTIONS: (process.env.NODE_OPTIONS ?? "").replace("--disable-warning=DEP0169", ""),
    },
  });
  if (child.status !== 0) throw new Error(`the script failed: ${child.stderr}`);
  return child.stderr;
}

const settle = `require(${JSON.stringify(HELPER)}).settleUrlParseWarning();`;
const parseHere = `require("node:url").parse("/graphql");`;

describe("settleUrlParseWarning", () => {
  it("leaves Node still to decide without it: the first url.parse() from outside node_modules warns", () => {
    expect(stderrOf(parseHere)).toContain("DEP0169");
  });

  it("settles the warning without printing it: a later url.parse() from outside node_modules prints none", () => {
    expect(stderrOf(settle + parseHere)).not.toContain("DEP0169");
  });

  it("leaves other deprecation warnings on", () => {
    const other = `process.emitWarning("still shown", "DeprecationWarning", "DEP_PORTAL_TEST");`;
    expect(stderrOf(settle + other)).toContain("DEP_PORTAL_TEST");
  });
});
