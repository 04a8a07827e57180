import { DEFAULT_EMAIL_TEMPLATES } from "./defaultTemplates";
import type { EmailVariables } from "./renderEmail";

// The variables each email template is offered (issue 12): one catalog per template key, with a
// description for the editor and a sample value for previews and test sends. It is the contract
// between the consumers that queue the emails and the admins who edit the templates: queueEmail
// refuses a variable the catalog does not list for the key, and a template that uses one is refused
// at save (templateRules.ts). templateCatalog.test.ts checks it against the default templates.

/** One variable a template may use. */
export interface TemplateVariable {
  name: string;
  description: string;
  /** the value previews and test sends use */
  sample: string;
}

type VariableSpec = readonly [description: string, sample: string];

const V = {
  productName: ["The portal's title, from Branding", "ESRT"],
  supportPhone: ["The support phone, from Branding", "(555) 010-2030"],
  firstName: ["The recipient's first name", "Maria"],
  lastName: ["The recipient's last name", "Lopez"],
  userFirstName: ["The user's first name", "Maria"],
  userLastName: ["The user's last name", "Lopez"],
  userName: ["The user's full name", "Maria Lopez"],
  userEmail: ["The user's email address", "maria.lopez@example.com"],
  companyName: ["The user's company (— when none)", "Lopez Trading LLC"],
  userType: ["What the user registered as", "Client"],
  registrationNotes: ["The notes given at registration (— when none)", "Please call me in the morning."],
  noteText: ["The note the user sent", "Can we talk about the March invoices?"],
  username: ["The account's username", "mlopez"],
  invitedBy: ["The name of the admin who created the account", "Ada Admin"],
  verifyLink: ["The verification link", "https://portal.example.com/verify-email?token=sample"],
  resetLink: ["The password reset link", "https://portal.example.com/reset-password?token=sample"],
  setPasswordLink: ["The set-password link", "https://portal.example.com/set-password?token=sample"],
  signInLink: ["The sign-in page", "https://portal.example.com/auth"],
  adminUsersLink: ["The admin's user management page", "https://portal.example.com/admin/user-management"],
  expiresInHours: ["How many hours the link stays valid", "24"],
  expiresInMinutes: ["How many minutes the link stays valid", "60"],
  changedAt: ["When the password was changed", "November 26, 2026 at 9:15 AM PST"],
  twoFactorSummary: ["What changed, as a sentence", "A new passkey was added to your account"],
  twoFactorDetail: ["More about it (the passkey's name; empty when none)", 'The passkey is named "MacBook".'],
  twoFactorChangedAt: ["When it changed", "November 26, 2026 at 9:15 AM PST"],
  twoFactorLink: ["The user's two-factor sign-in page", "https://portal.example.com/two-factor"],
  appointmentDate: ["The day, Pacific time", "Tuesday, December 1, 2026"],
  appointmentTime: ["The time, Pacific time", "10:30 AM"],
  timeZone: ["The time zone of the date and time", "Pacific time, PST"],
  localTime: [
    "The time in the client's own zone (empty when it is Pacific or unknown)",
    "Tuesday, December 1, 2026 at 1:30 PM (America/New_York)",
  ],
  appointmentType: ["How the consultation happens", "Phone call"],
  appointmentNotes: ["The notes given with the booking (— when none)", "About the overdue accounts"],
  appointmentsLink: ["The client's dashboard", "https://portal.example.com/dashboard"],
  adminAppointmentsLink: ["The admin's appointments page", "https://portal.example.com/admin/appointments"],
  cancelReason: ["Why it was cancelled (empty when no reason was given)", "The team is unavailable that day"],
  appointmentDay: ["today, tomorrow or on <date> (Pacific time)", "tomorrow"],
  previousDate: ["The day it was planned for", "Monday, November 30, 2026"],
  previousTime: ["The time it was planned for", "2:00 PM"],
  title: ["The document's title", "2026 Q3 statements"],
  fileName: ["The file's name", "q3-statements.pdf"],
  version: ["The file's version number", "2"],
  documentsLink: ["The client's documents page", "https://portal.example.com/documents"],
  reviewLink: ["The team's review queue", "https://portal.example.com/admin/documentation"],
  decidedBy: ["The name of the admin who decided", "Ada Admin"],
  reason: ["Why the document was rejected", "Page 2 is missing"],
  uploadedByName: ["Who sent the document", "Ada Admin"],
} as const satisfies Record<string, VariableSpec>;

type SpecName = keyof typeof V;

/** [variable, spec] pairs; a variable's name is the first item, its meaning the spec's. */
type Entry = readonly [name: string, spec: SpecName];

const always: Entry[] = [
  ["productName", "productName"],
  ["supportPhone", "supportPhone"],
];
const recipient: Entry[] = [
  ["firstName", "firstName"],
  ["lastName", "lastName"],
];
const aboutUser: Entry[] = [
  ["firstName", "userFirstName"],
  ["lastName", "userLastName"],
  ["userName", "userName"],
  ["userEmail", "userEmail"],
];
const appointment: Entry[] = [
  ...recipient,
  ["appointmentDate", "appointmentDate"],
  ["appointmentTime", "appointmentTime"],
  ["timeZone", "timeZone"],
  ["localTime", "localTime"],
  ["appointmentType", "appointmentType"],
  ["notes", "appointmentNotes"],
  ["link", "appointmentsLink"],
];
const document: Entry[] = [
  ...recipient,
  ["title", "title"],
  ["fileName", "fileName"],
  ["version", "version"],
  ["link", "documentsLink"],
];
const teamDocument: Entry[] = [
  ...document.filter(([name]) => name !== "link"),
  ["userName", "userName"],
  ["userEmail", "userEmail"],
  ["companyName", "companyName"],
  ["link", "reviewLink"],
];

const ENTRIES: Record<string, Entry[]> = {
  email_verification: [...recipient, ["link", "verifyLink"], ["expiresInHours", "expiresInHours"]],
  password_reset: [
    ["firstName", "firstName"],
    ["link", "resetLink"],
    ["expiresInMinutes", "expiresInMinutes"],
  ],
  user_invitation: [
    ...recipient,
    ["username", "username"],
    ["invitedBy", "invitedBy"],
    ["link", "setPasswordLink"],
    ["expiresInHours", "expiresInHours"],
  ],
  welcome: [...recipient, ["username", "username"], ["link", "signInLink"]],
  password_changed: [
    ["firstName", "firstName"],
    ["changedAt", "changedAt"],
    ["link", "signInLink"],
  ],
  two_factor_changed: [
    ["firstName", "firstName"],
    ["summary", "twoFactorSummary"],
    ["detail", "twoFactorDetail"],
    ["changedAt", "twoFactorChangedAt"],
    ["link", "twoFactorLink"],
  ],
  team_note_notification: [
    ...aboutUser,
    ["companyName", "companyName"],
    ["notes", "noteText"],
    ["link", "adminUsersLink"],
  ],
  team_new_registration: [
    ...aboutUser,
    ["userType", "userType"],
    ["companyName", "companyName"],
    ["notes", "registrationNotes"],
    ["link", "adminUsersLink"],
  ],
  appointment_scheduled: appointment,
  appointment_confirmed: appointment,
  appointment_cancelled: [...appointment, ["cancelReason", "cancelReason"]],
  appointment_rescheduled: [
    ...appointment,
    ["previousDate", "previousDate"],
    ["previousTime", "previousTime"],
  ],
  appointment_reminder: [...appointment, ["appointmentDay", "appointmentDay"]],
  team_appointment_booked: [
    ...appointment.filter(([name]) => name !== "link"),
    ["userName", "userName"],
    ["userEmail", "userEmail"],
    ["link", "adminAppointmentsLink"],
  ],
  team_document_uploaded: [...teamDocument, ["uploadedByName", "uploadedByName"]],
  team_document_resubmitted: teamDocument,
  document_approved: [...document, ["decidedBy", "decidedBy"]],
  document_rejected: [...document, ["decidedBy", "decidedBy"], ["reason", "reason"]],
  document_report: [...document, ["uploadedByName", "uploadedByName"]],
};

function variablesOf(entries: Entry[]): TemplateVariable[] {
  return [...always, ...entries].map(([name, spec]) => ({
    name,
    description: V[spec][0],
    sample: V[spec][1],
  }));
}

/** The catalog: each template key the portal sends, with the variables it is offered, in order. */
export const TEMPLATE_CATALOG: ReadonlyMap<string, readonly TemplateVariable[]> = new Map(
  DEFAULT_EMAIL_TEMPLATES.map((template) => {
    const entries = ENTRIES[template.key];
    if (!entries) throw new Error(`email template "${template.key}" has no variable catalog`);
    return [template.key, variablesOf(entries)];
  }),
);

/** The variables `key` is offered, or undefined for a key the portal does not send. */
export function templateVariables(key: string): readonly TemplateVariable[] | undefined {
  return TEMPLATE_CATALOG.get(key);
}

/** The sample values of `key`'s variables (previews and test sends). @throws Error for an unknown key. */
export function sampleVariables(key: string): EmailVariables {
  const variables = TEMPLATE_CATALOG.get(key);
  if (!variables) throw new Error(`email template "${key}" does not exist`);
  return Object.fromEntries(variables.map((v) => [v.name, v.sample]));
}

/**
 * Checks that every variable a sender passes for `key` is in the catalog (an undeclared one could
 * never be offered to the template's editors).
 * @throws Error naming the first variable the catalog does not list, or the unknown key.
 */
export function assertCatalogued(key: string, names: Iterable<string>): void {
  const variables = TEMPLATE_CATALOG.get(key);
  if (!variables) throw new Error(`email template "${key}" does not exist`);
  const known = new Set(variables.map((v) => v.name));
  for (const name of names) {
    if (!known.has(name)) {
      throw new Error(
        `email template "${key}" is not offered the variable "${name}": add it to services/email/templateCatalog.ts`,
      );
    }
  }
}
