import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase } from "@db/migrate";
import { scratchDatabase } from "@services/shared/testing/db";
import { Client } from "pg";
import { type Datamodel, findSchemaDrift, loadDatamodel } from "./schemaDrift";

// THE drift test: the database the migrations build must be exactly what schema.prisma describes
// (plus the SQL-only objects listed at the top of schema.prisma), because Prisma's own migration
// engine never checks it for us.

let datamodel: Datamodel;
let scratch: { url: string; drop(): Promise<void> };
let client: Client;

beforeAll(async () => {
  datamodel = loadDatamodel();
  scratch = await scratchDatabase();
  await migrateDatabase({ url: scratch.url });
  client = new Client({ connectionString: scratch.url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await scratch?.drop();
});

describe("schema drift", () => {
  it("reads every model of schema.prisma", () => {
    expect(datamodel.models.map((m) => m.dbName ?? m.name)).toEqual(
      expect.arrayContaining(["users", "documents", "appointments", "outbox_events", "note_history"]),
    );
    expect(datamodel.indexes.length).toBeGreaterThan(datamodel.models.length);
  });

  it("finds no difference between the migrated database and schema.prisma", async () => {
    expect(await findSchemaDrift(client, datamodel)).toEqual([]);
  });

  it("names each difference precisely when the database does not match", async () => {
    await client.query("BEGIN");
    try {
      await client.query(`
        ALTER TABLE "users" ALTER COLUMN "phone" SET NOT NULL;
        ALTER TABLE "users" ALTER COLUMN "version" SET DEFAULT 2;
        ALTER TABLE "documents" ALTER COLUMN "fileSize" TYPE integer;
        ALTER TABLE "appointments" DROP COLUMN "timeZone";
        ALTER TABLE "appointments" ADD COLUMN "extra" text;
        ALTER TABLE "storage_config" ALTER COLUMN "allowedFileTypes" SET DEFAULT ARRAY['pdf']::text[];
        ALTER TYPE "UserType" ADD VALUE 'guest';
        DROP INDEX "documents_createdAt_idx";
        DROP INDEX "users_email_key";
        CREATE INDEX "users_email_key" ON "users"("email");
        DROP INDEX "appointments_live_slot_key";
        ALTER TABLE "note_history" DROP CONSTRAINT "note_history_userId_fkey";
        ALTER TABLE "note_history" ADD CONSTRAINT "note_history_userId_fkey" FOREIGN KEY ("userId")
          REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
        DROP TRIGGER "outbox_events_notify" ON "outbox_events";
        CREATE TABLE "stray" (id int);
      `);
      const drift = await findSchemaDrift(client, datamodel);
      expect(drift.sort()).toEqual(
        [
          "column users.phone: NOT NULL, expected nullable",
          "column users.version: default is 2 (2), expected 1",
          "column documents.fileSize: type integer, expected bigint",
          "column appointments.timeZone (Appointment.timeZone): missing",
          "column appointments.extra: not in schema.prisma",
          'column storage_config.allowedFileTypes: default is ARRAY[\'pdf\'::text] (["pdf"]), expected ["pdf","doc","docx","xls","xlsx","csv","txt","png","jpg","jpeg"]',
          "enum UserType: values (user, prospect, client, mainAdmin, userAdmin, guest), expected (user, prospect, client, mainAdmin, userAdmin)",
          "index documents_createdAt_idx on documents(createdAt): missing",
          "unique index users_email_key: not unique, expected unique",
          "SQL-only index appointments_live_slot_key on appointments: missing",
          "foreign key note_history_userId_fkey (NoteHistory.user): ON DELETE Restrict, expected Cascade",
          "SQL-only trigger outbox_events_notify on outbox_events: missing",
          "table stray: not in schema.prisma",
        ].sort(),
      );
    } finally {
      await client.query("ROLLBACK");
    }
    expect(await findSchemaDrift(client, datamodel)).toEqual([]);
  });

  it("notices a schema.prisma change that no migration carries", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "portal-drift-"));
    try {
      const changed = readFileSync(path.join(__dirname, "..", "prisma", "schema.prisma"), "utf8").replace(
        "  wordCount Int\n",
        '  wordCount Int\n  mood      String @default("calm")\n\n  @@index([wordCount])\n',
      );
      const schemaPath = path.join(dir, "schema.prisma");
      writeFileSync(schemaPath, changed);
      const drift = await findSchemaDrift(client, loadDatamodel(schemaPath));
      expect(drift.sort()).toEqual([
        "column note_history.mood (NoteHistory.mood): missing",
        "index note_history_wordCount_idx on note_history(wordCount): missing",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
