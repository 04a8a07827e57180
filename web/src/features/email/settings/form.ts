import type {
  EmailSettings,
  EmailSettingsInput,
  SmtpConnection,
  SmtpSecurityName,
} from "@schema/validation/emailSettings";

// The email settings form's values apart from React (issue 12, /admin/email-settings): what the form
// starts from (the stored settings; the password is never sent back, so its field starts empty) and
// the mutations' inputs from the checked values.

/** What the server answers for the settings, as far as the form uses it. */
export interface StoredEmailSettings {
  smtpHost: string | null;
  smtpPort: number | null;
  smtpSecurity: SmtpSecurityName;
  smtpUser: string | null;
  fromName: string;
  fromAddress: string;
  replyTo: string | null;
  teamAddress: string;
  enabled: boolean;
}

/** The form's values: empty strings for unset text, an empty password. */
export function formValuesOf(settings: StoredEmailSettings): EmailSettingsInput {
  return {
    smtpHost: settings.smtpHost ?? "",
    smtpPort: settings.smtpPort,
    smtpSecurity: settings.smtpSecurity,
    smtpUser: settings.smtpUser ?? "",
    smtpPassword: "",
    fromName: settings.fromName,
    fromAddress: settings.fromAddress,
    replyTo: settings.replyTo ?? "",
    teamAddress: settings.teamAddress,
    enabled: settings.enabled,
  };
}

/** The SMTP part of checked values as the connection test's input (no password: the stored one). */
export function connectionInputOf(values: SmtpConnection) {
  return {
    smtpHost: values.smtpHost ?? null,
    smtpPort: values.smtpPort ?? null,
    smtpSecurity: values.smtpSecurity,
    smtpUser: values.smtpUser ?? null,
    ...(values.smtpPassword ? { smtpPassword: values.smtpPassword } : {}),
  };
}

/** The update's input of checked values: unset fields as null, no password when it was left empty. */
export function settingsInputOf(values: EmailSettings) {
  return {
    ...connectionInputOf(values),
    fromName: values.fromName,
    fromAddress: values.fromAddress,
    replyTo: values.replyTo ?? null,
    teamAddress: values.teamAddress,
    enabled: values.enabled,
  };
}

/** The port field's text as the form's value: empty is unset, anything not a whole number is NaN. */
export function portValueOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  return /^\d{1,6}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}
