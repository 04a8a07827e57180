import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openEmbedded } from "@services/shared/db";
import { testDb } from "@services/shared/testing/db";
import { createUser } from "@services/shared/testing/factories";
import { findSessionUser } from "./findSessionUser";

describe("findSessionUser", () => {
  it("answers exactly the user Prisma gives, every column and type, on PostgreSQL", async () => {
    const db = await testDb();
    const user = await createUser(db, {
      userType: "client",
      phone: "+1 555 010 2000",
      companyName: "Acme",
      lastLoginAt: new Date("2031-02-03T04:05:06.789Z"),
      sessionsValidAfter: new Date("2031-02-03T04:05:07.123Z"),
    });
    const viaPrisma = await db.prisma.user.findUnique({ where: { id: user.id } });
    expect(await findSessionUser({ db, userId: user.id })).toEqual(viaPrisma);
    expect(await findSessionUser({ db, userId: 2_000_000_000 })).toBeNull();
  });

  it("answers the same on the embedded database", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "portal-session-user-"));
    const db = await openEmbedded(dir);
    try {
      const user = await createUser(db, { lastLoginAt: new Date("2031-02-03T04:05:06.789Z") });
      const viaPrisma = await db.prisma.user.findUnique({ where: { id: user.id } });
      expect(await findSessionUser({ db, userId: user.id })).toEqual(viaPrisma);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // a new PGlite data directory runs every migration in WebAssembly: slow on a loaded machine
});
