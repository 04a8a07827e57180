import { createAdmin, TEST_PASSWORD } from "@services/shared/testing/factories";
import { confirmAuthenticator, startAuthenticator, totpCodeAt } from "@services/user";
import { waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// Requiring two-factor sign-in, in Chromium (issue 20), on a database of the file's own (the setting
// applies to every sign-in): a mainAdmin may require it of administrators only once they have it
// themselves; another administrator who signs in then sees the enrolment page and nothing else
// until an authenticator app is set up, and goes on to the portal at once; the mainAdmin resets that
// administrator's two-factor sign-in from the user drawer, which sends them back to the enrolment page.

const suite = browserSuite({}, { isolatedDatabase: true });

describe("requiring two-factor sign-in", () => {
  it("limits an administrator without a second factor to the enrolment page until they set one up", async () => {
    const db = suite.db();
    const origin = suite.server().url;
    const boss = await createAdmin(db, { firstName: "Ada" });
    const admin = await createAdmin(db, { userType: "userAdmin", firstName: "Bo" });

    // the switch on /admin/security, refused until the mainAdmin holds a second factor
    const bossPage = await suite.signedIn(boss, "/admin/security");
    const settings = bossPage.getByRole("form", { name: "Security settings" });
    await settings.getByText("Require two-factor sign-in for administrators").click();
    await settings.getByRole("button", { name: "Save security settings" }).click();
    await waitForToast(
      bossPage,
      "Failed to save security settings Set up your own two-factor sign-in before requiring it",
    );
    const { secret } = await startAuthenticator({ db, user: boss });
    await confirmAuthenticator({ db, user: boss, code: totpCodeAt(secret) });
    await settings.getByRole("button", { name: "Save security settings" }).click();
    await waitForToast(bossPage, "Security settings saved The next sign-in follows them.");
    expect(
      await db.prisma.securitySettings.findUnique({
        where: { id: 1 },
        select: { requireTwoFactorForAdmins: true },
      }),
    ).toEqual({ requireTwoFactorForAdmins: true });

    // the other administrator signs in with the password alone: the enrolment page, and only it
    const { page } = await suite.open();
    await page.goto(`${origin}/auth`);
    const login = page.getByRole("form", { name: "Login" });
    await login.getByLabel("Username or email").fill(admin.username);
    await login.getByLabel("Password").fill(TEST_PASSWORD);
    await login.getByRole("button", { name: "Login" }).click();
    await page.waitForURL(`${origin}/two-factor`);
    await page.getByRole("heading", { name: "Set up two-factor sign-in to continue" }).waitFor();
    for (const path of ["/admin/user-management", "/dashboard", "/documents"]) {
      await page.goto(`${origin}${path}`);
      await page.waitForURL(`${origin}/two-factor`);
      await page.getByRole("heading", { name: "Set up two-factor sign-in to continue" }).waitFor();
    }

    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    const setup = page.getByRole("dialog", { name: "Set up an authenticator app" });
    const key = await setup.getByLabel("Can't scan it? Enter this setup key in the app instead").inputValue();
    await setup.getByLabel("Enter the 6-digit code the app shows").fill(totpCodeAt(key));
    await setup.getByRole("button", { name: "Turn on" }).click();
    const codes = page.getByRole("dialog", { name: "Save your recovery codes" });
    await codes.getByRole("list", { name: "Recovery codes" }).waitFor();
    await codes.getByRole("button", { name: "I have saved them, continue" }).click();
    await page.waitForURL(`${origin}/dashboard`);
    await page.goto(`${origin}/admin/user-management`);
    await page.getByRole("heading", { level: 1, name: "User Management" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/user-management");

    // the mainAdmin resets it (a lost phone): the administrator is sent back to the enrolment page
    await bossPage.goto(`${origin}/admin/user-management?user=${admin.id}`);
    const drawer = bossPage.getByRole("dialog", { name: `Bo ${admin.lastName}` });
    const state = drawer.getByRole("region", { name: "Two-factor sign-in" });
    await state.getByText("Authenticator app, 10 recovery codes left").waitFor();
    await state.getByRole("button", { name: "Reset two-factor sign-in" }).click();
    const confirm = bossPage.getByRole("dialog", { name: "Reset two-factor sign-in?" });
    await confirm.getByRole("button", { name: "Reset two-factor sign-in" }).click();
    await waitForToast(
      bossPage,
      `Two-factor sign-in was reset for Bo ${admin.lastName}. They were told by email.`,
    );
    await state.getByText("Password only").waitFor();
    await page.goto(`${origin}/admin/user-management`);
    await page.waitForURL(`${origin}/two-factor`);
    await page.getByRole("heading", { name: "Set up two-factor sign-in to continue" }).waitFor();

    // nobody resets their own: the mainAdmin's drawer of themselves offers no reset
    await bossPage.goto(`${origin}/admin/user-management?user=${boss.id}`);
    const own = bossPage
      .getByRole("dialog", { name: `Ada ${boss.lastName}` })
      .getByRole("region", { name: "Two-factor sign-in" });
    await own.getByText("Authenticator app, 10 recovery codes left").waitFor();
    await expect(own.getByRole("button", { name: "Reset two-factor sign-in" }).count()).resolves.toBe(0);
  }, 90_000);
});
