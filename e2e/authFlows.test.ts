import { testDb } from "@services/shared/testing/db";
import {
  createSecurityQuestions,
  createUser,
  TEST_PASSWORD,
  TEST_SECURITY_ANSWERS,
} from "@services/shared/testing/factories";
import { type PortalPage, signInThroughApi, waitForToast } from "./support/portal";
import { browserSuite } from "./support/suite";

// The other screens of /auth (reset, verification, security questions), the login failures of
// spec §8 that depend on the account, and the toast region's keyboard and swipe handling.

const suite = browserSuite();
let portal: PortalPage;

const QUESTIONS = [
  "What was the name of your first pet?",
  "In which city were you born?",
  "What is your favourite colour?",
];

async function submitLogin(p: PortalPage, login: string, password: string = TEST_PASSWORD): Promise<void> {
  await p.page.goto(`${suite.server().url}/auth`);
  const form = p.page.getByRole("form", { name: "Login" });
  await form.getByLabel("Username or email").fill(login);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Login" }).click();
}

describe("/auth flows in the browser", () => {
  it("tells a deactivated account to call support", async () => {
    const db = await testDb();
    const user = await createUser(db, { userType: "client", userStatus: "inactive" });
    portal = await suite.open([/status of 403 .*\/api\/login\)$/]);
    await submitLogin(portal, user.username);
    await waitForToast(
      portal.page,
      /^Login failed This account has been deactivated\. Please contact support at .+ for assistance\.$/,
    );
    expect(new URL(portal.page.url()).pathname).toBe("/auth");
    expect(portal.problems.messages).toEqual([]);
  });

  it("asks an unverified account to verify its email first", async () => {
    const db = await testDb();
    const user = await createUser(db, { userType: "client", emailVerified: false });
    portal = await suite.open([/status of 403 .*\/api\/login\)$/]);
    await submitLogin(portal, user.username);
    await waitForToast(
      portal.page,
      "Login failed Please verify your email before logging in. Check your inbox for the verification link.",
    );
    expect(portal.problems.messages).toEqual([]);
  });

  it("lets an unverified account ask for a new verification link, which replaces the old one", async () => {
    const db = await testDb();
    const user = await createUser(db, { userType: "client", emailVerified: false });
    portal = await suite.open();
    const { page } = portal;
    await page.goto(`${suite.server().url}/auth`);
    await page.getByRole("link", { name: "Resend verification email" }).click();
    const form = page.getByRole("form", { name: "Resend verification email" });
    await form.getByLabel("Email").fill(user.email.toUpperCase());
    await form.getByRole("button", { name: "Send verification link" }).click();
    await waitForToast(
      page,
      "Verification email requested If an account with this email still needs verification, a new link is on its way.",
    );
    const tokens = await db.prisma.oneTimeToken.findMany({
      where: { userId: user.id, purpose: "email_verification", usedAt: null },
    });
    expect(tokens).toHaveLength(1);
    const events = await db.prisma.outboxEvent.count({
      where: {
        type: "user.verification_requested",
        envelope: { path: ["payload", "userId"], equals: user.id },
      },
    });
    expect(events).toBe(1);
    expect(portal.problems.messages).toEqual([]);
  });

  it("asks an enhanced-security user one of their questions before signing them in", async () => {
    const db = await testDb();
    const user = await createUser(db, { userType: "client", securityLevel: "enhanced", firstName: "Ena" });
    await createSecurityQuestions(db, user.id);
    portal = await suite.open([/status of 40\d .*\/api\/verify-security-answers\)$/]);
    const { page } = portal;
    await submitLogin(portal, user.username);

    const step = page.getByRole("form", { name: "Security question" });
    await step.waitFor();
    const label = (await step.locator("label").first().textContent())?.trim() ?? "";
    const index = QUESTIONS.indexOf(label);
    expect(index).toBeGreaterThanOrEqual(0);
    await expect(page.getByText("Welcome, Ena", { exact: true }).count()).resolves.toBe(0);

    await step.getByLabel(label).fill("certainly not this");
    await step.getByRole("button", { name: "Verify" }).click();
    await waitForToast(page, /^Security verification failed /);
    expect(new URL(page.url()).pathname).toBe("/auth");

    await step.getByLabel(label).fill(`  ${(TEST_SECURITY_ANSWERS[index] ?? "").toUpperCase()} `);
    await step.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(`${suite.server().url}/dashboard`);
    await waitForToast(page, "Security verification successful Your identity has been verified.");
    await page.getByText("Welcome, Ena", { exact: true }).waitFor();
    expect(portal.problems.messages).toEqual([]);
  });

  it("lets a signed-in user set their security questions", async () => {
    const db = await testDb();
    const user = await createUser(db, { userType: "prospect" });
    portal = await suite.open([/status of 404 .*\/api\/security-questions\/\d+\)$/]);
    const { page } = portal;
    await signInThroughApi(page, suite.server(), user.username);
    await page.goto(`${suite.server().url}/auth?mode=security-questions`);

    const form = page.getByRole("form", { name: "Security questions" });
    await form.getByRole("button", { name: "Save security questions" }).click();
    await form.getByText("Each question must be at least 5 characters").first().waitFor();

    for (const [i, question] of QUESTIONS.entries()) {
      await form.locator(`#security-question-${i}`).fill(question);
      await form.locator(`#security-answer-${i}`).fill(TEST_SECURITY_ANSWERS[i] ?? "");
    }
    await form.getByRole("button", { name: "Save security questions" }).click();
    await waitForToast(page, "Security questions saved Your security questions have been set successfully.");
    await page.waitForURL(`${suite.server().url}/dashboard`);
    const saved = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(saved.securityQuestionsSet).toBe(true);
    expect(portal.problems.messages).toEqual([]);
  });

  it("accepts a reset request with the same answer whether or not the account exists", async () => {
    portal = await suite.open();
    const { page } = portal;
    await page.goto(`${suite.server().url}/auth`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    const form = page.getByRole("form", { name: "Reset password" });
    await form.getByLabel("Email").fill("nobody-here@example.test");
    await form.getByRole("button", { name: "Send reset link" }).click();
    await waitForToast(
      page,
      "Password reset requested If an account exists with this email, you will receive reset instructions.",
    );
    expect(portal.problems.messages).toEqual([]);
  });

  it("refuses a reset link or verification link that is not valid", async () => {
    portal = await suite.open([/status of 400 .*\/api\/(reset-password\/confirm|verify-email)\)$/]);
    const { page } = portal;
    await page.goto(`${suite.server().url}/auth?mode=verify-email&token=${"x".repeat(40)}`);
    await waitForToast(page, "Email verification failed This verification link is invalid or has expired");

    await page.goto(`${suite.server().url}/auth?mode=reset-password&token=${"y".repeat(40)}`);
    const form = page.getByRole("form", { name: "Set a new password" });
    await form.getByLabel("New password", { exact: true }).fill("Brand-New-Secret-7");
    await form.getByLabel("Confirm new password").fill("Brand-New-Secret-8");
    await form.getByRole("button", { name: "Set new password" }).click();
    await form.getByText("Passwords do not match", { exact: true }).waitFor();
    await form.getByLabel("Confirm new password").fill("Brand-New-Secret-7");
    await form.getByRole("button", { name: "Set new password" }).click();
    await waitForToast(page, "Password reset failed This reset link is invalid or has expired");
    expect(portal.problems.messages).toEqual([]);
  });

  it("focuses the toast region on F8 and dismisses a toast swiped to the right", async () => {
    portal = await suite.open();
    const { page } = portal;
    await page.goto(`${suite.server().url}/auth?mode=forgot-password`);
    const form = page.getByRole("form", { name: "Reset password" });
    await form.getByLabel("Email").fill("someone@example.test");
    await form.getByRole("button", { name: "Send reset link" }).click();
    const toast = page.locator(".portal-toaster .bp6-toast");
    await toast.waitFor();

    await page.keyboard.press("F8");
    await expect(
      page.evaluate("document.activeElement?.classList.contains('portal-toaster') === true"),
    ).resolves.toBe(true);

    const box = await toast.boundingBox();
    if (!box) throw new Error("the toast has no box");
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 20, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 45, y, { steps: 3 });
    await expect(toast.count()).resolves.toBe(1);
    await page.mouse.move(box.x + 80, y, { steps: 3 });
    await page.mouse.up();
    await toast.waitFor({ state: "detached" });
    expect(portal.problems.messages).toEqual([]);
  });
});
