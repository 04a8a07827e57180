import { type Db } from "@services/shared/db";
import { registerIsolatedDb } from "@services/shared/testing/db";
import { createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import { getPublicBranding } from "./getPublicBranding";
import { loginUser } from "./loginUser";
import { DEFAULT_BRANDING } from "./seedUserDefaults";

// A database without its branding row (never seeded, or the row removed) still shows the seed's
// branding, and the inactive-account message names the same support phone.

const scratch = registerIsolatedDb();
let db: Db;
beforeAll(() => {
  db = scratch.db;
});

describe("getPublicBranding", () => {
  it("falls back to the seed defaults when branding_config has no row", async () => {
    expect(await db.prisma.brandingConfig.count()).toBe(0);
    expect(await getPublicBranding({ db })).toEqual(DEFAULT_BRANDING);
  });

  it("names the branding phone in the deactivated-account message, row or no row", async () => {
    const user = await createUser(db, { userStatus: "inactive" });
    await expect(loginUser({ db, login: user.username, password: TEST_PASSWORD })).rejects.toMatchObject({
      code: "ACCOUNT_INACTIVE",
      message: `This account has been deactivated. Please contact support at ${DEFAULT_BRANDING.supportPhone} for assistance.`,
    });
    await db.prisma.brandingConfig.create({
      data: { title: "Acme", logoUrl: "/acme.svg", supportPhone: "(555) 777-0000", consultationEmail: null },
    });
    expect(await getPublicBranding({ db })).toEqual({
      ...DEFAULT_BRANDING,
      title: "Acme",
      logoUrl: "/acme.svg",
      supportPhone: "(555) 777-0000",
    });
    await expect(loginUser({ db, login: user.username, password: TEST_PASSWORD })).rejects.toMatchObject({
      message: "This account has been deactivated. Please contact support at (555) 777-0000 for assistance.",
    });
  });
});
