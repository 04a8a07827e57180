import net from "node:net";
import {
  expectRefusals,
  graphqlClient,
  isolatedAppFixture,
  refusedCallers,
  signedInAs,
} from "@gateway/testing/fixtures";
import { EMAIL_SETTINGS_MESSAGES as M } from "@schema/validation/emailSettings";
import { testEmailConnection } from "@services/email";
import { startTestSmtp, type TestSmtp } from "@services/email/testing";
import { config, setConfig } from "@services/shared/config";
import { freePort } from "@services/shared/net";
import { unsealSetting } from "@services/shared/sealed";

// The email settings fields (issue 12) on a database of their own, with real SMTP servers
// (smtp-server) for "Test connection": one that requires a user name and password and answers a
// wrong one with 535, one that records every AUTH it receives (issue 20: the stored password goes
// only to the saved server), a TCP server that accepts connections and never says a word, and ones
// that answer as another kind of server. The servers are on loopback: CONNECTION_TEST_ALLOW_PRIVATE
// lets the tests reach them, except where the address rule itself is tested.

const PASSWORD = "Smtp-Secret-Pass-9c1e5b7f3a";
const OTHER_PASSWORD = "Another-Smtp-Secret-42x";
let smtp: TestSmtp;
const bodies: string[] = [];

const harness = isolatedAppFixture({
  settings: {
    SMTP_URL: undefined,
    MAIL_FROM: undefined,
    TEAM_EMAIL: undefined,
    CONNECTION_TEST_ALLOW_PRIVATE: true,
  },
  beforeClose: async () => {
    await smtp.stop();
  },
});
beforeAll(async () => {
  smtp = await startTestSmtp({ auth: { user: "mailer", pass: PASSWORD } });
});

const gql = graphqlClient(harness, bodies);

function signIn(userType: "client" | "prospect" | "userAdmin" | "mainAdmin"): Promise<string> {
  return signedInAs(harness, userType, { firstName: "Eve", lastName: `${userType} Mailer` });
}

const FIELDS = `smtpHost smtpPort smtpSecurity smtpUser smtpPasswordSet fromName fromAddress replyTo teamAddress
  enabled mode summary updatedAt updatedBy locks { variable fields value reason }`;
const SETTINGS = `{ emailSettings { ${FIELDS} } }`;
const UPDATE = `mutation ($input: EmailSettingsInput!) { updateEmailSettings(input: $input) {
  __typename
  ... on AppError { code message }
  ... on MutationUpdateEmailSettingsSuccess { data { ${FIELDS} } }
} }`;
const TEST = `mutation ($input: SmtpConnectionInput!) { testEmailConnection(input: $input) {
  __typename
  ... on AppError { code message }
  ... on MutationTestEmailConnectionSuccess { data { ok message responseCode replies latencyMs } }
} }`;

const port = () => Number(new URL(smtp.url).port);

function settingsInput(overrides: Record<string, unknown> = {}) {
  return {
    smtpHost: "127.0.0.1",
    smtpPort: port(),
    smtpSecurity: "none",
    smtpUser: "mailer",
    smtpPassword: PASSWORD,
    fromName: "Firm Mail",
    fromAddress: "mail@firm.test",
    replyTo: "help@firm.test",
    teamAddress: "team@firm.test",
    enabled: true,
    ...overrides,
  };
}

function connectionInput(overrides: Record<string, unknown> = {}) {
  const { smtpHost, smtpPort, smtpSecurity, smtpUser, smtpPassword } = settingsInput();
  return { smtpHost, smtpPort, smtpSecurity, smtpUser, smtpPassword, ...overrides };
}

const auditRows = () =>
  harness.db.prisma.auditLog.findMany({
    where: { action: "email.settings_updated" },
    orderBy: { id: "asc" },
  });

describe("email settings over GraphQL", () => {
  it("refuses the signed out, and users without manageEmails (userAdmin, client, prospect)", async () => {
    const before = await harness.db.prisma.emailSettings.findUnique({ where: { id: 1 } });
    const cases = await refusedCallers(signIn, ["client", "prospect", "userAdmin"]);
    await expectRefusals(gql, cases, [
      [SETTINGS, "emailSettings"],
      [UPDATE, "updateEmailSettings", { input: settingsInput() }],
      [TEST, "testEmailConnection", { input: connectionInput() }],
    ]);
    // nothing was changed or tried by the refused calls
    expect(await auditRows()).toEqual([]);
    expect(await harness.db.prisma.emailSettings.findUnique({ where: { id: 1 } })).toEqual(before);
    expect(smtp.connections).toBe(0);
  });

  it("answers a mainAdmin the seeded settings: no SMTP server, messages captured", async () => {
    const res = await gql(SETTINGS, await signIn("mainAdmin"));
    expect(res.data?.emailSettings).toMatchObject({
      smtpHost: null,
      smtpPasswordSet: false,
      mode: "captured",
      summary: "No SMTP server is set: messages are kept in the portal, marked captured.",
      locks: [],
    });
  });

  it("refuses invalid settings with the shared schema's messages and changes nothing", async () => {
    const admin = await signIn("mainAdmin");
    const cases: [Record<string, unknown>, string][] = [
      [settingsInput({ smtpHost: "not a host" }), M.hostInvalid],
      [settingsInput({ smtpHost: `${"a".repeat(250)}.com` }), M.hostTooLong],
      [settingsInput({ smtpPort: 0 }), M.portInvalid],
      [settingsInput({ smtpPort: 70000 }), M.portInvalid],
      [settingsInput({ smtpHost: null }), M.hostRequired],
      [settingsInput({ smtpUser: null }), M.passwordNeedsUser],
      [settingsInput({ smtpUser: "x".repeat(255) }), M.userTooLong],
      [settingsInput({ smtpPassword: "p".repeat(1025) }), M.passwordTooLong],
      [settingsInput({ smtpPassword: null }), M.passwordRequired],
      [settingsInput({ fromName: "  " }), M.fromNameRequired],
      [settingsInput({ fromName: "n".repeat(101) }), M.fromNameTooLong],
      [settingsInput({ fromName: "Firm\r\nBcc: all@x.test" }), M.lineBreak],
      [settingsInput({ fromAddress: "" }), M.fromAddressRequired],
      [settingsInput({ fromAddress: "not an address" }), M.fromAddressInvalid],
      [settingsInput({ replyTo: "nobody" }), M.replyToInvalid],
      [settingsInput({ teamAddress: "" }), M.teamAddressRequired],
      [settingsInput({ teamAddress: "team@" }), M.teamAddressInvalid],
    ];
    for (const [input, message] of cases) {
      const res = await gql(UPDATE, admin, { input });
      expect([message, res.data?.updateEmailSettings]).toEqual([
        message,
        { __typename: "AppError", code: "VALIDATION_FAILED", message },
      ]);
    }
    // a security GraphQL does not know is refused by GraphQL itself
    const bad = await gql(UPDATE, admin, { input: settingsInput({ smtpSecurity: "ssl" }) });
    expect(bad.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(await auditRows()).toEqual([]);
  });

  it("saves the settings, audits the change without the password, and never returns the password", async () => {
    const admin = await signIn("mainAdmin");
    const saved = await gql(UPDATE, admin, { input: settingsInput() });
    expect(saved.data?.updateEmailSettings).toMatchObject({
      __typename: "MutationUpdateEmailSettingsSuccess",
      data: {
        smtpHost: "127.0.0.1",
        smtpPort: port(),
        smtpSecurity: "none",
        smtpUser: "mailer",
        smtpPasswordSet: true,
        fromName: "Firm Mail",
        fromAddress: "mail@firm.test",
        replyTo: "help@firm.test",
        teamAddress: "team@firm.test",
        enabled: true,
        mode: "settings",
        summary: `Messages are sent through 127.0.0.1:${port()}.`,
        updatedBy: "Eve mainAdmin Mailer",
      },
    });
    const row = await harness.db.prisma.emailSettings.findUniqueOrThrow({ where: { id: 1 } });
    expect(row.smtpPasswordSealed).not.toContain(PASSWORD);
    expect(unsealSetting(row.smtpPasswordSealed ?? "")).toBe(PASSWORD);

    // saved again without a password: the stored one is kept
    const kept = await gql(UPDATE, admin, { input: settingsInput({ smtpPassword: null, fromName: "Firm" }) });
    expect(kept.data?.updateEmailSettings.data).toMatchObject({ fromName: "Firm", smtpPasswordSet: true });
    expect(
      (await harness.db.prisma.emailSettings.findUniqueOrThrow({ where: { id: 1 } })).smtpPasswordSealed,
    ).toBe(row.smtpPasswordSealed);

    const audits = await auditRows();
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({
      targetType: "email_settings",
      targetId: "1",
      before: expect.objectContaining({
        smtpHost: null,
        smtpPasswordSet: false,
        fromName: "Receivable Services & Consulting",
      }),
      after: expect.objectContaining({
        smtpHost: "127.0.0.1",
        smtpUser: "mailer",
        smtpPasswordSet: true,
        replyTo: "help@firm.test",
        fromName: "Firm Mail",
      }),
      metadata: expect.objectContaining({ passwordChanged: true }),
    });
    expect(audits[1]).toMatchObject({
      before: expect.objectContaining({ fromName: "Firm Mail" }),
      after: expect.objectContaining({ fromName: "Firm" }),
      metadata: expect.objectContaining({ passwordChanged: false }),
    });
    const auditText = JSON.stringify(audits);
    expect(auditText).not.toContain(PASSWORD);
    expect(auditText).not.toContain(row.smtpPasswordSealed);

    // clearing the user name clears the password
    const cleared = await gql(UPDATE, admin, {
      input: settingsInput({ smtpUser: null, smtpPassword: null, fromName: "Firm" }),
    });
    expect(cleared.data?.updateEmailSettings.data).toMatchObject({ smtpUser: null, smtpPasswordSet: false });
    expect(
      (await harness.db.prisma.emailSettings.findUniqueOrThrow({ where: { id: 1 } })).smtpPasswordSealed,
    ).toBeNull();

    // no answer ever carried the password or its sealed form
    await gql(SETTINGS, admin);
    expect(bodies.filter((body) => body.includes(PASSWORD))).toEqual([]);
    expect(bodies.filter((body) => body.includes(row.smtpPasswordSealed ?? "-"))).toEqual([]);
  });

  it("tests the connection: in the portal's words, 535 for a wrong password, the stored password when none is typed", async () => {
    const admin = await signIn("mainAdmin");
    const ok = await gql(TEST, admin, { input: connectionInput() });
    expect(ok.data?.testEmailConnection).toEqual({
      __typename: "MutationTestEmailConnectionSuccess",
      data: {
        ok: true,
        responseCode: null,
        message: `Connected to 127.0.0.1:${port()} and signed in`,
        replies: [],
        latencyMs: expect.any(Number),
      },
    });

    // a wrong password: the reply code, in a sentence of the portal's (not the server's text)
    const wrong = await gql(TEST, admin, { input: connectionInput({ smtpPassword: OTHER_PASSWORD }) });
    expect(wrong.data?.testEmailConnection.data).toMatchObject({
      ok: false,
      responseCode: 535,
      message: `The server at 127.0.0.1:${port()} refused the user name or password (535)`,
      replies: [],
    });

    // the stored password, when the form leaves it empty and names the saved server
    await gql(UPDATE, admin, { input: settingsInput() });
    const stored = await gql(TEST, admin, { input: connectionInput({ smtpPassword: null }) });
    expect(stored.data?.testEmailConnection.data).toMatchObject({ ok: true });
    expect(smtp.auths.at(-1)).toEqual({ username: "mailer", password: PASSWORD });

    // nobody listening
    const closed = await freePort();
    const refused = await gql(TEST, admin, { input: connectionInput({ smtpPort: closed }) });
    expect(refused.data?.testEmailConnection.data).toMatchObject({
      ok: false,
      responseCode: null,
      message: `Could not connect to 127.0.0.1:${closed}: connection refused`,
    });

    // no host to test
    const noHost = await gql(TEST, admin, { input: { smtpSecurity: "none" } });
    expect(noHost.data?.testEmailConnection).toEqual({
      __typename: "AppError",
      code: "VALIDATION_FAILED",
      message: "Enter the SMTP host to test",
    });
    expect(bodies.filter((body) => body.includes(PASSWORD) || body.includes(OTHER_PASSWORD))).toEqual([]);
  });

  it("never sends the stored password to a server other than the saved one, nor in plain text where it was saved encrypted", async () => {
    const admin = await signIn("mainAdmin");
    await gql(UPDATE, admin, { input: settingsInput() });
    const recorder = await startTestSmtp({ recordAuth: true });
    const recorderPort = Number(new URL(recorder.url).port);
    try {
      const refused = async (input: Record<string, unknown>, message: string) => {
        const res = await gql(TEST, admin, { input });
        expect([input, res.data?.testEmailConnection]).toEqual([
          input,
          { __typename: "AppError", code: "VALIDATION_FAILED", message },
        ]);
      };
      // another port (a server of the form's choosing), another host name, another user
      await refused(
        connectionInput({ smtpPort: recorderPort, smtpPassword: null }),
        M.storedPasswordOtherServer,
      );
      await refused(
        connectionInput({ smtpHost: "localhost", smtpPort: recorderPort, smtpPassword: null }),
        M.storedPasswordOtherServer,
      );
      await refused(
        connectionInput({ smtpUser: "someone-else", smtpPassword: null }),
        M.storedPasswordOtherServer,
      );
      expect(recorder.connections).toBe(0);
      expect(recorder.auths).toEqual([]);

      // saved with STARTTLS: the same server without encryption may not have it
      await harness.db.prisma.emailSettings.update({ where: { id: 1 }, data: { smtpSecurity: "starttls" } });
      const before = smtp.connections;
      await refused(
        connectionInput({ smtpSecurity: "none", smtpPassword: null }),
        M.storedPasswordUnencrypted,
      );
      expect(smtp.connections).toBe(before);
      await harness.db.prisma.emailSettings.update({ where: { id: 1 }, data: { smtpSecurity: "none" } });

      // a password typed in the form goes where the form says (the administrator's own)
      const typed = await gql(TEST, admin, {
        input: connectionInput({ smtpPort: recorderPort, smtpPassword: OTHER_PASSWORD }),
      });
      expect(typed.data?.testEmailConnection.data).toMatchObject({ ok: false, responseCode: 535 });
      expect(recorder.auths).toEqual([{ username: "mailer", password: OTHER_PASSWORD }]);
    } finally {
      await recorder.stop();
    }
    expect(bodies.filter((body) => body.includes(PASSWORD))).toEqual([]);
  });

  it("refuses loopback, private and metadata addresses when the development switch is off, connecting to none", async () => {
    const admin = await signIn("mainAdmin");
    const original = config();
    setConfig({ ...original, CONNECTION_TEST_ALLOW_PRIVATE: false });
    const before = smtp.connections;
    try {
      for (const smtpHost of [
        "127.0.0.1",
        "localhost",
        "10.0.0.25",
        "192.168.1.10",
        "169.254.169.254",
        "::1",
        "::ffff:7f00:1",
        "::7f00:1",
        "fd00::25",
      ]) {
        const res = await gql(TEST, admin, {
          input: connectionInput({ smtpHost, smtpPassword: OTHER_PASSWORD }),
        });
        expect([smtpHost, res.data?.testEmailConnection]).toEqual([
          smtpHost,
          { __typename: "AppError", code: "VALIDATION_FAILED", message: M.privateHost },
        ]);
      }
    } finally {
      setConfig(original);
    }
    expect(smtp.connections).toBe(before);
  });

  it("answers a server of another kind, or one that refuses, in fixed sentences without its words", async () => {
    const banners = [
      // an SSH server found on a port scan
      "SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3 internal-build-host\r\n",
      // an SMTP server whose greeting names the inside of a network, and refuses
      "554 5.7.1 mx-internal.corp.example.net ESMTP Postfix: no service for you\r\n",
    ];
    const results: string[] = [];
    for (const banner of banners) {
      const sockets = new Set<net.Socket>();
      const talker = net.createServer((socket) => {
        sockets.add(socket);
        socket.on("error", () => undefined);
        socket.write(banner);
      });
      const talkerPort = await freePort();
      await new Promise<void>((resolve) => talker.listen(talkerPort, "127.0.0.1", resolve));
      try {
        const result = await testEmailConnection({
          db: harness.db,
          input: { smtpHost: "127.0.0.1", smtpPort: talkerPort, smtpSecurity: "none" },
          timeoutMs: 1500,
        });
        expect(result.ok).toBe(false);
        results.push(result.message.replace(String(talkerPort), "PORT"));
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => talker.close(() => resolve()));
      }
    }
    expect(results).toEqual([
      "Could not connect to 127.0.0.1:PORT: it did not answer as an SMTP server",
      "The server at 127.0.0.1:PORT refused the test (554)",
    ]);
    expect(results.join(" ")).not.toMatch(/OpenSSH|internal|corp|Postfix/);
  });

  it("gives up on a server that accepts the connection and never answers, within the timeout", async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    const silentPort = await freePort();
    await new Promise<void>((resolve) => silent.listen(silentPort, "127.0.0.1", resolve));
    try {
      const started = Date.now();
      const result = await testEmailConnection({
        db: harness.db,
        input: { smtpHost: "127.0.0.1", smtpPort: silentPort, smtpSecurity: "none" },
        timeoutMs: 800,
      });
      expect(result).toMatchObject({
        ok: false,
        message: `Could not connect to 127.0.0.1:${silentPort}: no greeting within 0.8 s`,
      });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("shows what the environment sets as locked, and keeps the stored values of those fields", async () => {
    const admin = await signIn("mainAdmin");
    const original = config();
    setConfig({
      ...original,
      SMTP_URL: `smtp://envuser:${OTHER_PASSWORD}@127.0.0.1:${port()}`,
      MAIL_FROM: "Env Sender <env@firm.test>",
      TEAM_EMAIL: "env-team@firm.test",
    });
    try {
      const stored = await harness.db.prisma.emailSettings.findUniqueOrThrow({ where: { id: 1 } });
      const res = await gql(SETTINGS, admin);
      // the stored settings (the form edits them), where messages go now, and what the environment sets
      expect(res.data?.emailSettings).toMatchObject({
        smtpHost: stored.smtpHost,
        fromName: stored.fromName,
        teamAddress: stored.teamAddress,
        mode: "environment",
        summary: `Messages are sent through 127.0.0.1:${port()} (SMTP_URL).`,
      });
      expect(res.data?.emailSettings.locks).toEqual([
        {
          variable: "SMTP_URL",
          fields: ["smtpHost", "smtpPort", "smtpSecurity", "smtpUser", "smtpPassword"],
          value: `smtp://envuser@127.0.0.1:${port()}`,
          reason: "Set by SMTP_URL in the environment: change it there and restart the portal to change it",
        },
        {
          variable: "MAIL_FROM",
          fields: ["fromName", "fromAddress"],
          value: "Env Sender <env@firm.test>",
          reason: "Set by MAIL_FROM in the environment: change it there and restart the portal to change it",
        },
        {
          variable: "TEAM_EMAIL",
          fields: ["teamAddress"],
          value: "env-team@firm.test",
          reason: "Set by TEAM_EMAIL in the environment: change it there and restart the portal to change it",
        },
      ]);
      const before = await harness.db.prisma.emailSettings.findUniqueOrThrow({ where: { id: 1 } });
      const saved = await gql(UPDATE, admin, {
        input: settingsInput({
          smtpHost: "smtp.other.test",
          fromName: "Typed",
          teamAddress: "typed@firm.test",
          replyTo: "r@firm.test",
        }),
      });
      expect(saved.data?.updateEmailSettings.__typename).toBe("MutationUpdateEmailSettingsSuccess");
      const after = await harness.db.prisma.emailSettings.findUniqueOrThrow({ where: { id: 1 } });
      expect(after).toMatchObject({
        smtpHost: before.smtpHost,
        smtpPasswordSealed: before.smtpPasswordSealed,
        fromName: before.fromName,
        teamAddress: before.teamAddress,
        replyTo: "r@firm.test",
      });
      // "Test connection" tests SMTP_URL: its user is not the server's, so the server refuses it
      const tested = await gql(TEST, admin, { input: connectionInput() });
      expect(tested.data?.testEmailConnection.data).toMatchObject({ ok: false, responseCode: 535 });
    } finally {
      setConfig(original);
    }
    expect(bodies.filter((body) => body.includes(OTHER_PASSWORD))).toEqual([]);
  });
});
