import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { type LoopbackServer, listenOnLoopback } from "@services/shared/testing/loopback";
import { buildRedisApp } from "../testing/appHarness";
import { acceptedCodings, chooseCoding } from "./webApp";

describe("choosing a precompressed copy from Accept-Encoding", () => {
  it("reads codings and their quality, case-insensitively", () => {
    expect(acceptedCodings("gzip, deflate, BR;q=0.5, *;q=0")).toEqual(
      new Map([
        ["gzip", 1],
        ["deflate", 1],
        ["br", 0.5],
        ["*", 0],
      ]),
    );
    expect(acceptedCodings(undefined).size).toBe(0);
  });

  it("prefers brotli over gzip when the client accepts both equally", () => {
    expect(chooseCoding("gzip, deflate, br, zstd", ["br", "gzip"])).toBe("br");
    expect(chooseCoding("gzip, deflate, br", ["gzip"])).toBe("gzip");
  });

  it("follows the client's quality values and refusals", () => {
    expect(chooseCoding("br;q=0.2, gzip;q=0.8", ["br", "gzip"])).toBe("gzip");
    expect(chooseCoding("br;q=0, gzip", ["br", "gzip"])).toBe("gzip");
    expect(chooseCoding("*", ["br", "gzip"])).toBe("br");
    expect(chooseCoding("*;q=0.5, br;q=0", ["br", "gzip"])).toBe("gzip");
  });

  it("chooses nothing for a client that accepts neither, or says nothing", () => {
    expect(chooseCoding("identity", ["br", "gzip"])).toBeNull();
    expect(chooseCoding("deflate", ["br", "gzip"])).toBeNull();
    expect(chooseCoding("", ["br", "gzip"])).toBeNull();
    expect(chooseCoding(undefined, ["br", "gzip"])).toBeNull();
    expect(chooseCoding("gzip;q=0, br;q=0", ["br", "gzip"])).toBeNull();
  });
});

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: LoopbackServer;
let stop: () => Promise<void>;
let dist: string;
let base: string;

/** One request with exactly these headers; the body as sent, never decoded. */
function raw(method: string, urlPath: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = httpRequest(`${base}${urlPath}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

function decode(answer: RawAnswer): Buffer {
  const coding = answer.headers["content-encoding"];
  if (coding === "br") return brotliDecompressSync(answer.body);
  if (coding === "gzip") return gunzipSync(answer.body);
  if (coding === undefined) return answer.body;
  throw new Error(`unexpected coding ${coding}`);
}

const SCRIPT = Buffer.from(
  Array.from({ length: 400 }, (_, i) => `export const value${i} = "portal asset ${i}";`).join("\n"),
);
const STYLES = Buffer.from(
  Array.from({ length: 200 }, (_, i) => `.portal-x${i} { margin: ${i}px; }`).join("\n"),
);
const INDEX_HTML = `<!doctype html><html><head><title>ESRT Portal</title></head><body>${"<p>portal app</p>".repeat(120)}</body></html>`;

beforeAll(async () => {
  // A built app: a script with brotli and gzip copies, a stylesheet with only a gzip copy, a small
  // script with none, and an index.html large enough to be compressed on the fly.
  // Its folder's name starts with a dot, as a checkout under ~/.cache would: only the path inside
  // the build may be refused as a dot-file.
  dist = mkdtempSync(path.join(tmpdir(), ".portal-web-compressed-"));
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(path.join(dist, "index.html"), INDEX_HTML);
  writeFileSync(path.join(dist, "assets", "app-abc123.js"), SCRIPT);
  writeFileSync(path.join(dist, "assets", "app-abc123.js.br"), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dist, "assets", "app-abc123.js.gz"), gzipSync(SCRIPT, { level: 9 }));
  writeFileSync(path.join(dist, "assets", "app-def456.css"), STYLES);
  writeFileSync(path.join(dist, "assets", "app-def456.css.gz"), gzipSync(STYLES, { level: 9 }));
  writeFileSync(path.join(dist, "assets", "tiny-0a1b2c.js"), "console.log('tiny');");

  const built = await buildRedisApp(() => ({ webDist: dist }));
  stop = built.stop;
  server = await listenOnLoopback(built.app);
  base = server.url;
});

afterAll(async () => {
  await server.close();
  await stop();
  rmSync(dist, { recursive: true, force: true });
});

describe("built assets, precompressed", () => {
  it("sends the brotli copy to a browser that accepts brotli, byte-identical once decoded", async () => {
    const answer = await raw("GET", "/assets/app-abc123.js", {
      "Accept-Encoding": "gzip, deflate, br, zstd",
    });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(answer.body.length).toBeLessThan(SCRIPT.length / 4);
    // decoded once it is the file: compressed exactly once
    expect(decode(answer).equals(SCRIPT)).toBe(true);
  });

  it("sends the gzip copy to a client that accepts only gzip", async () => {
    const answer = await raw("GET", "/assets/app-abc123.js", { "Accept-Encoding": "gzip" });
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
    expect(decode(answer).equals(SCRIPT)).toBe(true);
  });

  it("sends the file itself to a client that asks for no compression, or says nothing", async () => {
    const asks: Array<Record<string, string>> = [{ "Accept-Encoding": "identity" }, {}];
    for (const headers of asks) {
      const answer = await raw("GET", "/assets/app-abc123.js", headers);
      expect(answer.status).toBe(200);
      expect(answer.headers["content-encoding"]).toBeUndefined();
      expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
      expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(answer.body.equals(SCRIPT)).toBe(true);
    }
  });

  it("uses the copy there is: gzip for a stylesheet without a brotli copy", async () => {
    const answer = await raw("GET", "/assets/app-def456.css", { "Accept-Encoding": "br, gzip" });
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect(answer.headers["content-type"]).toMatch(/^text\/css/);
    expect(decode(answer).equals(STYLES)).toBe(true);
  });

  it("gives each copy its own validator, so a cache never serves one for another", async () => {
    const br = await raw("GET", "/assets/app-abc123.js", { "Accept-Encoding": "br" });
    const gz = await raw("GET", "/assets/app-abc123.js", { "Accept-Encoding": "gzip" });
    const plain = await raw("GET", "/assets/app-abc123.js", { "Accept-Encoding": "identity" });
    const etags = new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]);
    expect(etags.size).toBe(3);
  });

  it("answers HEAD with the copy's headers and no body", async () => {
    const answer = await raw("HEAD", "/assets/app-abc123.js", { "Accept-Encoding": "br" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.body.length).toBe(0);
  });

  it("serves a small file without copies as it is", async () => {
    const answer = await raw("GET", "/assets/tiny-0a1b2c.js", { "Accept-Encoding": "br, gzip" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.body.toString()).toBe("console.log('tiny');");
  });

  it("never serves a copy outside the build, nor a missing asset", async () => {
    const outside = await raw("GET", "/assets/..%2f..%2f..%2fetc%2fpasswd", {
      "Accept-Encoding": "br, gzip",
    });
    expect(outside.headers["content-encoding"]).not.toBe("br");
    expect(outside.body.toString()).not.toContain("root:");
    const missing = await raw("GET", "/assets/gone-999.js", { "Accept-Encoding": "br, gzip" });
    expect(missing.status).toBe(404);
  });
});

describe("dynamic compression of HTML and JSON", () => {
  it("compresses the app's index.html for a client that accepts it", async () => {
    const answer = await raw("GET", "/dashboard", { "Accept-Encoding": "gzip, deflate, br" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["cache-control"]).toBe("no-cache");
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
    expect(decode(answer).toString()).toBe(INDEX_HTML);
  });

  it("compresses a large JSON answer with gzip for a gzip-only client, once", async () => {
    const query = JSON.stringify({ query: "{ __schema { types { name description } } }" });
    const headers = { "Content-Type": "application/json", "Accept-Encoding": "gzip" };
    const answer = await raw("POST", "/graphql", headers, query);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("gzip");
    const plain = await raw("POST", "/graphql", { ...headers, "Accept-Encoding": "identity" }, query);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(answer.body.length).toBeLessThan(plain.body.length);
    expect(decode(answer).equals(plain.body)).toBe(true);
    expect(JSON.parse(plain.body.toString()).data.__schema.types.length).toBeGreaterThan(10);
  });

  it("leaves small answers uncompressed", async () => {
    const answer = await raw("GET", "/healthz", { "Accept-Encoding": "gzip, br" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(answer.body.toString())).toEqual({ status: "ok" });
  });
});
