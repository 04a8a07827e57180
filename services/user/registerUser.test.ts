import { type Registration, registrationSchema } from "@schema/validation/user";
import { unseal } from "@services/shared/sealed";
import { testDb } from "@services/shared/testing/db";
import { createUser, TEST_PASSWORD, uniqueSuffix } from "@services/shared/testing/factories";
import { registerUser } from "./registerUser";

function input(overrides: Record<string, unknown> = {}): Registration {
  const s = uniqueSuffix();
  return registrationSchema.parse({
    username: `uc_${s}`,
    email: `uc_${s}@example.test`,
    password: TEST_PASSWORD,
    firstName: "Uma",
    lastName: "Case",
    userType: "client",
    ...overrides,
  });
}

describe("registerUser", () => {
  it("refuses administrator kinds and taken names without creating anything", async () => {
    const db = await testDb();
    await expect(registerUser({ db, input: input({ userType: "mainAdmin" }) })).rejects.toMatchObject({
      code: "ADMIN_REGISTRATION",
    });
    const existing = await createUser(db);
    await expect(
      registerUser({ db, input: input({ email: existing.email.toUpperCase() }) }),
    ).rejects.toMatchObject({
      code: "EMAIL_TAKEN",
    });
  });

  it("stores a client as 'user' with an argon2id hash and emits user.registered with a live sealed token", async () => {
    const db = await testDb();
    const user = await registerUser({ db, input: input({ notes: "Referred by Sam" }) });
    expect(user.userType).toBe("user");
    expect(user.password).toMatch(/^\$argon2id\$/);
    expect(user.registrationNotes).toBe("Referred by Sam");
    const rows = await db.prisma.outboxEvent.findMany({ where: { type: "user.registered" } });
    const event = rows
      .map(
        (r) => r.envelope as { payload: { userId: number; sealedToken: string; registrationNotes?: string } },
      )
      .find((e) => e.payload.userId === user.id);
    expect(event?.payload.registrationNotes).toBe("Referred by Sam");
    const token = unseal(event?.payload.sealedToken ?? "");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(event)).not.toContain(token);
    const stored = await db.prisma.oneTimeToken.findMany({
      where: { userId: user.id, purpose: "email_verification" },
    });
    expect(stored).toHaveLength(1);
    expect(stored[0]?.tokenHash).not.toBe(token);
  });
});
