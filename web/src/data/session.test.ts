import { checkServerSession, outcomeOf, renewServerSession, sendExpiredLogout } from "./session";

const answering = (status: number): typeof fetch => jest.fn(async () => new Response(null, { status }));

/** How both session requests ask: with the cookie, never from the cache, for JSON. */
const FRESH_WITH_COOKIE = {
  credentials: "include",
  cache: "no-store",
  headers: { Accept: "application/json" },
};

describe("the server session check (spec §4)", () => {
  it("reads a refused check as an expired session", async () => {
    await expect(checkServerSession(answering(401))).resolves.toBe("expired");
  });

  it("ignores a network error, treating the session as valid", async () => {
    const offline = jest.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(checkServerSession(offline)).resolves.toBe("unknown");
  });

  it("asks without caching and with the cookie, and reads 200 as active", async () => {
    const fetchImpl = answering(200);
    await expect(checkServerSession(fetchImpl)).resolves.toBe("active");
    expect(fetchImpl).toHaveBeenCalledWith("/api/session-check", FRESH_WITH_COOKIE);
  });

  it("renews the session through GET /api/user (session-check does not renew it)", async () => {
    const fetchImpl = answering(200);
    await expect(renewServerSession(fetchImpl)).resolves.toBe("active");
    expect(fetchImpl).toHaveBeenCalledWith("/api/user", FRESH_WITH_COOKIE);
    await expect(renewServerSession(answering(401))).resolves.toBe("expired");
  });

  it("logs an expired session out with keepalive, reading the answer and never throwing", async () => {
    const res = new Response(null, { status: 200 });
    const fetchImpl = jest.fn(async () => res);
    await expect(sendExpiredLogout(fetchImpl)).resolves.toBeUndefined();
    expect(fetchImpl).toHaveBeenCalledWith("/api/logout", {
      method: "POST",
      credentials: "include",
      keepalive: true,
      headers: { Accept: "application/json" },
    });
    const offline = jest.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(sendExpiredLogout(offline)).resolves.toBeUndefined();
  });

  it("reads every answer's body, so no check is left open in the browser", async () => {
    for (const [check, status] of [
      [checkServerSession, 200],
      [checkServerSession, 401],
      [renewServerSession, 200],
      [renewServerSession, 401],
    ] as const) {
      const res = new Response(JSON.stringify({ message: "checked" }), { status });
      await check(jest.fn(async () => res));
      expect(res.bodyUsed).toBe(true);
    }
  });

  it("reads a refusal as expired but a server error as unknown (a brief outage signs nobody out)", async () => {
    await expect(checkServerSession(answering(503))).resolves.toBe("unknown");
    await expect(renewServerSession(answering(503))).resolves.toBe("unknown");
    expect(outcomeOf(403)).toBe("expired");
    expect(outcomeOf(204)).toBe("active");
  });
});
