import { isolatedAppFixture, postGraphql, refusal, sessionFor } from "@gateway/testing/fixtures";
import { EMAIL_TEMPLATE_MESSAGES } from "@schema/validation/emailTemplates";
import { DEFAULT_EMAIL_TEMPLATES, type EmailSender, smtpTransport, startEmailSender } from "@services/email";
import { startTestSmtp, type TestSmtp } from "@services/email/testing";
import { createUser } from "@services/shared/testing/factories";

// Email templates and the delivery log over GraphQL, on a database of the file's own with a real
// sender and a real SMTP server: what a test send queues is received over SMTP.

let smtp: TestSmtp;
let sender: EmailSender;
let adminCookie: string;
let adminEmail: string;
const bodies: string[] = [];

const harness = isolatedAppFixture({
  beforeClose: async () => {
    await sender.stop();
    await smtp.stop();
  },
});
beforeAll(async () => {
  smtp = await startTestSmtp();
  sender = await startEmailSender({
    db: harness.db,
    transport: smtpTransport({ url: smtp.url, timeoutMs: 2000 }),
    pollMs: 100,
    retry: { baseMs: 100, maxMs: 300, maxAttempts: 3 },
  });
  const admin = await createUser(harness.db, { userType: "mainAdmin", firstName: "Ada", lastName: "Mail" });
  adminEmail = admin.email;
  adminCookie = await cookieOf(admin.username);
});

async function gql(query: string, cookie = "", variables: Record<string, unknown> = {}) {
  const res = await postGraphql(harness.app, query, cookie, variables, bodies);
  expect(res.status).toBeLessThan(500);
  return res;
}

function cookieOf(username: string): Promise<string> {
  return sessionFor(harness.app, username);
}

async function signIn(userType: "client" | "prospect" | "userAdmin" | "mainAdmin"): Promise<string> {
  const user = await createUser(harness.db, { userType });
  return cookieOf(user.username);
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const verification = DEFAULT_EMAIL_TEMPLATES.find((t) => t.key === "email_verification");
if (!verification) throw new Error("no verification template");

const TEMPLATES = "{ emailTemplates { key name subject isDefault variables { name description sample } } }";
const TEMPLATE =
  "query ($key: String!) { emailTemplate(key: $key) { key subject html text isDefault updatedBy } }";
const VERSIONS =
  "query ($key: String!) { emailTemplateVersions(key: $key) { id version change subject createdBy } }";
const PREVIEW = `query ($input: EmailTemplateInput!) { emailTemplatePreview(input: $input) {
  rendered { subject html text } problems { part line column reason message } } }`;
const UPDATE = `mutation ($input: EmailTemplateInput!) { updateEmailTemplate(input: $input) {
  __typename ... on AppError { code message }
  ... on MutationUpdateEmailTemplateSuccess { data { key subject html text isDefault updatedBy } } } }`;
const REVERT = `mutation ($key: String!) { revertEmailTemplate(key: $key) {
  __typename ... on AppError { code message }
  ... on MutationRevertEmailTemplateSuccess { data { subject html text isDefault } } } }`;
const RESTORE = `mutation ($versionId: Int!) { restoreEmailTemplateVersion(versionId: $versionId) {
  __typename ... on AppError { code message }
  ... on MutationRestoreEmailTemplateVersionSuccess { data { subject isDefault } } } }`;
const TEST_SEND = `mutation ($input: EmailTestSendInput!) { sendTestEmail(input: $input) {
  __typename ... on AppError { code message }
  ... on MutationSendTestEmailSuccess { data { messageId to } } } }`;
const MESSAGES = `query ($filter: EmailLogFilter, $first: Int, $after: String) {
  emailMessages(filter: $filter, first: $first, after: $after) {
    nodes { id toAddress templateKey templateName status attempts lastError }
    endCursor hasNextPage } }`;
const MESSAGE = `query ($id: Int!) { emailMessage(id: $id) {
  message { id status toAddress } html text smtpMessageId attachments { filename contentType size } } }`;
const COUNTS = "{ emailCounts { queued sent failed captured } }";
const RESEND = `mutation ($id: Int!) { resendEmailMessage(id: $id) {
  __typename ... on AppError { code message }
  ... on MutationResendEmailMessageSuccess { data { resent message { id status } } } } }`;

const input = (overrides: Record<string, string> = {}) => ({
  key: "email_verification",
  subject: verification.subject,
  html: verification.html,
  text: verification.text,
  ...overrides,
});

describe("email templates and the delivery log over GraphQL", () => {
  it("refuses every operation to the signed out, a userAdmin, a client and a prospect, and changes nothing", async () => {
    const cases: [string, string][] = [
      ["", "UNAUTHENTICATED"],
      [await signIn("userAdmin"), "FORBIDDEN"],
      [await signIn("client"), "FORBIDDEN"],
      [await signIn("prospect"), "FORBIDDEN"],
    ];
    for (const [cookie, code] of cases) {
      const calls: [string, string, Record<string, unknown>][] = [
        ["emailTemplates", TEMPLATES, {}],
        ["emailTemplate", TEMPLATE, { key: "welcome" }],
        ["emailTemplateVersions", VERSIONS, { key: "welcome" }],
        ["emailTemplatePreview", PREVIEW, { input: input() }],
        ["updateEmailTemplate", UPDATE, { input: input({ subject: "Hacked" }) }],
        ["revertEmailTemplate", REVERT, { key: "welcome" }],
        ["restoreEmailTemplateVersion", RESTORE, { versionId: 1 }],
        ["sendTestEmail", TEST_SEND, { input: { key: "welcome", to: "x@client.test" } }],
        ["emailMessages", MESSAGES, {}],
        ["emailMessage", MESSAGE, { id: 1 }],
        ["emailCounts", COUNTS, {}],
        ["resendEmailMessage", RESEND, { id: 1 }],
      ];
      for (const [field, query, variables] of calls) {
        expect([field, refusal(await gql(query, cookie, variables), field)]).toEqual([field, code]);
      }
    }
    expect(await harness.db.prisma.auditLog.count({ where: { action: { startsWith: "email." } } })).toBe(0);
    expect(await harness.db.prisma.emailMessage.count()).toBe(0);
    expect(await harness.db.prisma.emailTemplateVersion.count()).toBe(0);
  });

  it("lists every template the portal sends with its variables, descriptions and samples", async () => {
    const res = await gql(TEMPLATES, adminCookie);
    const list = res.data?.emailTemplates as {
      key: string;
      isDefault: boolean;
      variables: { name: string }[];
    }[];
    expect(list.map((t) => t.key)).toEqual(DEFAULT_EMAIL_TEMPLATES.map((t) => t.key));
    expect(list.every((t) => t.isDefault)).toBe(true);
    const names = list.find((t) => t.key === "email_verification")?.variables.map((v) => v.name);
    expect(names).toEqual(["productName", "supportPhone", "firstName", "lastName", "link", "expiresInHours"]);
  });

  it("answers each validation message of a save, and saves nothing", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ subject: " " }, EMAIL_TEMPLATE_MESSAGES.subjectRequired],
      [{ subject: "x".repeat(201) }, EMAIL_TEMPLATE_MESSAGES.subjectTooLong],
      [{ html: "" }, EMAIL_TEMPLATE_MESSAGES.htmlRequired],
      [{ html: "x".repeat(100_001) }, EMAIL_TEMPLATE_MESSAGES.htmlTooLong],
      [{ text: "x".repeat(100_001) }, EMAIL_TEMPLATE_MESSAGES.textTooLong],
      [{ key: "Not A Key" }, EMAIL_TEMPLATE_MESSAGES.keyRequired],
      [{ subject: "a\u0000b" }, "Text cannot contain NUL characters or unpaired surrogates"],
    ];
    for (const [overrides, message] of cases) {
      const res = await gql(UPDATE, adminCookie, { input: input(overrides) });
      expect(res.data?.updateEmailTemplate).toEqual({
        __typename: "AppError",
        code: "VALIDATION_FAILED",
        message,
      });
    }
    const unknown = await gql(UPDATE, adminCookie, { input: input({ key: "no_such_template" }) });
    expect(unknown.data?.updateEmailTemplate).toEqual({
      __typename: "AppError",
      code: "NOT_FOUND",
      message: "Email template not found",
    });
    const badAddress = await gql(TEST_SEND, adminCookie, { input: { key: "welcome", to: "not an address" } });
    expect(badAddress.data?.sendTestEmail).toEqual({
      __typename: "AppError",
      code: "VALIDATION_FAILED",
      message: "Please enter a valid email address",
    });
    expect(await harness.db.prisma.emailTemplateVersion.count()).toBe(0);
    expect(await harness.db.prisma.emailMessage.count()).toBe(0);
  });

  it("refuses an unknown variable, a refused tag and a parse error at save with the line and the reason", async () => {
    for (const [change, message] of [
      [
        { html: "<p>Hello {{firstName}},</p>\n<p>Your code: {{secretCode}}</p>" },
        'HTML body, line 2: Unknown variable "secretCode"',
      ],
      [{ text: "Hello\n\n{{#link}}Open {{link}}\nthe end" }, 'Text body, line 3: Unclosed section "link"'],
      [
        { subject: "Hi {{{firstName}}}" },
        'Subject, line 1: Unescaped output of "firstName" is not allowed: write {{firstName}}',
      ],
      [{ text: "{{> footer}}" }, "Text body, line 1: Partials ({{> footer}}) are not allowed"],
    ] as const) {
      const refused = await gql(UPDATE, adminCookie, { input: input(change) });
      expect(refused.data?.updateEmailTemplate).toEqual({
        __typename: "AppError",
        code: "VALIDATION_FAILED",
        message,
      });
    }
    // the preview lists every problem, with its column
    const preview = await gql(PREVIEW, adminCookie, {
      input: input({ subject: "{{nope}}", html: "<p>\n  {{#x}}</p>" }),
    });
    expect(preview.data?.emailTemplatePreview).toEqual({
      rendered: null,
      problems: [
        {
          part: "subject",
          line: 1,
          column: 1,
          reason: 'Unknown variable "nope"',
          message: 'Subject, line 1: Unknown variable "nope"',
        },
        {
          part: "html",
          line: 2,
          column: 3,
          reason: 'Unclosed section "x"',
          message: 'HTML body, line 2: Unclosed section "x"',
        },
      ],
    });
    const template = await gql(TEMPLATE, adminCookie, { key: "email_verification" });
    expect(template.data?.emailTemplate).toMatchObject({ subject: verification.subject, isDefault: true });
    expect(await harness.db.prisma.emailTemplateVersion.count()).toBe(0);
  });

  it("edits a template, previews it with the sample values, test-sends it over SMTP, keeps versions, restores and reverts", async () => {
    const edited = input({
      subject: "Please confirm, {{firstName}}",
      html: '<p>Hi {{firstName}} {{lastName}},</p><p><a href="{{link}}">Confirm</a> within {{expiresInHours}} hours.</p>{{#supportPhone}}<p>{{supportPhone}}</p>{{/supportPhone}}',
      text: "Hi {{firstName}}, confirm: {{link}} ({{expiresInHours}} hours)",
    });
    // the preview is the whole email: the content inside the branded layout, the text in its own
    const preview = await gql(PREVIEW, adminCookie, { input: edited });
    const shown = preview.data?.emailTemplatePreview as {
      rendered: { subject: string; html: string; text: string };
      problems: unknown[];
    };
    expect(shown.problems).toEqual([]);
    expect(shown.rendered.subject).toBe("Please confirm, Maria");
    expect(shown.rendered.html).toMatch(/^<!doctype html>/i);
    expect(shown.rendered.html).toContain(
      '<p>Hi Maria Lopez,</p><p><a href="https:&#x2F;&#x2F;portal.example.com&#x2F;verify-email?token&#x3D;sample">Confirm</a> within 24 hours.</p>',
    );
    expect(shown.rendered.html).toContain('<img src="http:&#x2F;&#x2F;');
    expect(shown.rendered.text).toBe(
      "ESRT\n\nHi Maria, confirm: https://portal.example.com/verify-email?token=sample (24 hours)\n\n-- \nESRT\n",
    );
    // an empty text body: the text part is made from the HTML
    const generated = await gql(PREVIEW, adminCookie, { input: { ...edited, text: "" } });
    expect(generated.data?.emailTemplatePreview).toMatchObject({
      rendered: {
        text: "ESRT\n\nHi Maria Lopez,\n\nConfirm <https://portal.example.com/verify-email?token=sample> within 24 hours.\n\n-- \nESRT\n",
      },
    });

    const saved = await gql(UPDATE, adminCookie, { input: edited });
    expect(saved.data?.updateEmailTemplate).toMatchObject({
      __typename: "MutationUpdateEmailTemplateSuccess",
      data: { subject: "Please confirm, {{firstName}}", isDefault: false, updatedBy: "Ada Mail" },
    });
    // saving the same parts again changes nothing
    await gql(UPDATE, adminCookie, { input: edited });
    const audits = await harness.db.prisma.auditLog.findMany({ where: { action: "email.template_updated" } });
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      targetType: "email_template",
      targetId: "email_verification",
      before: { subject: verification.subject },
      after: { subject: "Please confirm, {{firstName}}" },
    });

    // "send me a test": the saved template to the admin's own address, received over SMTP
    const sent = await gql(TEST_SEND, adminCookie, { input: { key: "email_verification" } });
    expect(sent.data?.sendTestEmail).toMatchObject({ data: { to: adminEmail } });
    await waitFor(() => smtp.to(adminEmail).length === 1, "the test email");
    const mail = smtp.to(adminEmail)[0];
    expect(mail?.subject).toBe("Please confirm, Maria");
    expect(mail?.text).toContain(
      "Hi Maria, confirm: https://portal.example.com/verify-email?token=sample (24 hours)",
    );
    expect(mail?.html).toContain("<p>Hi Maria Lopez,</p>");
    expect(
      await harness.db.prisma.auditLog.count({
        where: { action: "email.test_sent", actorId: { not: null } },
      }),
    ).toBe(1);

    // a draft to another address, not saved
    const draftSent = await gql(TEST_SEND, adminCookie, {
      input: {
        key: "email_verification",
        to: "Draft@Client.test",
        draft: { subject: "Draft {{lastName}}", html: "<p>d</p>", text: "d" },
      },
    });
    expect(draftSent.data?.sendTestEmail).toMatchObject({ data: { to: "draft@client.test" } });
    await waitFor(() => smtp.to("draft@client.test").length === 1, "the draft");
    expect(smtp.to("draft@client.test")[0]?.subject).toBe("Draft Lopez");
    const badDraft = await gql(TEST_SEND, adminCookie, {
      input: { key: "email_verification", draft: { subject: "{{token}}", html: "x", text: "x" } },
    });
    expect(badDraft.data?.sendTestEmail).toMatchObject({
      message: 'Subject, line 1: Unknown variable "token"',
    });

    // versions: the original state, then the edit
    const versions = await gql(VERSIONS, adminCookie, { key: "email_verification" });
    expect(versions.data?.emailTemplateVersions).toEqual([
      expect.objectContaining({
        version: 2,
        change: "edit",
        subject: "Please confirm, {{firstName}}",
        createdBy: "Ada Mail",
      }),
      expect.objectContaining({ version: 1, change: "original", subject: verification.subject }),
    ]);

    // revert restores the default
    const reverted = await gql(REVERT, adminCookie, { key: "email_verification" });
    expect(reverted.data?.revertEmailTemplate).toEqual({
      __typename: "MutationRevertEmailTemplateSuccess",
      data: {
        subject: verification.subject,
        html: verification.html,
        text: verification.text,
        isDefault: true,
      },
    });
    expect(await harness.db.prisma.auditLog.count({ where: { action: "email.template_reverted" } })).toBe(1);

    // restoring version 2 brings the edit back, as version 4
    const v2 = ((versions.data?.emailTemplateVersions ?? []) as { id: number; version: number }[]).find(
      (v) => v.version === 2,
    );
    const restored = await gql(RESTORE, adminCookie, { versionId: v2?.id });
    expect(restored.data?.restoreEmailTemplateVersion).toEqual({
      __typename: "MutationRestoreEmailTemplateVersionSuccess",
      data: { subject: "Please confirm, {{firstName}}", isDefault: false },
    });
    const after = await gql(VERSIONS, adminCookie, { key: "email_verification" });
    expect(((after.data?.emailTemplateVersions ?? []) as { change: string }[]).map((v) => v.change)).toEqual([
      "restore",
      "revert",
      "edit",
      "original",
    ]);
    const restoreAudit = await harness.db.prisma.auditLog.findFirst({
      where: { action: "email.template_restored" },
    });
    expect(restoreAudit?.metadata).toMatchObject({
      key: "email_verification",
      version: 4,
      restoredVersion: 2,
    });
    const missing = await gql(RESTORE, adminCookie, { versionId: 999_999 });
    expect(missing.data?.restoreEmailTemplateVersion).toMatchObject({ code: "NOT_FOUND" });
    // the template queued from now on is the restored one
    await waitFor(
      async () => (await harness.db.prisma.emailMessage.count({ where: { status: "sent" } })) === 2,
      "both test sends recorded",
    );
  });

  it("filters the delivery log, pages it without skipping or repeating, and counts the last 24 hours", async () => {
    await harness.db.prisma.emailMessage.createMany({
      data: Array.from({ length: 7 }, (_, i) => ({
        dedupeKey: `log-${i}`,
        templateKey: i % 2 ? "welcome" : "password_reset",
        toAddress: `log${i}@page.test`,
        subject: `Log ${i}`,
        html: "<p>x</p>",
        text: "x",
        status: i < 3 ? ("failed" as const) : ("captured" as const),
        attempts: i < 3 ? 3 : 0,
        lastError: i < 3 ? "550 mailbox unavailable" : null,
      })),
    });
    const seen: number[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res = await gql(MESSAGES, adminCookie, { filter: { recipient: "@PAGE.test" }, first: 3, after });
      const result = res.data?.emailMessages as {
        nodes: { id: number }[];
        endCursor: string | null;
        hasNextPage: boolean;
      };
      seen.push(...result.nodes.map((n) => n.id));
      // a message arriving between pages does not move the later pages
      if (page === 0) {
        await harness.db.prisma.emailMessage.create({
          data: {
            dedupeKey: "late",
            toAddress: "late@page.test",
            subject: "Late",
            html: "",
            text: "",
            status: "captured",
          },
        });
      }
      if (!result.hasNextPage) break;
      after = result.endCursor;
    }
    expect(seen).toHaveLength(7);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
    expect(new Set(seen).size).toBe(7);

    const failedWelcome = await gql(MESSAGES, adminCookie, {
      filter: { status: "failed", templateKey: "welcome" },
    });
    expect(failedWelcome.data?.emailMessages.nodes).toEqual([
      expect.objectContaining({
        toAddress: "log1@page.test",
        templateName: "Welcome",
        attempts: 3,
        lastError: "550 mailbox unavailable",
      }),
    ]);
    const future = await gql(MESSAGES, adminCookie, {
      filter: { from: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(future.data?.emailMessages.nodes).toEqual([]);
    const badRange = await gql(MESSAGES, adminCookie, {
      filter: { from: "2026-02-02T00:00:00Z", to: "2026-01-01T00:00:00Z" },
    });
    expect(badRange.errors?.[0]).toMatchObject({
      message: "The start of a range must not be after its end",
      extensions: { code: "VALIDATION_FAILED" },
    });
    const badCursor = await gql(MESSAGES, adminCookie, { after: "bm90IGEgY3Vyc29y" });
    expect(badCursor.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
    const badFirst = await gql(MESSAGES, adminCookie, { first: 0 });
    expect(badFirst.errors?.[0]?.message).toBe("first is 1 to 200");

    const counts = await gql(COUNTS, adminCookie);
    expect(counts.data?.emailCounts).toEqual({ queued: 0, sent: 2, failed: 3, captured: 5 });
  });

  it("shows a message as sent (tokens redacted, attachments listed) and resends a failed one once", async () => {
    const address = "resend@client.test";
    const failed = await harness.db.prisma.emailMessage.create({
      data: {
        dedupeKey: "resend-1",
        templateKey: "password_reset",
        toAddress: address,
        subject: "Reset",
        html: '<a href="https://portal.test/reset-password?token=live-secret">Reset</a>',
        text: "https://portal.test/reset-password?token=live-secret",
        attachments: [
          {
            filename: "invite.ics",
            contentType: "text/calendar; method=REQUEST",
            content: "BEGIN:VCALENDAR",
          },
        ],
        status: "failed",
        attempts: 3,
        lastError: "Connection refused",
      },
    });
    const view = await gql(MESSAGE, adminCookie, { id: failed.id });
    expect(view.data?.emailMessage).toEqual({
      message: { id: failed.id, status: "failed", toAddress: address },
      html: '<a href="https://portal.test/reset-password?token=redacted">Reset</a>',
      text: "https://portal.test/reset-password?token=redacted",
      smtpMessageId: null,
      attachments: [{ filename: "invite.ics", contentType: "text/calendar; method=REQUEST", size: 15 }],
    });
    expect((await gql(MESSAGE, adminCookie, { id: 999_999 })).errors?.[0]?.extensions?.code).toBe(
      "NOT_FOUND",
    );

    const [first, second] = await Promise.all([
      gql(RESEND, adminCookie, { id: failed.id }),
      gql(RESEND, adminCookie, { id: failed.id }),
    ]);
    const outcomes = [first, second].map((r) => r.data?.resendEmailMessage.data.resent).sort();
    expect(outcomes).toEqual([false, true]);
    await waitFor(() => smtp.to(address).length === 1, "the resent message");
    await waitFor(
      async () =>
        (await harness.db.prisma.emailMessage.findUnique({ where: { id: failed.id } }))?.status === "sent",
      "recorded as sent",
    );
    const again = await gql(RESEND, adminCookie, { id: failed.id });
    expect(again.data?.resendEmailMessage.data).toEqual({
      resent: false,
      message: { id: failed.id, status: "sent" },
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(smtp.to(address)).toHaveLength(1);
    const audits = await harness.db.prisma.auditLog.findMany({ where: { action: "email.resent" } });
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      targetId: String(failed.id),
      before: { status: "failed" },
      after: { status: "queued" },
    });
    const missing = await gql(RESEND, adminCookie, { id: 999_999 });
    expect(missing.data?.resendEmailMessage).toMatchObject({ __typename: "AppError", code: "NOT_FOUND" });
  });

  it("never answers a stack, a path or a database message", () => {
    for (const body of bodies) {
      expect(body).not.toMatch(
        /node_modules|\/work\/|\bat [\w.<>]+ \([^)]*:\d+:\d+\)|prisma\.|Invalid `|SQLSTATE/,
      );
    }
  });
});
