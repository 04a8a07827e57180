import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "pg";
import { connectPostgres, type Db, openEmbedded } from "./db";
import { registerIsolatedDb } from "./testing/db";

function waitFor(predicate: () => boolean, timeoutMs = 3000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (predicate()) return resolve();
      if (Date.now() - started > timeoutMs) return reject(new Error("timed out waiting"));
      setTimeout(tick, 20);
    };
    tick();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("openEmbedded (PGlite)", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "portal-embedded-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("migrates a new data directory, runs Prisma queries and keeps the data after a restart", async () => {
    const db = await openEmbedded(dir);
    let userId: number;
    try {
      expect(db.mode).toBe("embedded");
      await db.ping();
      const user = await db.prisma.user.create({
        data: {
          uniqueId: "ESRT-EMBED001",
          username: "embedded",
          email: "e@example.test",
          password: "x",
          firstName: "Em",
          lastName: "Bedded",
        },
      });
      userId = user.id;
      expect(user).toMatchObject({ userType: "prospect", userStatus: "active", version: 1 });
      await db.prisma.$transaction(async (tx) => {
        await tx.document.create({
          data: { userId: user.id, title: "t", fileName: "f.pdf", fileUrl: "u", fileType: "pdf" },
        });
      });
      // the case-insensitive unique index from the SQL-only part of the migration is there too
      await expect(
        db.prisma.user.create({
          data: {
            uniqueId: "ESRT-EMBED002",
            username: "EMBEDDED",
            email: "x@example.test",
            password: "x",
            firstName: "a",
            lastName: "b",
          },
        }),
      ).rejects.toThrow();
    } finally {
      await db.close();
    }

    const reopened = await openEmbedded(dir);
    try {
      const found = await reopened.prisma.user.findUnique({
        where: { id: userId },
        include: { documents: true },
      });
      expect(found?.username).toBe("embedded");
      expect(found?.documents).toHaveLength(1);
    } finally {
      await reopened.close();
    }
  }, 120_000); // a new PGlite data directory runs every migration in WebAssembly: slow on a loaded CI machine

  it("delivers NOTIFY from the outbox trigger to listeners", async () => {
    const db = await openEmbedded(dir);
    try {
      const got: string[] = [];
      const stop = await db.listen("outbox_events", (p) => got.push(p));
      const id = "01900000-0000-7000-8000-00000000e001";
      await db.prisma.outboxEvent.create({
        data: { id, subject: "s", type: "user.registered", envelope: {} },
      });
      await waitFor(() => got.length > 0);
      expect(got).toEqual([id]);
      await stop();
    } finally {
      await db.close();
    }
  });
});

describe("connectPostgres", () => {
  const scratch = registerIsolatedDb();
  let db: Db;
  beforeAll(() => {
    db = scratch.db;
  });

  it("answers ping and refuses a server that does not exist", async () => {
    await db.ping();
    await expect(connectPostgres("postgresql://postgres@127.0.0.1:1/nothing")).rejects.toThrow();
  });

  it("notifies listeners when the outbox insert commits, not before, and never for a rollback", async () => {
    const got: string[] = [];
    const stop = await db.listen("outbox_events", (p) => got.push(p));
    const committed = "01900000-0000-7000-8000-00000000c001";
    const rolledBack = "01900000-0000-7000-8000-00000000d001";

    let seenBeforeCommit = -1;
    await db.prisma.$transaction(async (tx) => {
      await tx.outboxEvent.create({ data: { id: committed, subject: "s", type: "t", envelope: {} } });
      await sleep(150);
      seenBeforeCommit = got.length;
    });
    expect(seenBeforeCommit).toBe(0);
    await waitFor(() => got.length === 1);

    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.outboxEvent.create({ data: { id: rolledBack, subject: "s", type: "t", envelope: {} } });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    await sleep(200);
    expect(got).toEqual([committed]);

    await stop();
    await db.prisma.outboxEvent.create({
      data: { id: "01900000-0000-7000-8000-00000000c002", subject: "s", type: "t", envelope: {} },
    });
    await sleep(200);
    expect(got).toEqual([committed]);
  });

  it("listens again after its connection is killed", async () => {
    const got: string[] = [];
    const stop = await db.listen("portal_test_channel", (p) => got.push(p));
    const admin = new Client({ connectionString: scratch.url });
    await admin.connect();
    try {
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'LISTEN%'`,
      );
      expect(killed.rowCount).toBe(1);
      // keep notifying until the listener is back
      for (let i = 0; i < 80 && !got.includes("after-restart"); i++) {
        await admin.query("SELECT pg_notify('portal_test_channel', 'after-restart')");
        await sleep(100);
      }
      expect(got).toContain("after-restart");
    } finally {
      await admin.end();
      await stop();
    }
  });
});
