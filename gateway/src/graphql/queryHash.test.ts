import { createHash } from "node:crypto";
import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { apolloHashHelper, cryptoHash, hashOperationsWithCryptoLoadedOnce } from "./queryHash";

// Apollo Server hashes each operation's text (its document cache key) through its helper module;
// the portal points that helper at node:crypto loaded once. The key must stay what Apollo computes.

/** Runs `{ hello }` on a bare Apollo Server; answers the operation hashes its pipeline computed. */
async function operationHashes(query: string): Promise<string[]> {
  const hashes: string[] = [];
  const capture: ApolloServerPlugin = {
    async requestDidStart() {
      return {
        async didResolveSource({ queryHash }) {
          hashes.push(queryHash);
        },
      };
    },
  };
  const server = new ApolloServer({ typeDefs: "type Query { hello: String }", plugins: [capture] });
  await server.start();
  try {
    await server.executeOperation({ query });
  } finally {
    await server.stop();
  }
  return hashes;
}

describe("hashOperationsWithCryptoLoadedOnce", () => {
  afterEach(() => jest.restoreAllMocks());

  it("has Apollo Server's pipeline hash through node:crypto's createHash, loaded once", async () => {
    hashOperationsWithCryptoLoadedOnce();
    const helper = apolloHashHelper();
    expect(helper.createHash).toBe(cryptoHash);
    const hashing = jest.spyOn(helper as { createHash: typeof cryptoHash }, "createHash");
    await operationHashes("{ hello }");
    expect(hashing).toHaveBeenCalledWith("sha256");
  });

  it("leaves Apollo's operation hash the sha256 of the operation's text", async () => {
    hashOperationsWithCryptoLoadedOnce();
    const query = "{ hello }";
    expect(await operationHashes(query)).toEqual([createHash("sha256").update(query).digest("hex")]);
  });
});
