import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  isSupportedNode,
  SUPPORTED_NODE_MAJOR,
  unsupportedNodeMessage,
} from "@services/shared/supportedNode";

// Issue 20 §4: the portal runs, tests and ships on one supported LTS. These fail when the tests run on
// an older Node (the machine's, say, instead of the project's own from node_modules/.bin).

const root = path.resolve(__dirname, "..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

describe("the Node.js runtime", () => {
  it("runs the tests on the supported LTS or newer", () => {
    expect({ node: process.version, supported: isSupportedNode(process.versions.node) }).toEqual({
      node: process.version,
      supported: true,
    });
  });

  it("gives npm scripts' plain `node` the same Node as the tests (the project's own, first on PATH)", () => {
    const child = spawnSync("node", ["-p", "process.version"], { encoding: "utf8" });
    expect(child.stdout.trim()).toBe(process.version);
  });

  it("declares the same line in package.json: engines and the pinned `node` package", () => {
    expect(pkg.engines.node).toBe(`>=${SUPPORTED_NODE_MAJOR}`);
    expect(pkg.devDependencies.node).toMatch(new RegExp(`^${SUPPORTED_NODE_MAJOR}\\.\\d+\\.\\d+$`));
    expect(process.version).toBe(`v${pkg.devDependencies.node}`);
  });

  it("refuses older majors and names the way to start on the supported one", () => {
    expect(["20.20.2", "v22.22.0", "23.11.1"].map(isSupportedNode)).toEqual([false, false, false]);
    expect(["24.0.0", "v24.21.0", "26.1.0"].map(isSupportedNode)).toEqual([true, true, true]);
    expect(isSupportedNode("not a version")).toBe(false);
    expect(unsupportedNodeMessage("v20.20.2")).toBe(
      "Node.js 24 or newer is required, and this is v20.20.2. Start the portal with `make start` " +
        "(or `npm run start`), which runs the project's own Node 24 from node_modules/.bin after `npm install`.",
    );
  });
});
