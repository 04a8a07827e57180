import { createRateLimiter } from "@services/shared/rateLimit";
import { testDb } from "@services/shared/testing/db";
import { createUser, TEST_PASSWORD, uniqueSuffix } from "@services/shared/testing/factories";
import { lookUpUser } from "./lookUpUser";
import { signIn } from "./signIn";

// The sign-in use case counts every failure before the next attempt is checked: the account from
// anywhere (which the owner's known browser skips) and the account at this address.

const STRICT = { free: 0, maxDelaySec: 60, memorySec: 60 };

describe("signIn", () => {
  it("refuses the next attempt after a wrong password, except the account-wide delay from a known browser", async () => {
    const db = await testDb();
    const user = await createUser(db);
    const limiter = createRateLimiter({
      prefix: `signin${uniqueSuffix()}:`,
      rules: { loginAccount: STRICT, loginAccountAny: STRICT },
    });
    const attempt = (password: string, ip: string, knownDevice: boolean) =>
      signIn({ db, limiter, login: user.username, password, ip, knownDevice: () => knownDevice });

    await expect(attempt("Wrong-Password-91!", "203.0.113.1", false)).rejects.toMatchObject({
      code: "INVALID_CREDENTIALS",
    });
    // the same address, even with the right password
    await expect(attempt(TEST_PASSWORD, "203.0.113.1", true)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    // another address from an unknown browser: the account-wide delay
    await expect(attempt(TEST_PASSWORD, "203.0.113.2", false)).rejects.toMatchObject({
      code: "RATE_LIMITED",
    });
    // another address from the owner's known browser
    const outcome = await attempt(TEST_PASSWORD, "203.0.113.3", true);
    expect(outcome).toMatchObject({ kind: "granted", user: { id: user.id } });
  });
});

describe("lookUpUser", () => {
  it("gives one's own card, refuses another's without manage:users or manage:esrt_sync", async () => {
    const db = await testDb();
    const [me, other] = await Promise.all([createUser(db), createUser(db)]);
    const actor = { uniqueId: me.uniqueId, permissions: [] };
    await expect(lookUpUser({ db, actor, uniqueId: other.uniqueId })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "You may only look up your own account",
    });
    await expect(lookUpUser({ db, actor, uniqueId: me.uniqueId })).resolves.toMatchObject({ id: me.id });
    await expect(
      lookUpUser({ db, actor: { ...actor, permissions: ["manage:esrt_sync"] }, uniqueId: other.uniqueId }),
    ).resolves.toMatchObject({ id: other.id });
  });
});
