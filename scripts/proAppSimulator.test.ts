import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { type ProAppSimulator, startProAppSimulator } from "./proAppSimulator";

// The simulator itself: signatures checked by the standardwebhooks library (here it also signs, as
// the specification's reference), each mode answering as described, and the control API.

const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
const secret = newSecret();
let sim: ProAppSimulator;

beforeEach(async () => {
  sim = await startProAppSimulator({ secrets: [secret] });
});
afterEach(async () => {
  await sim.close();
});

function userSync(uniqueId = "ESRT-0123ABCD", version = 3) {
  return {
    type: "user.sync",
    timestamp: new Date().toISOString(),
    data: {
      uniqueId,
      username: "ada",
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.test",
      phone: null,
      companyName: "Engines Ltd",
      userType: "client",
      userStatus: "active",
      accessLevel: "limited",
      version,
    },
  };
}

/** A webhook signed by the library with `signWith`, as the portal sends it. */
function signed(payload: unknown, options: { id?: string; signWith?: string; at?: Date } = {}) {
  const id = options.id ?? `msg_${randomBytes(8).toString("hex")}`;
  const at = options.at ?? new Date();
  const body = JSON.stringify(payload);
  const signature = new Webhook(options.signWith ?? secret).sign(id, at, body);
  return {
    body,
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signature,
    } as Record<string, string>,
  };
}

function post(
  path: string,
  message: { body: string; headers: Record<string, string> },
  signal?: AbortSignal,
) {
  return fetch(`${sim.url}${path}`, { method: "POST", body: message.body, headers: message.headers, signal });
}

describe("verification", () => {
  it("takes a webhook the library signed, answers 204 and records it", async () => {
    const message = signed(userSync("ESRT-0123ABCD", 3), { id: "msg_first" });
    const res = await post("/webhooks", message);
    expect(res.status).toBe(204);
    expect(sim.received).toMatchObject([
      {
        id: "msg_first",
        type: "user.sync",
        uniqueId: "ESRT-0123ABCD",
        version: 3,
        status: 204,
        mode: "ok",
        duplicate: false,
      },
    ]);
    expect(Date.parse(sim.received[0]?.receivedAt ?? "")).not.toBeNaN();
    const again = await post("/webhooks", message);
    expect(again.status).toBe(204);
    expect(sim.received[1]).toMatchObject({ id: "msg_first", duplicate: true });
  });

  it("refuses 401 a tampered body, another secret, a stale timestamp or missing headers", async () => {
    const good = signed(userSync());
    const tampered = { ...good, body: good.body.replace('"version":3', '"version":4') };
    expect(tampered.body).not.toBe(good.body);
    const otherSecret = signed(userSync(), { signWith: newSecret() });
    const stale = signed(userSync(), { at: new Date(Date.now() - 10 * 60_000) });
    const unsigned = { body: good.body, headers: { "content-type": "application/json" } };
    const noId = { body: good.body, headers: { ...good.headers, "webhook-id": "msg_other" } };
    for (const message of [tampered, otherSecret, stale, unsigned, noId]) {
      expect((await post("/webhooks", message)).status).toBe(401);
    }
    expect(sim.received).toEqual([]);
    expect(sim.rejected()).toBe(5);
  });

  it("during a rotation takes either secret, and a header with several signatures", async () => {
    await sim.close();
    const next = newSecret();
    sim = await startProAppSimulator({ secrets: [next, secret] });
    expect((await post("/webhooks", signed(userSync(), { signWith: secret }))).status).toBe(204);
    expect((await post("/webhooks", signed(userSync(), { signWith: next }))).status).toBe(204);
    // the portal sends both signatures during the grace period: one is enough
    const both = signed(userSync(), { signWith: next });
    const old = new Webhook(secret).sign(both.headers["webhook-id"] ?? "", new Date(), both.body);
    both.headers["webhook-signature"] = `v1,${randomBytes(32).toString("base64")} ${old}`;
    expect((await post("/webhooks", both)).status).toBe(204);
  });

  it("answers 400 to a signed payload outside the contract", async () => {
    const res = await post("/webhooks", signed({ type: "user.sync", timestamp: "x", data: {} }));
    expect(res.status).toBe(400);
    expect(sim.received).toEqual([]);
  });

  it("records endpoint tests", async () => {
    const test = {
      type: "endpoint.test",
      timestamp: new Date().toISOString(),
      data: { message: "A test event from the portal", endpointId: 7 },
    };
    expect((await post("/webhooks", signed(test))).status).toBe(204);
    expect(sim.received[0]).toMatchObject({ type: "endpoint.test", uniqueId: null, version: null });
  });
});

describe("modes", () => {
  it("fail answers 500, or the status it is given", async () => {
    sim.setMode("fail");
    expect((await post("/webhooks", signed(userSync()))).status).toBe(500);
    sim.setMode({ mode: "fail", failStatus: 503 });
    expect((await post("/webhooks", signed(userSync()))).status).toBe(503);
    expect(sim.received.map((m) => m.status)).toEqual([500, 503]);
  });

  it("gone answers 410; throttle 429 with Retry-After", async () => {
    sim.setMode("gone");
    expect((await post("/webhooks", signed(userSync()))).status).toBe(410);
    sim.setMode({ mode: "throttle", retryAfterSeconds: 7 });
    const throttled = await post("/webhooks", signed(userSync()));
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("retry-after")).toBe("7");
    sim.setMode("throttle");
    expect((await post("/webhooks", signed(userSync()))).headers.get("retry-after")).toBe("1");
  });

  it("hang never answers (the sender times out), and close() ends the hung connection", async () => {
    sim.setMode("hang");
    const started = Date.now();
    await expect(post("/webhooks", signed(userSync()), AbortSignal.timeout(400))).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(sim.received).toMatchObject([{ mode: "hang", status: null }]);
    const pending = post("/webhooks", signed(userSync()));
    await sim.waitFor((received) => received.length === 2);
    await sim.close();
    await expect(pending).rejects.toThrow();
    sim = await startProAppSimulator({ secrets: [secret] });
  });

  it("a bad signature is refused 401 whatever the mode", async () => {
    sim.setMode("hang");
    const good = signed(userSync());
    expect((await post("/webhooks", { ...good, body: `${good.body} ` })).status).toBe(401);
  });
});

describe("control API", () => {
  const json = (body: unknown) => ({
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });

  it("sets the mode, lists what was received, and resets", async () => {
    const set = await post("/control", json({ mode: "throttle", retryAfterSeconds: 3 }));
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ mode: "throttle", retryAfterSeconds: 3 });
    expect((await post("/webhooks", signed(userSync("ESRT-AAAA0000", 1)))).status).toBe(429);

    const list = await fetch(`${sim.url}/received`);
    expect(await list.json()).toMatchObject([{ uniqueId: "ESRT-AAAA0000", version: 1, status: 429 }]);

    expect((await post("/reset", json({}))).status).toBe(200);
    expect(sim.received).toEqual([]);
    expect((await post("/webhooks", signed(userSync()))).status).toBe(204);
  });

  it("refuses an unknown mode or a body that is not JSON", async () => {
    expect((await post("/control", json({ mode: "explode" }))).status).toBe(400);
    expect((await post("/control", json({ mode: "fail", failStatus: 200 }))).status).toBe(400);
    expect((await post("/control", { body: "{", headers: {} })).status).toBe(400);
    expect((await fetch(`${sim.url}/elsewhere`)).status).toBe(404);
  });

  it("refuses to start without a whsec_ secret", async () => {
    await expect(startProAppSimulator({ secrets: [] })).rejects.toThrow(/secret/);
    await expect(startProAppSimulator({ secrets: ["plain"] })).rejects.toThrow(/whsec_/);
  });
});
