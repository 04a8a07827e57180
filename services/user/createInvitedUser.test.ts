import type { TestSmtp } from "@services/email/testing";
import { registerEmailPipeline, TEST_PUBLIC_URL } from "@services/email/testing";
import type { Db } from "@services/shared/db";
import { waitFor } from "@services/shared/events/testing/bus";
import { createUser, uniqueSuffix } from "@services/shared/testing/factories";
import {
  acceptInvitation,
  INVITATION_EXPIRED_MESSAGE,
  INVITATION_INVALID_MESSAGE,
  INVITATION_USED_MESSAGE,
} from "./acceptInvitation";
import { createInvitedUser } from "./createInvitedUser";
import { isUserError } from "./errors";
import { loginUser } from "./loginUser";
import { hashToken } from "./oneTimeTokens";

// An administrator creates a user, who receives the invitation over real SMTP (the whole path:
// outbox, relay, JetStream, the email consumer, the sender) and sets a password with its link once.

const pipeline = registerEmailPipeline();
let db: Db;
let smtp: TestSmtp;

beforeAll(async () => {
  ({ db, smtp } = pipeline());
});
function newUser(userType: "client" | "prospect" | "mainAdmin" | "userAdmin" = "client") {
  const tag = uniqueSuffix();
  return {
    username: `invited_${tag}`,
    email: `invited_${tag}@client.test`,
    firstName: "Ines",
    lastName: "Invited",
    phone: undefined,
    companyName: "Receivables Ltd",
    userType,
  };
}

/** The token of the set-password link in the mail to `to`. */
async function invitationToken(to: string): Promise<{ token: string; subject: string; text: string }> {
  await waitFor(() => smtp.to(to).length >= 1, `the invitation to ${to}`);
  const mail = smtp.to(to)[0];
  if (!mail) throw new Error("no mail");
  const match = /\/auth\?mode=set-password&token=([A-Za-z0-9_%-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no set-password link in: ${mail.text}`);
  return { token: decodeURIComponent(match[1]), subject: mail.subject, text: mail.text };
}

async function refusal(work: Promise<unknown>): Promise<string> {
  const err = await work.catch((e: unknown) => e);
  if (!isUserError(err)) throw new Error(`expected a UserError, got ${String(err)}`);
  return err.message;
}

describe("an invitation", () => {
  it("arrives by email, sets the password once within 72 hours, verifies the address and is stored hashed", async () => {
    const admin = await createUser(db, { userType: "userAdmin", firstName: "Uma", lastName: "Admin" });
    const input = newUser();
    const user = await createInvitedUser({ db, actor: { ...admin, name: "Uma Admin" }, input });
    expect(user).toMatchObject({ userType: "client", emailVerified: false, username: input.username });
    // no password works before the invitation is accepted
    await expect(
      loginUser({ db, login: input.username, password: "Anything-at-all-1!" }).catch(() => "refused"),
    ).resolves.toBe("refused");

    const mail = await invitationToken(input.email);
    expect(mail.subject).toContain("You are invited to");
    expect(mail.text).toContain(`Your username is ${input.username}`);
    expect(mail.text).toContain("Uma Admin created");
    expect(mail.text).toContain("valid for 72 hours");
    expect(mail.text).toContain(`${TEST_PUBLIC_URL}/auth?mode=set-password&token=`);

    const stored = await db.prisma.oneTimeToken.findFirstOrThrow({
      where: { userId: user.id, purpose: "invitation" },
    });
    expect(stored.tokenHash).toBe(hashToken(mail.token));
    expect(stored.tokenHash).not.toContain(mail.token);
    const hours = (stored.expiresAt.getTime() - stored.createdAt.getTime()) / 3_600_000;
    expect(hours).toBeCloseTo(72, 1);

    const event = await db.prisma.outboxEvent.findFirstOrThrow({ where: { type: "user.invited" } });
    const payload = (event.envelope as { payload: Record<string, unknown> }).payload;
    expect(payload).toMatchObject({ userId: user.id, userType: "client", invitedBy: "Uma Admin" });
    expect(payload.snapshot).toMatchObject({ uniqueId: user.uniqueId, userType: "client" });
    expect(JSON.stringify(event.envelope)).not.toContain(mail.token);
    expect(
      await db.prisma.auditLog.count({ where: { action: "user.created", targetId: String(user.id) } }),
    ).toBe(1);

    const accepted = await acceptInvitation({ db, token: mail.token, password: "Fresh-Start-42!" });
    expect(accepted).toMatchObject({ id: user.id, emailVerified: true });
    const signedIn = await loginUser({ db, login: input.username, password: "Fresh-Start-42!" });
    expect(JSON.stringify(signedIn)).toContain(`"uniqueId":"${user.uniqueId}"`);

    // used once: the link no longer works
    expect(await refusal(acceptInvitation({ db, token: mail.token, password: "Another-Go-42!" }))).toBe(
      INVITATION_USED_MESSAGE,
    );
    expect(await refusal(acceptInvitation({ db, token: `${mail.token}x`, password: "Another-Go-42!" }))).toBe(
      INVITATION_INVALID_MESSAGE,
    );
  });

  it("is refused after 72 hours", async () => {
    const admin = await createUser(db, { userType: "mainAdmin" });
    const input = newUser("prospect");
    const user = await createInvitedUser({ db, actor: { ...admin, name: "Main Admin" }, input });
    const { token } = await invitationToken(input.email);
    await db.prisma.oneTimeToken.updateMany({
      where: { userId: user.id, purpose: "invitation" },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await refusal(acceptInvitation({ db, token, password: "Fresh-Start-42!" }))).toBe(
      INVITATION_EXPIRED_MESSAGE,
    );
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerified).toBe(false);
  });

  it("is refused for a type the administrator may not grant, and for a taken username or email", async () => {
    const userAdmin = await createUser(db, { userType: "userAdmin" });
    const mainAdmin = await createUser(db, { userType: "mainAdmin" });
    for (const userType of ["mainAdmin", "userAdmin"] as const) {
      const err = await createInvitedUser({
        db,
        actor: { ...userAdmin, name: "U" },
        input: newUser(userType),
      }).catch((e: unknown) => e);
      expect(isUserError(err) && err.code).toBe("NOT_ALLOWED");
    }
    const admin = await createInvitedUser({
      db,
      actor: { ...mainAdmin, name: "M" },
      input: newUser("userAdmin"),
    });
    expect(admin).toMatchObject({ userType: "userAdmin", accessLevel: "full" });
    const taken = await createInvitedUser({
      db,
      actor: { ...mainAdmin, name: "M" },
      input: { ...newUser(), username: admin.username.toUpperCase() },
    }).catch((e: unknown) => e);
    expect(isUserError(taken) && [taken.code, taken.details]).toEqual([
      "USERNAME_TAKEN",
      { errors: { username: ["Username already taken"] } },
    ]);
  });
});
