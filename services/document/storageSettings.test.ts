import { mkdtemp, rm } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer, type Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import {
  DEFAULT_ALLOWED_FILE_TYPES,
  DOCUMENT_MESSAGES,
  KNOWN_FILE_TYPE_NAMES,
  unknownFileTypeMessage,
} from "@schema/validation/document";
import { config, parseConfig, setConfig } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { isolatedDb } from "@services/shared/testing/db";
import { createUser } from "@services/shared/testing/factories";
import { type RunningS3rver, startS3rver } from "@services/shared/testing/s3rver";
import type { DocumentActor } from "./actor";
import { createS3Storage } from "./storage/s3";
import {
  getStorageSettings,
  storageUsage,
  testStorageConnection,
  updateStorageSettings,
  uploadPolicy,
} from "./storageSettings";
import { cloudStorageInput, localStorageInput, teamActor } from "./testing";

// storage_config is one row every upload reads: these tests change it in a database of their own.
// The S3-protocol servers run on loopback: CONNECTION_TEST_ALLOW_PRIVATE lets "Test connection"
// reach them, except where the address rule itself is tested (issue 20).

const SECRET = "s3cr3t-Wj4lrXUtnFEMI-K7MDENG";
const original = config();
let isolated: { db: Db; drop(): Promise<void> };
let db: Db;
let server: RunningS3rver;
let actor: DocumentActor;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "storage-settings-"));
  setConfig(parseConfig({ ...process.env, DATA_DIR: dataDir, CONNECTION_TEST_ALLOW_PRIVATE: "1" }));
  isolated = await isolatedDb();
  db = isolated.db;
  server = await startS3rver();
  const admin = await createUser(db, { userType: "mainAdmin", firstName: "Ada", lastName: "Admin" });
  actor = teamActor(admin.id, "Ada Admin");
});
afterAll(async () => {
  setConfig(original);
  await server.stop();
  await isolated.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const cloudInput = (overrides: Record<string, unknown> = {}) => cloudStorageInput(server.settings, overrides);

describe("storage settings", () => {
  it("starts from the defaults: local, 10,000,000 bytes, the default types, no secret", async () => {
    const view = await getStorageSettings(db);
    expect(view).toMatchObject({
      storageType: "local",
      maxFileSize: 10_000_000,
      allowedFileTypes: DEFAULT_ALLOWED_FILE_TYPES,
      knownFileTypes: KNOWN_FILE_TYPE_NAMES,
      cloudSecretSet: false,
    });
    expect(await uploadPolicy(db)).toEqual({
      endpoint: "/api/uploads",
      maxFileSize: 10_000_000,
      allowedFileTypes: DEFAULT_ALLOWED_FILE_TYPES,
    });
  });

  it.each([
    [
      "an unknown storage type",
      () => localStorageInput({ storageType: "ftp" }),
      DOCUMENT_MESSAGES.storageType,
    ],
    ["999,999 bytes", () => localStorageInput({ maxFileSize: 999_999 }), DOCUMENT_MESSAGES.minMaxFileSize],
    [
      "a size that is not a number",
      () => localStorageInput({ maxFileSize: "big" }),
      DOCUMENT_MESSAGES.minMaxFileSize,
    ],
    [
      "more than 5 GiB",
      () => localStorageInput({ maxFileSize: 5 * 1024 ** 3 + 1 }),
      DOCUMENT_MESSAGES.maxMaxFileSize,
    ],
    ["no file type", () => localStorageInput({ allowedFileTypes: [] }), DOCUMENT_MESSAGES.atLeastOneType],
    [
      "a type the portal cannot verify",
      () => localStorageInput({ allowedFileTypes: ["pdf", "exe"] }),
      unknownFileTypeMessage("exe"),
    ],
    [
      "an endpoint that is not a URL",
      () => cloudInput({ cloudEndpoint: "not a url" }),
      DOCUMENT_MESSAGES.endpointUrl,
    ],
    ["cloud without endpoint", () => cloudInput({ cloudEndpoint: "" }), DOCUMENT_MESSAGES.endpointRequired],
    ["cloud without region", () => cloudInput({ cloudRegion: undefined }), DOCUMENT_MESSAGES.regionRequired],
    ["cloud without bucket", () => cloudInput({ cloudBucket: " " }), DOCUMENT_MESSAGES.bucketRequired],
    [
      "cloud without access key",
      () => cloudInput({ cloudAccessKeyId: "" }),
      DOCUMENT_MESSAGES.accessKeyRequired,
    ],
    [
      "cloud without any secret",
      () => cloudInput({ cloudSecretAccessKey: "" }),
      DOCUMENT_MESSAGES.secretRequired,
    ],
  ])("refuses %s with the schema's message, changing nothing", async (_what, input, message) => {
    const before = await getStorageSettings(db);
    await expect(updateStorageSettings({ db, actor, input: input() })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      message,
    });
    expect(await getStorageSettings(db)).toEqual(before);
  });

  it("switches to cloud with a sealed secret, keeps it when none is given, and never shows it", async () => {
    const view = await updateStorageSettings({
      db,
      actor,
      input: cloudInput({ cloudSecretAccessKey: SECRET }),
    });
    expect(view).toMatchObject({
      storageType: "cloud",
      maxFileSize: 20_000_000,
      allowedFileTypes: ["pdf", "png"],
      cloudBucket: server.settings.bucket,
      cloudSecretSet: true,
      updatedBy: "Ada Admin",
    });
    const row = await db.prisma.storageConfig.findFirstOrThrow({ orderBy: { id: "asc" } });
    expect(row.cloudSecretSealed).toMatch(/^v1\./);
    expect(row.cloudSecretSealed).not.toContain(SECRET);

    // no secret given: the stored one stays
    const again = await updateStorageSettings({
      db,
      actor,
      input: cloudInput({ cloudSecretAccessKey: undefined, maxFileSize: 5 * 1024 ** 3 }),
    });
    expect(again).toMatchObject({ cloudSecretSet: true, maxFileSize: 5 * 1024 ** 3 });
    expect(
      (await db.prisma.storageConfig.findFirstOrThrow({ orderBy: { id: "asc" } })).cloudSecretSealed,
    ).toBe(row.cloudSecretSealed);
    expect(await uploadPolicy(db)).toEqual({
      endpoint: "/api/uploads",
      maxFileSize: 5 * 1024 ** 3,
      allowedFileTypes: ["pdf", "png"],
    });

    for (const answer of [view, again, await getStorageSettings(db)]) {
      expect(JSON.stringify(answer)).not.toContain(SECRET);
      expect(JSON.stringify(answer)).not.toContain("v1.");
    }
  });

  it("audits each change with before and after, without the secret", async () => {
    await updateStorageSettings({
      db,
      actor,
      input: localStorageInput({ allowedFileTypes: ["PDF", "csv", "pdf"] }),
    });
    const rows = await db.prisma.auditLog.findMany({
      where: { action: "storage.settings_updated" },
      orderBy: { id: "asc" },
    });
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const last = rows.at(-1);
    expect(last).toMatchObject({ actorId: actor.id, targetType: "storage_config" });
    expect(last?.metadata).toMatchObject({
      before: { storageType: "cloud", cloudSecretSet: true },
      after: { storageType: "local", allowedFileTypes: ["pdf", "csv"], cloudSecretSet: true },
      secretChanged: false,
    });
    expect(rows[0]?.metadata).toMatchObject({ secretChanged: true });
    for (const row of rows) {
      expect(JSON.stringify(row.metadata)).not.toContain(SECRET);
      expect(JSON.stringify(row.metadata)).not.toContain("v1.");
    }
  });

  it("counts stored documents and bytes per backend", async () => {
    const owner = await createUser(db, { userType: "client" });
    const doc = (storageBackend: "local" | "cloud", fileSize: bigint) =>
      db.prisma.document.create({
        data: {
          userId: owner.id,
          title: "t",
          fileName: "a.pdf",
          fileUrl: "/api/documents/0/download",
          fileType: "pdf",
          fileSize,
          storageBackend,
        },
      });
    await doc("local", 100n);
    await doc("local", 3_000_000_000n);
    await doc("cloud", 42n);
    expect(await storageUsage(db)).toEqual([
      { backend: "local", documents: 2, bytes: 3_000_000_100 },
      { backend: "cloud", documents: 1, bytes: 42 },
    ]);
  });
});

describe("test connection", () => {
  it("writes, reads back and deletes a probe object, leaving nothing", async () => {
    const result = await testStorageConnection({ db, input: cloudInput() });
    expect(result).toEqual({
      ok: true,
      message: `Connected: wrote, read back and deleted a test object in bucket ${server.settings.bucket}`,
      latencyMs: expect.any(Number),
    });
    const left: string[] = [];
    for await (const object of createS3Storage(server.settings).list("portal-probe/")) left.push(object.key);
    expect(left).toEqual([]);
  });

  it("uses the stored secret when none is given", async () => {
    await updateStorageSettings({ db, actor, input: cloudInput() });
    const result = await testStorageConnection({ db, input: cloudInput({ cloudSecretAccessKey: "" }) });
    expect(result.ok).toBe(true);
  });

  it("says in its own words that a bucket does not exist", async () => {
    const result = await testStorageConnection({ db, input: cloudInput({ cloudBucket: "no-such-bucket" }) });
    expect(result).toMatchObject({ ok: false, message: "The bucket does not exist" });
  });

  it("says in its own words that the store does not know the access key, without the secret", async () => {
    const result = await testStorageConnection({
      db,
      input: cloudInput({ cloudAccessKeyId: "AKIAWRONGKEY", cloudSecretAccessKey: SECRET }),
    });
    expect(result).toMatchObject({ ok: false, message: "The store does not know this access key" });
    expect(result.message).not.toContain(SECRET);
  });

  it("never repeats what a server that is not the store answers", async () => {
    // an internal web server found by pointing the test at it: its status, never its words
    const pages = new Map<number, string>([
      [403, "<html><title>Jenkins</title>Forbidden: build-01.corp.example.net</html>"],
      [
        500,
        '<?xml version="1.0"?><Error><Code>InternalError</Code><Message>db at 10.0.0.5 is down</Message></Error>',
      ],
      [200, "<html>router admin at 192.168.1.1</html>"],
    ]);
    const results: string[] = [];
    for (const [status, body] of pages) {
      const web = createHttpServer((_req, res) => {
        res.writeHead(status, { "content-type": status === 500 ? "application/xml" : "text/html" });
        res.end(body);
      });
      await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
      const { port } = web.address() as AddressInfo;
      try {
        const result = await testStorageConnection({
          db,
          input: cloudInput({ cloudEndpoint: `http://127.0.0.1:${port}` }),
        });
        expect(result.ok).toBe(false);
        results.push(result.message.replace(String(port), "PORT"));
      } finally {
        web.closeAllConnections();
        await new Promise<void>((resolve) => web.close(() => resolve()));
      }
    }
    expect(results).toEqual([
      "The store refused the test (HTTP 403)",
      "The store refused the test (HTTP 500)",
      "The store gave back different bytes than were written",
    ]);
    expect(results.join(" ")).not.toMatch(/Jenkins|corp|10\.0\.0\.5|router|192\.168/);
  });

  it("refuses loopback, private and metadata endpoints when the development switch is off, connecting to none", async () => {
    let connections = 0;
    const counter = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => counter.listen(0, "127.0.0.1", resolve));
    const { port } = counter.address() as AddressInfo;
    const before = config();
    setConfig({ ...before, CONNECTION_TEST_ALLOW_PRIVATE: false });
    try {
      for (const endpoint of [
        `http://127.0.0.1:${port}`,
        `http://localhost:${port}`,
        `http://2130706433:${port}`,
        `http://[::1]:${port}`,
        `http://[::ffff:127.0.0.1]:${port}`,
        `http://[::7f00:1]:${port}`,
        "http://169.254.169.254",
        "http://10.0.0.5:9000",
        "https://[fd00::5]",
      ]) {
        await expect(
          testStorageConnection({ db, input: cloudInput({ cloudEndpoint: endpoint }) }),
        ).rejects.toMatchObject({
          code: "VALIDATION_FAILED",
          message: DOCUMENT_MESSAGES.privateEndpoint,
          details: { errors: { cloudEndpoint: [DOCUMENT_MESSAGES.privateEndpoint] } },
        });
      }
      // a guarded client refuses a name that resolves inside when it connects (DNS rebinding)
      const guarded = createS3Storage(
        { ...server.settings, endpoint: `http://localhost:${port}` },
        { allowPrivate: () => false },
      );
      await expect(guarded.delete("portal-probe/x")).rejects.toMatchObject({ name: "PrivateAddressError" });
    } finally {
      setConfig(before);
      counter.close();
    }
    expect(connections).toBe(0);
  });

  it("says the connection was refused when nothing listens, within seconds", async () => {
    const stopped = await startS3rver();
    await stopped.stop();
    const started = Date.now();
    const result = await testStorageConnection({
      db,
      input: cloudInput({ cloudEndpoint: stopped.settings.endpoint }),
    });
    expect(result).toEqual({
      ok: false,
      message: `Could not connect to ${stopped.settings.endpoint}: connection refused`,
      latencyMs: expect.any(Number),
    });
    expect(result.message).not.toMatch(/\n\s+at /);
    expect(Date.now() - started).toBeLessThan(9000);
  });

  it("gives up at its deadline when the store accepts connections but never answers", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const started = Date.now();
      const result = await testStorageConnection({
        db,
        input: cloudInput({ cloudEndpoint: `http://127.0.0.1:${port}` }),
        deadlineMs: 1500,
      });
      expect(result).toMatchObject({
        ok: false,
        message: `Could not connect to http://127.0.0.1:${port}: no answer within 1.5 s`,
      });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it("tests local storage in the data directory", async () => {
    expect(await testStorageConnection({ db, input: localStorageInput() })).toMatchObject({
      ok: true,
      message: "Connected: wrote, read back and deleted a test object in the data directory",
    });
  });

  it("refuses invalid settings with the schema's message", async () => {
    await expect(testStorageConnection({ db, input: cloudInput({ cloudBucket: "" }) })).rejects.toMatchObject(
      { code: "VALIDATION_FAILED", message: DOCUMENT_MESSAGES.bucketRequired },
    );
  });
});
