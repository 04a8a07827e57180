import { createHash, type Hash } from "node:crypto";
import path from "node:path";

/** The hashing helper Apollo Server's request pipeline calls: @apollo/utils.createhash. */
interface ApolloHashHelper {
  createHash: (algorithm: string) => Hash;
}

/** node:crypto's createHash, loaded once: what Apollo's helper answers, without its require(). */
export function cryptoHash(algorithm: string): Hash {
  return createHash(algorithm);
}

/**
 * The module Apollo Server hashes with, found from Apollo's own place in node_modules (it is
 * Apollo's dependency, not the portal's): the very module object Apollo's pipeline reads
 * `createHash` from on each request.
 */
export function apolloHashHelper(): Partial<ApolloHashHelper> {
  const apollo = path.dirname(require.resolve("@apollo/server"));
  const helper: unknown = require(require.resolve("@apollo/utils.createhash", { paths: [apollo] }));
  return helper && typeof helper === "object" ? (helper as Partial<ApolloHashHelper>) : {};
}

/**
 * Spares every GraphQL request a module lookup. Apollo Server hashes each operation's text
 * (sha256, its document cache key) through @apollo/utils.createhash, which calls
 * `module.require("crypto")` on every call; under tsx (`npm start`, the benchmarks) every require
 * passes tsx's module hooks, some microseconds each. This points the helper's `createHash` at
 * node:crypto's, loaded once: the same algorithm and the same digest. Does nothing when the helper
 * has no `createHash` to replace (a later Apollo that hashes otherwise).
 */
export function hashOperationsWithCryptoLoadedOnce(): void {
  const helper = apolloHashHelper();
  if (typeof helper.createHash === "function") helper.createHash = cryptoHash;
}
