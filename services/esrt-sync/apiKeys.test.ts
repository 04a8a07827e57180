import { createHash } from "node:crypto";
import type { Db } from "@services/shared/db";
import { testDb } from "@services/shared/testing/db";
import { createAdmin } from "@services/shared/testing/factories";
import { authenticateApiKey, createApiKey, listApiKeys, revokeApiKey } from "./apiKeys";

let db: Db;
beforeAll(async () => {
  db = await testDb();
});

const auditsOf = (id: number) =>
  db.prisma.auditLog.findMany({
    where: { targetType: "esrt_api_key", targetId: String(id) },
    orderBy: { id: "asc" },
  });

describe("createApiKey", () => {
  it("refuses a missing, blank, long or unsafe name", async () => {
    const admin = await createAdmin(db);
    const cases: [string, string][] = [
      ["", "Name is required"],
      ["   ", "Name is required"],
      ["x".repeat(201), "At most 200 characters"],
      ["a\u0000b", "Text cannot contain NUL characters or unpaired surrogates"],
    ];
    for (const [name, message] of cases) {
      await expect(createApiKey({ db, name, actorId: admin.id })).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
        message,
      });
    }
  });

  it("answers the key once and keeps only its prefix and sha256; audits the creation", async () => {
    const admin = await createAdmin(db);
    const { apiKey, key } = await createApiKey({ db, name: "  Pro app production ", actorId: admin.id });
    expect(key).toMatch(/^esrtk_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({ name: "Pro app production", prefix: key.slice(0, 14), revokedAt: null });
    expect(apiKey).not.toHaveProperty("keyHash");
    const row = await db.prisma.esrtApiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(row.keyHash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(key);
    const audits = await auditsOf(apiKey.id);
    expect(audits).toMatchObject([
      { action: "esrt.api_key_created", actorId: admin.id, metadata: { name: "Pro app production" } },
    ]);
    expect(JSON.stringify(audits)).not.toContain(key);
    const other = await createApiKey({ db, name: "Staging", actorId: admin.id });
    expect(other.key).not.toBe(key);
  });
});

describe("listApiKeys", () => {
  it("lists keys newest first, without hashes", async () => {
    const first = await createApiKey({ db, name: "First", actorId: null });
    const second = await createApiKey({ db, name: "Second", actorId: null });
    const ids = (await listApiKeys(db)).map((k) => k.id);
    expect(ids.indexOf(second.apiKey.id)).toBeLessThan(ids.indexOf(first.apiKey.id));
    expect((await listApiKeys(db)).some((k) => "keyHash" in k)).toBe(false);
  });
});

describe("authenticateApiKey", () => {
  it("refuses malformed and unknown keys", async () => {
    const { key } = await createApiKey({ db, name: "Real", actorId: null });
    for (const bad of [
      "",
      "esrtk_",
      key.slice(0, -1),
      `${key}x`,
      `esrtk_${"A".repeat(43)}`,
      key.toUpperCase(),
    ]) {
      expect(await authenticateApiKey(db, bad)).toBeNull();
    }
  });

  it("finds the key and records its use at most once a minute", async () => {
    const { apiKey, key } = await createApiKey({ db, name: "Used", actorId: null });
    const found = await authenticateApiKey(db, key);
    expect(found?.id).toBe(apiKey.id);
    const first = (await db.prisma.esrtApiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await authenticateApiKey(db, key);
    const again = (await db.prisma.esrtApiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).lastUsedAt;
    expect(again?.getTime()).toBe(first?.getTime());
    const longAgo = new Date(Date.now() - 61_000);
    await db.prisma.esrtApiKey.update({ where: { id: apiKey.id }, data: { lastUsedAt: longAgo } });
    await authenticateApiKey(db, key);
    const later = (await db.prisma.esrtApiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).lastUsedAt;
    expect(later?.getTime()).toBeGreaterThan(longAgo.getTime() + 60_000);
  });
});

describe("revokeApiKey", () => {
  it("answers NOT_FOUND for an unknown or impossible id", async () => {
    for (const id of [2_147_483_000, 0, -1, 1.5, 2_147_483_648]) {
      await expect(revokeApiKey({ db, id, actorId: null })).rejects.toMatchObject({ code: "NOT_FOUND" });
    }
  });

  it("ends the key; a second revocation changes nothing and is not audited again", async () => {
    const admin = await createAdmin(db);
    const { apiKey, key } = await createApiKey({ db, name: "Leaked", actorId: admin.id });
    const revoked = await revokeApiKey({ db, id: apiKey.id, actorId: admin.id });
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect(await authenticateApiKey(db, key)).toBeNull();
    const again = await revokeApiKey({ db, id: apiKey.id, actorId: admin.id });
    expect(again.revokedAt?.getTime()).toBe(revoked.revokedAt?.getTime());
    expect((await auditsOf(apiKey.id)).map((a) => a.action)).toEqual([
      "esrt.api_key_created",
      "esrt.api_key_revoked",
    ]);
  });
});
