import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Config, setConfig } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import type { RedisClient } from "@services/shared/redis";
import { testDb } from "@services/shared/testing/db";
import { TEST_PASSWORD } from "@services/shared/testing/factories";
import { Upload } from "tus-js-client";
import { createApp } from "../app";
import { SESSION_COOKIE } from "../http/session";
import { fakeWebDist, redisSessionStore, testConfig, testRedis } from "./appHarness";

// Helpers of the upload and download tests: the real app listening on a free port (tus-js-client
// and raw HTTP need a real socket), on this run's database and Redis, with a data directory of its
// own (staging area and local storage); sign-in, a tus upload and raw requests.

export interface FilesServer {
  /** http://127.0.0.1:<port> */
  url: string;
  db: Db;
  config: Config;
  /** the data directory (uploads staging in <dir>/uploads, local storage beneath) */
  dataDir: string;
  /** Signs `username` in (password TEST_PASSWORD) and answers the cookie header. */
  signIn(username: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the app on 127.0.0.1 with a fresh data directory (or `dataDir`, left in place on close),
 * made the process-wide configuration's DATA_DIR (the storage adapters read it), on this run's
 * database (or `db`). @throws when Redis or the database does not answer.
 */
export async function startFilesServer(options: { db?: Db; dataDir?: string } = {}): Promise<FilesServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "portal-files-"));
  const config = testConfig({ DATA_DIR: dataDir });
  setConfig(config);
  const redis: RedisClient = await testRedis();
  const web = fakeWebDist();
  const db = options.db ?? (await testDb());
  const { app, stop } = await createApp({
    config,
    db,
    readiness: {},
    sessionStore: redisSessionStore(redis, config),
    webDist: web.dir,
    redis,
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    db,
    config,
    dataDir,
    async signIn(username) {
      const res = await fetch(`${url}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ login: username, password: TEST_PASSWORD }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
      return cookie?.split(";")[0] ?? "";
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stop();
      redis.destroy();
      web.remove();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** How a tus upload ended: the final answer's status and body, or the refusal's. */
export interface TusOutcome {
  ok: boolean;
  status: number;
  body: string;
  /** the upload's URL (absolute), once created */
  uploadUrl: string | null;
}

export interface TusUploadOptions {
  server: { url: string };
  cookie: string;
  data: Buffer;
  fileName: string;
  title?: string;
  description?: string;
  /** extra metadata (documentId, clientId) */
  metadata?: Record<string, string>;
  chunkSize?: number;
  /** resume this upload (its URL) */
  uploadUrl?: string;
  /** called after each chunk; return true to abort the upload there */
  abortAfterChunk?: (bytesAccepted: number) => boolean;
}

/** Uploads `data` with tus-js-client (no retries) and reports how it ended. */
export function tusUpload(options: TusUploadOptions): Promise<TusOutcome> {
  return new Promise((resolve) => {
    const upload: Upload = new Upload(options.data, {
      endpoint: `${options.server.url}/api/uploads`,
      uploadUrl: options.uploadUrl ?? null,
      headers: { Cookie: options.cookie },
      metadata: {
        filename: options.fileName,
        title: options.title ?? "A document",
        ...(options.description ? { description: options.description } : {}),
        ...options.metadata,
      },
      chunkSize: options.chunkSize ?? Number.POSITIVE_INFINITY,
      retryDelays: [],
      storeFingerprintForResuming: false,
      onChunkComplete: (_chunk, accepted) => {
        if (options.abortAfterChunk?.(accepted)) {
          void upload
            .abort()
            .then(() => resolve({ ok: false, status: 0, body: "aborted", uploadUrl: upload.url }));
        }
      },
      onSuccess: ({ lastResponse }) =>
        resolve({
          ok: true,
          status: lastResponse.getStatus(),
          body: lastResponse.getBody(),
          uploadUrl: upload.url,
        }),
      onError: (err) => {
        const response = "originalResponse" in err ? err.originalResponse : null;
        resolve({
          ok: false,
          status: response?.getStatus() ?? -1,
          body: response?.getBody() ?? err.message,
          uploadUrl: upload.url,
        });
      },
    });
    upload.start();
  });
}

/** A raw HTTP answer. */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Sends one request with exactly the given headers and body parts (written one after another, so a
 * test can send more than it declared, or stop early). A connection the server closes mid-body
 * still resolves with the answer it sent, if any.
 */
export function rawRequest(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: Buffer[] },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(url, { method: options.method, headers: options.headers }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", (err) => {
      if (!answered) reject(err);
    });
    const write = async () => {
      for (const part of options.body ?? []) {
        if (req.destroyed) return;
        await new Promise<void>((done) => req.write(part, () => done()));
      }
      req.end();
    };
    void write();
  });
}

/** Upload-Metadata for raw requests: each value base64. */
export function encodeMetadata(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value, "utf8").toString("base64")}`)
    .join(",");
}

/** The hex sha256 of some bytes. */
export function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The header every tus request carries (the protocol's version). */
export const TUS_HEADERS = { "Tus-Resumable": "1.0.0" };

/** A tus request without a body: `method` on `url` as the session `cookie`. */
export function tusRequest(method: string, url: string, cookie: string): Promise<RawAnswer> {
  return rawRequest(url, { method, headers: { ...TUS_HEADERS, Cookie: cookie } });
}

/**
 * A tus creation (POST) on `baseUrl`'s /api/uploads as the session `cookie`, announcing `length`
 * bytes of the file `fileName` titled `title`.
 */
export function tusCreate(
  baseUrl: string,
  cookie: string,
  upload: { length: number; fileName: string; title: string },
): Promise<RawAnswer> {
  return rawRequest(`${baseUrl}/api/uploads`, {
    method: "POST",
    headers: {
      ...TUS_HEADERS,
      Cookie: cookie,
      "Upload-Length": String(upload.length),
      "Upload-Metadata": encodeMetadata({ filename: upload.fileName, title: upload.title }),
    },
  });
}

/**
 * A tus PATCH of `body` at `offset` (0 unless given) on `url` as the session `cookie`, with the
 * `framing` headers (its Content-Length or Transfer-Encoding, sent as given).
 */
export function tusPatch(
  url: string,
  cookie: string,
  body: Buffer[],
  options: { offset?: number; framing?: Record<string, string> } = {},
): Promise<RawAnswer> {
  return rawRequest(url, {
    method: "PATCH",
    headers: {
      ...TUS_HEADERS,
      Cookie: cookie,
      "Upload-Offset": String(options.offset ?? 0),
      "Content-Type": "application/offset+octet-stream",
      ...options.framing,
    },
    body,
  });
}

/** How an upload sent through several gateways went: each request's gateway and answer. */
export interface AlternatingOutcome {
  /** the final answer (the completing PATCH's, or the first refusal) */
  status: number;
  body: string;
  /** the upload's path (/api/uploads/<id>), once created */
  uploadPath: string | null;
  /** every answer in order: which gateway (index into `urls`), method and status */
  answers: { gateway: number; method: string; status: number }[];
}

/**
 * A tus upload of `data` as the session `cookie` whose requests go round `urls` in turn, as a load
 * balancer without affinity would send them: the creation to the first, then each PATCH of
 * `chunkSize` bytes to the next gateway. Stops at the first answer that is not a success.
 */
export async function alternatingTusUpload(options: {
  urls: string[];
  cookie: string;
  data: Buffer;
  fileName: string;
  title?: string;
  chunkSize: number;
  /** runs before request `i` (1 is the first PATCH) and may pick its gateway instead of the turn */
  beforeRequest?: (i: number) => Promise<number | undefined>;
}): Promise<AlternatingOutcome> {
  const { urls, cookie, data } = options;
  const answers: AlternatingOutcome["answers"] = [];
  const at = (i: number) => urls[i % urls.length] ?? "";
  const created = await tusCreate(at(0), cookie, {
    length: data.length,
    fileName: options.fileName,
    title: options.title ?? "A document",
  });
  answers.push({ gateway: 0, method: "POST", status: created.status });
  const location = String(created.headers.location ?? "");
  const uploadPath = location === "" ? null : new URL(location, at(0)).pathname;
  if (created.status !== 201 || uploadPath === null) {
    return { status: created.status, body: created.body.toString(), uploadPath, answers };
  }
  let last: RawAnswer = created;
  for (let offset = 0, i = 1; offset < data.length; i++) {
    const chunk = data.subarray(offset, offset + options.chunkSize);
    const gateway = (await options.beforeRequest?.(i)) ?? i % urls.length;
    last = await tusPatch(`${at(gateway)}${uploadPath}`, cookie, [chunk], {
      offset,
      framing: { "Content-Length": String(chunk.length) },
    });
    answers.push({ gateway, method: "PATCH", status: last.status });
    if (last.status !== 204 && last.status !== 200) break;
    offset = Number(last.headers["upload-offset"] ?? offset + chunk.length);
  }
  return { status: last.status, body: last.body.toString(), uploadPath, answers };
}
