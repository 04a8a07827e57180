import { ApolloClient, InMemoryCache } from "@apollo/client";
import { lastRequestId, recordRequestId } from "./requestId";
import { createRestLink, restDocument, restFetchedAt, restKey } from "./restLink";

// The REST link: the spec's REST calls answered into Apollo Client's one cache (spec §1, §7).

const UserDocument = restDocument<{ me: { id: number } | null }>("query", "me");
const BrandDocument = restDocument<{ brand: { __typename: string; title: string } }>(
  "query",
  "brand",
  [],
  ["title"],
);

function clientWith(handlers: Parameters<typeof createRestLink>[0]) {
  return new ApolloClient({
    link: createRestLink(handlers, () => 0),
    cache: new InMemoryCache({ typePolicies: { Brand: { keyFields: [] } } }),
  });
}

describe("the REST link", () => {
  it("answers a @rest field from its handler, once, and serves it from the cache afterwards", async () => {
    const run = jest.fn(async () => ({ id: 7 }));
    const client = clientWith({ me: { run } });
    expect((await client.query({ query: UserDocument })).data).toEqual({ me: { id: 7 } });
    expect((await client.query({ query: UserDocument })).data).toEqual({ me: { id: 7 } });
    expect(run).toHaveBeenCalledTimes(1);
    expect(restFetchedAt(restKey("me"))).toBeGreaterThan(0);
  });

  it("passes the handler's error through unchanged (the spec's '<status>: <body>')", async () => {
    const client = clientWith({ me: { run: async () => Promise.reject(new Error("500: broken")) } });
    await expect(client.query({ query: UserDocument })).rejects.toThrow("500: broken");
  });

  it("tries again only as often as the handler says (no retry by default)", async () => {
    const failing = jest.fn(async () => Promise.reject(new Error("503: later")));
    await expect(clientWith({ me: { run: failing } }).query({ query: UserDocument })).rejects.toThrow();
    expect(failing).toHaveBeenCalledTimes(1);
    let calls = 0;
    const once = {
      run: async () => (++calls === 1 ? Promise.reject(new Error("503: later")) : { id: 1 }),
      retry: 1,
    };
    expect((await clientWith({ me: once }).query({ query: UserDocument })).data).toEqual({ me: { id: 1 } });
    expect(calls).toBe(2);
  });

  it("normalises a field with a selection set, so a write of the same object shows in it", async () => {
    const client = clientWith({ brand: { run: async () => ({ __typename: "Brand", title: "Old" }) } });
    await client.query({ query: BrandDocument });
    client.cache.modify({ id: "Brand:{}", fields: { title: () => "New" } });
    expect(client.readQuery({ query: BrandDocument })?.brand.title).toBe("New");
  });
});

describe("the request id", () => {
  it("keeps the last x-request-id an answer carried", () => {
    expect(lastRequestId()).toBeUndefined();
    recordRequestId(new Response("", { headers: { "x-request-id": "req-abc12345" } }));
    recordRequestId(new Response(""));
    expect(lastRequestId()).toBe("req-abc12345");
  });
});
