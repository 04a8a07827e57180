import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { apiRequest, discardBody, getQueryFn } from "./api";

interface Seen {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let base: string;
let seen: Seen;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    req.on("end", () => {
      seen = { method: req.method, url: req.url, headers: req.headers, body };
      const routes: Record<string, [number, string, string?]> = {
        "/api/user": [200, JSON.stringify({ id: 7, firstName: "Ada" })],
        "/api/signed-out": [401, "Not signed in"],
        "/api/broken": [500, ""],
        "/api/teapot": [418, '{"message":"no coffee"}'],
      };
      const [status, text, reason] = routes[req.url ?? ""] ?? [404, "", undefined];
      res.writeHead(status, reason, { "Content-Type": "application/json" });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("apiRequest", () => {
  it("sends a JSON body and asks for JSON", async () => {
    const res = await apiRequest("POST", `${base}/api/user`, { login: "ada", password: "secret-1!" });
    expect(res.status).toBe(200);
    expect(seen.method).toBe("POST");
    expect(seen.headers.accept).toBe("application/json");
    expect(seen.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(seen.body)).toEqual({ login: "ada", password: "secret-1!" });
  });

  it("sends no body and no content type when there is none", async () => {
    await apiRequest("POST", `${base}/api/user`);
    expect(seen.body).toBe("");
    expect(seen.headers["content-type"]).toBeUndefined();
  });

  it("throws '<status>: <body>' for a non-OK answer", async () => {
    await expect(apiRequest("GET", `${base}/api/teapot`)).rejects.toThrow('418: {"message":"no coffee"}');
  });

  it("uses the status text when the body is empty", async () => {
    await expect(apiRequest("GET", `${base}/api/broken`)).rejects.toThrow(/^500: Internal Server Error$/);
  });
});

describe("getQueryFn", () => {
  it("parses the JSON answer", async () => {
    const fetchUser = getQueryFn<{ id: number; firstName: string }>({ on401: "throw" });
    await expect(fetchUser(`${base}/api/user`)).resolves.toEqual({ id: 7, firstName: "Ada" });
    expect(seen.headers.accept).toBe("application/json");
  });

  it("turns a 401 into null when asked to", async () => {
    const fetchUser = getQueryFn({ on401: "returnNull" });
    await expect(fetchUser(`${base}/api/signed-out`)).resolves.toBeNull();
  });

  it("reads the body of the 401 it turns into null, so the browser finishes the request", async () => {
    const fetchSpy = jest.spyOn(globalThis, "fetch");
    try {
      await getQueryFn({ on401: "returnNull" })(`${base}/api/signed-out`);
      const res = await (fetchSpy.mock.results[0]?.value as Promise<Response>);
      expect(res.status).toBe(401);
      expect(res.bodyUsed).toBe(true);
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it("throws on a 401 otherwise", async () => {
    const fetchUser = getQueryFn({ on401: "throw" });
    await expect(fetchUser(`${base}/api/signed-out`)).rejects.toThrow("401: Not signed in");
  });

  it("still throws for other failures when a 401 would be null", async () => {
    const fetchUser = getQueryFn({ on401: "returnNull" });
    await expect(fetchUser(`${base}/api/broken`)).rejects.toThrow("500: Internal Server Error");
  });
});

describe("discardBody", () => {
  it("reads a body nobody needs, once, and never throws", async () => {
    const res = new Response("Logged out", { status: 200 });
    await discardBody(res);
    expect(res.bodyUsed).toBe(true);
    await expect(discardBody(res)).resolves.toBeUndefined();
    await expect(discardBody(new Response(null, { status: 204 }))).resolves.toBeUndefined();
  });
});
