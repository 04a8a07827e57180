import { createHash, randomBytes } from "node:crypto";
import { scratchDatabase } from "@services/shared/testing/db";
import { Client } from "pg";
import { type MigrationFile, migrateDatabase, readMigrations } from "./migrate";

const migrations = readMigrations();

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function migrationRows(url: string) {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      applied_steps_count: number;
    }>(
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    return rows;
  });
}

describe("migrateDatabase", () => {
  it("applies every migration to an empty database once, recording it as Prisma does", async () => {
    const db = await scratchDatabase();
    try {
      expect(migrations.map((m) => m.name)).toContain("20261122000000_init");
      const first = await migrateDatabase({ url: db.url });
      expect(first.applied).toEqual(migrations.map((m) => m.name));
      const second = await migrateDatabase({ url: db.url });
      expect(second.applied).toEqual([]);

      const rows = await migrationRows(db.url);
      expect(rows.map((r) => r.migration_name)).toEqual(migrations.map((m) => m.name));
      for (const row of rows) {
        expect(row.finished_at).toBeInstanceOf(Date);
        expect(row.applied_steps_count).toBe(1);
      }
      const sha = createHash("sha256")
        .update(migrations[0]?.sql ?? "")
        .digest("hex");
      expect(rows[0]?.checksum).toBe(sha);
      const tables = await withClient(db.url, (c) =>
        c.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename = 'users'",
        ),
      );
      expect(tables.rows[0]?.n).toBe(1);
    } finally {
      await db.drop();
    }
  });

  it("creates a missing database, and two instances starting together migrate it exactly once", async () => {
    const admin = process.env.TEST_ADMIN_DATABASE_URL ?? "";
    const url = new URL(admin);
    const name = `portal_scratch_${process.env.TEST_RUN_ID}_${randomBytes(4).toString("hex")}`;
    url.pathname = `/${name}`;
    try {
      const [a, b] = await Promise.all([
        migrateDatabase({ url: url.toString(), createIfMissing: true }),
        migrateDatabase({ url: url.toString(), createIfMissing: true }),
      ]);
      expect([...a.applied, ...b.applied].sort()).toEqual(migrations.map((m) => m.name));
      const rows = await migrationRows(url.toString());
      expect(rows).toHaveLength(migrations.length);
    } finally {
      await withClient(admin, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  });

  it("refuses to run when an applied migration was edited afterwards", async () => {
    const db = await scratchDatabase();
    try {
      await migrateDatabase({ url: db.url });
      const first = migrations[0];
      if (!first) throw new Error("no migrations found");
      const edited: MigrationFile = { ...first, sql: `${first.sql}\n-- edited`, checksum: "0".repeat(64) };
      await expect(migrateDatabase({ url: db.url }, [edited, ...migrations.slice(1)])).rejects.toThrow(
        /20261122000000_init was changed after it was applied/,
      );
    } finally {
      await db.drop();
    }
  });

  it("rolls a failing migration back completely and records nothing for it", async () => {
    const db = await scratchDatabase();
    try {
      const broken: MigrationFile = {
        name: "29990101000000_broken",
        sql: 'CREATE TABLE "half_done" (id int);\nSELECT * FROM "no_such_table";',
        checksum: "1".repeat(64),
      };
      await expect(migrateDatabase({ url: db.url }, [...migrations, broken])).rejects.toThrow(
        /29990101000000_broken failed and was rolled back: .*no_such_table/,
      );
      const rows = await migrationRows(db.url);
      expect(rows.map((r) => r.migration_name)).toEqual(migrations.map((m) => m.name));
      const halfDone = await withClient(db.url, (c) =>
        c.query("SELECT to_regclass('public.half_done') AS t"),
      );
      expect(halfDone.rows[0]?.t).toBeNull();
    } finally {
      await db.drop();
    }
  });
});
