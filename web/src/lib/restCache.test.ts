import { DATA_LAYER_DEFAULTS, RestCache } from "./restCache";

const noDelay = () => 0;

describe("RestCache", () => {
  it("defaults to the spec's data layer: never stale, no retry", () => {
    expect(DATA_LAYER_DEFAULTS).toEqual({ staleTime: Number.POSITIVE_INFINITY, retry: 0 });
  });

  it("fetches once and then serves the cached answer", async () => {
    const cache = new RestCache(noDelay);
    const fetcher = jest.fn(async () => ({ port: 3000 }));
    await expect(cache.fetch("/api/server-config", fetcher)).resolves.toEqual({ port: 3000 });
    await expect(cache.fetch("/api/server-config", fetcher)).resolves.toEqual({ port: 3000 });
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(cache.get("/api/server-config").status).toBe("success");
  });

  it("shares one request between concurrent callers", async () => {
    const cache = new RestCache(noDelay);
    const fetcher = jest.fn(async () => 1);
    const [a, b] = await Promise.all([cache.fetch("k", fetcher), cache.fetch("k", fetcher)]);
    expect([a, b]).toEqual([1, 1]);
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it("fetches again once the stale time has passed", async () => {
    const cache = new RestCache(noDelay);
    let n = 0;
    const fetcher = async () => ++n;
    await cache.fetch("k", fetcher, { staleTime: 30_000 });
    const now = Date.now();
    const spy = jest.spyOn(Date, "now").mockReturnValue(now + 29_000);
    await expect(cache.fetch("k", fetcher, { staleTime: 30_000 })).resolves.toBe(1);
    spy.mockReturnValue(now + 31_000);
    await expect(cache.fetch("k", fetcher, { staleTime: 30_000 })).resolves.toBe(2);
    spy.mockRestore();
  });

  it("does not retry by default and keeps the error", async () => {
    const cache = new RestCache(noDelay);
    const fetcher = jest.fn(async () => {
      throw new Error("503: Service Unavailable");
    });
    await expect(cache.fetch("k", fetcher)).rejects.toThrow("503: Service Unavailable");
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(cache.get("k").status).toBe("error");
    expect(cache.get("k").error?.message).toBe("503: Service Unavailable");
  });

  it("retries as many times as asked", async () => {
    const cache = new RestCache(noDelay);
    const fetcher = jest
      .fn<Promise<string>, []>()
      .mockRejectedValueOnce(new Error("502: Bad Gateway"))
      .mockResolvedValueOnce("ok");
    await expect(cache.fetch("k", fetcher, { retry: 1 })).resolves.toBe("ok");
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it("lets set and invalidate replace or forget an entry and tells subscribers", async () => {
    const cache = new RestCache(noDelay);
    const seen: string[] = [];
    const unsubscribe = cache.subscribe("/api/user", () => seen.push(cache.get("/api/user").status));
    cache.set("/api/user", { id: 1 });
    expect(cache.get("/api/user").data).toEqual({ id: 1 });
    cache.invalidate("/api/user");
    expect(cache.get("/api/user").data).toBeUndefined();
    unsubscribe();
    cache.set("/api/user", { id: 2 });
    expect(seen).toEqual(["success", "idle"]);
  });
});

describe("RestCache.invalidatePrefix", () => {
  it("forgets every entry under the prefix and keeps the others", () => {
    const cache = new RestCache(noDelay);
    cache.set("/api/auth/check-permissions", { isAdmin: true });
    cache.set("/api/auth/check-permissions?permissions=manage%3Ausers", { isAdmin: true });
    cache.set("/api/user", { id: 1 });
    cache.invalidatePrefix("/api/auth/check-permissions");
    expect(cache.get("/api/auth/check-permissions").status).toBe("idle");
    expect(cache.get("/api/auth/check-permissions?permissions=manage%3Ausers").status).toBe("idle");
    expect(cache.get("/api/user").data).toEqual({ id: 1 });
  });
});
