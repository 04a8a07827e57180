import { parse } from "node:url";

/**
 * Spares every GraphQL request a stack walk. Node 24's `url.parse()` warns once (DEP0169) when
 * called from outside node_modules, and until it has, every call walks its caller's stack to find
 * out where it comes from (isInsideNodeModules). @as-integrations/express5 calls it on each request
 * from inside node_modules, so the walk never stops: about 8 µs a request (more with a deep
 * Express stack). One call from here, with deprecation warnings off for its duration, settles the
 * question: no warning is printed and later calls go straight to parsing. The portal's own code
 * does not call `url.parse()` (the WHATWG URL API instead), so no warning it would print is lost.
 */
export function settleUrlParseWarning(): void {
  const quiet = process.noDeprecation;
  process.noDeprecation = true;
  try {
    parse("/");
  } finally {
    process.noDeprecation = quiet;
  }
}
