import { isSupportedNode, unsupportedNodeMessage } from "./supportedNode";

// Imported first by each process entry (gateway/src/main.ts, services/worker.ts): on a Node.js older
// than the supported LTS the process stops here, before any dependency that needs a newer one loads.
if (!isSupportedNode(process.versions.node)) {
  process.stderr.write(`${unsupportedNodeMessage(process.version)}\n`);
  process.exit(1);
}
