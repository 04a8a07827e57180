/**
 * The one Node.js line the portal runs, tests and ships on (issue 20): the current LTS, 24. The
 * project brings its own Node 24 as the `node` devDependency (node_modules/.bin/node), which
 * `npm run`, `npx` and every Makefile target put first on PATH; the image is `node:24`. The process
 * entries import ./nodeGuard first, so a start on an older Node stops with one clear line instead of
 * an obscure failure later (several dependencies need Node 22 or newer).
 */

/** The oldest Node.js major the portal supports; package.json's `engines.node` says the same. */
export const SUPPORTED_NODE_MAJOR = 24;

/** Whether a Node.js version ("24.21.0" or "v24.21.0") is one the portal supports. */
export function isSupportedNode(version: string): boolean {
  const major = Number.parseInt(version.replace(/^v/, ""), 10);
  return Number.isInteger(major) && major >= SUPPORTED_NODE_MAJOR;
}

/** The message an entry prints when it refuses to start on an unsupported Node.js. */
export function unsupportedNodeMessage(version: string): string {
  return (
    `Node.js ${SUPPORTED_NODE_MAJOR} or newer is required, and this is ${version}. ` +
    "Start the portal with `make start` (or `npm run start`), which runs the project's own Node " +
    `${SUPPORTED_NODE_MAJOR} from node_modules/.bin after \`npm install\`.`
  );
}
