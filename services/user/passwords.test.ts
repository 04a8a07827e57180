import { hashPassword, verifyPassword } from "./passwords";

describe("passwords", () => {
  it("hashes with argon2id m=19456 t=2 p=1 and a fresh salt each time", async () => {
    const a = await hashPassword("Correct-horse-9");
    const b = await hashPassword("Correct-horse-9");
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("Correct-horse-9");
  });

  it("verifies the right password and refuses a wrong or malformed one", async () => {
    const stored = await hashPassword("Correct-horse-9");
    await expect(verifyPassword(stored, "Correct-horse-9")).resolves.toBe(true);
    await expect(verifyPassword(stored, "correct-horse-9")).resolves.toBe(false);
    await expect(verifyPassword("not-a-hash", "Correct-horse-9")).resolves.toBe(false);
  });
});
