import { testDb } from "@services/shared/testing/db";
import { createUser } from "@services/shared/testing/factories";
import { findUserByUniqueId } from "./findUserByUniqueId";

// Prisma batches the findUnique calls made in one tick into one SQL query: a value PostgreSQL
// refuses in one of them (NUL: SQLSTATE 22021) would fail every lookup of the batch, so a bad
// request would break a good one running beside it. The use case refuses such a value first.

describe("findUserByUniqueId", () => {
  it("finds a user by unique id, and answers USER_NOT_FOUND for an unknown one", async () => {
    const db = await testDb();
    const user = await createUser(db, { companyName: "Acme" });
    await expect(findUserByUniqueId({ db, uniqueId: user.uniqueId })).resolves.toEqual({
      id: user.id,
      uniqueId: user.uniqueId,
      firstName: user.firstName,
      lastName: user.lastName,
      companyName: "Acme",
      esrtSynced: false,
    });
    await expect(findUserByUniqueId({ db, uniqueId: "ESRT-NOBODY00" })).rejects.toMatchObject({
      code: "USER_NOT_FOUND",
    });
  });

  it.each([
    ["a NUL", "ESRT-\u0000"],
    ["a lone surrogate", "ESRT-\ud800"],
    ["an empty id", ""],
    ["an over-long id", "E".repeat(65)],
  ])("answers USER_NOT_FOUND for %s without asking the database", async (_name, uniqueId) => {
    const db = await testDb();
    await expect(findUserByUniqueId({ db, uniqueId })).rejects.toMatchObject({ code: "USER_NOT_FOUND" });
  });

  it("finds a valid id looked up in the same tick as a NUL one", async () => {
    const db = await testDb();
    const users = await Promise.all([createUser(db), createUser(db), createUser(db)]);
    // all five calls start before any awaits: Prisma would send them as one batched query
    const results = await Promise.allSettled([
      findUserByUniqueId({ db, uniqueId: users[0]?.uniqueId ?? "" }),
      findUserByUniqueId({ db, uniqueId: "ESRT-\u0000" }),
      findUserByUniqueId({ db, uniqueId: users[1]?.uniqueId ?? "" }),
      findUserByUniqueId({ db, uniqueId: "caf\ud800e" }),
      findUserByUniqueId({ db, uniqueId: users[2]?.uniqueId ?? "" }),
    ]);
    expect(
      results.map((r) => (r.status === "fulfilled" ? r.value.id : (r.reason as { code?: string }).code)),
    ).toEqual([users[0]?.id, "USER_NOT_FOUND", users[1]?.id, "USER_NOT_FOUND", users[2]?.id]);
  });
});
