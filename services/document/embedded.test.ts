import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { type Db, openEmbedded } from "@services/shared/db";
import { createDocument, createUser } from "@services/shared/testing/factories";
import { type RunningS3rver, startS3rver } from "@services/shared/testing/s3rver";
import { downloadDocument } from "./downloadDocument";
import { previewDocument } from "./previewDocument";
import { newStorageKey, storageForBackend } from "./storage";
import { clientActor, cloudStorageRow } from "./testing";

// `make start` without PostgreSQL runs on the embedded database, which has ONE connection: a use
// case that reads the settings outside its own transaction would wait for itself until the
// transaction times out. Downloads and previews from cloud storage, which read the cloud settings,
// must work there as on PostgreSQL.

let dir: string;
let db: Db;
let s3: RunningS3rver;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "portal-documents-embedded-"));
  db = await openEmbedded(dir);
  s3 = await startS3rver();
  // the seed's row, pointed at the S3 server
  await db.prisma.storageConfig.create({ data: cloudStorageRow(s3.settings) });
}, 120_000); // a new PGlite data directory runs every migration in WebAssembly

afterAll(async () => {
  await s3?.stop();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("downloads (counted) and previews a cloud document on the embedded database", async () => {
  const owner = await createUser(db, { userType: "client" });
  const actor = clientActor(owner.id, "Ada Client");
  const storageKey = newStorageKey();
  const bytes = Buffer.from("%PDF-1.4\n%%EOF\n");
  const cloud = await storageForBackend(db, "cloud");
  await cloud.put(storageKey, Readable.from([bytes]), { size: bytes.length, contentType: "application/pdf" });
  const document = await createDocument(db, { userId: owner.id, storageBackend: "cloud", storageKey });

  const started = Date.now();
  const download = await downloadDocument({ db, actor, documentId: document.id });
  expect(download.target.kind).toBe("redirect");
  expect(Date.now() - started).toBeLessThan(2000);
  const row = await db.prisma.document.findUniqueOrThrow({ where: { id: document.id } });
  expect(row.downloadCount).toBe(1);

  const preview = await previewDocument({ db, actor, documentId: document.id });
  const chunks: Buffer[] = [];
  for await (const chunk of preview.body) chunks.push(Buffer.from(chunk));
  expect(Buffer.concat(chunks)).toEqual(bytes);
});
