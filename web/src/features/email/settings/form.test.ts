import {
  emailSettingsSchema,
  isValidHost,
  EMAIL_SETTINGS_MESSAGES as M,
  smtpConnectionSchema,
} from "@schema/validation/emailSettings";
import { formValuesOf, portValueOf } from "./form";

// The email settings schema the form and the server share (issue 12): hosts, ports, the seeded
// settings as the form starts from them, and what the port field's text becomes.

const messagesOf = (input: unknown) => {
  const result = emailSettingsSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

const SEEDED = {
  smtpHost: null,
  smtpPort: null,
  smtpSecurity: "starttls" as const,
  smtpUser: null,
  fromName: "Receivable Services & Consulting",
  fromAddress: "no-reply@portal.localhost",
  replyTo: null,
  teamAddress: "team@portal.localhost",
  enabled: true,
};

describe("email settings schema", () => {
  it("accepts host names, IPv4 and IPv6 addresses, and nothing else", () => {
    for (const host of [
      "smtp.example.com",
      "mailpit",
      "127.0.0.1",
      "::1",
      "2001:db8::25",
      "a-b.c-d.example",
    ]) {
      expect([host, isValidHost(host)]).toEqual([host, true]);
    }
    for (const host of [
      "not a host",
      "-smtp.example.com",
      "smtp..example.com",
      "smtp.example.com:587",
      "http://x",
      "::g",
    ]) {
      expect([host, isValidHost(host)]).toEqual([host, false]);
    }
  });

  it("takes the seeded settings as the form starts from them, unchanged", () => {
    const parsed = emailSettingsSchema.parse(formValuesOf(SEEDED));
    expect(parsed).toEqual({
      smtpSecurity: "starttls",
      fromName: "Receivable Services & Consulting",
      fromAddress: "no-reply@portal.localhost",
      teamAddress: "team@portal.localhost",
      enabled: true,
    });
  });

  it("says what is wrong, field by field", () => {
    expect(messagesOf({ ...formValuesOf(SEEDED), smtpPort: Number.NaN })).toEqual([
      `smtpPort: ${M.portInvalid}`,
    ]);
    // the rules across fields, once each field is right on its own
    expect(messagesOf({ ...formValuesOf(SEEDED), smtpHost: "", smtpUser: "mailer" })).toEqual([
      `smtpHost: ${M.hostRequired}`,
    ]);
    expect(messagesOf({ ...formValuesOf(SEEDED), smtpHost: "smtp.example.com", smtpPassword: "x" })).toEqual([
      `smtpUser: ${M.passwordNeedsUser}`,
    ]);
    expect(messagesOf({ ...formValuesOf(SEEDED), replyTo: "x@", fromName: "A\nB" })).toEqual([
      `fromName: ${M.lineBreak}`,
      `replyTo: ${M.replyToInvalid}`,
    ]);
    expect(smtpConnectionSchema.safeParse({ smtpSecurity: "ssl" }).error?.issues[0]?.message).toBe(
      M.security,
    );
  });

  it("reads the port field: empty is unset, digits a number, anything else refused", () => {
    expect(portValueOf("")).toBeNull();
    expect(portValueOf(" 587 ")).toBe(587);
    expect(portValueOf("58a")).toBeNaN();
    expect(smtpConnectionSchema.safeParse({ smtpPort: portValueOf("99999") }).error?.issues[0]?.message).toBe(
      M.portInvalid,
    );
  });
});
