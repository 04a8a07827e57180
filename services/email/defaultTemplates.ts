// The default email templates the seed inserts (admins edit them afterwards; a re-seed never
// overwrites an edit). They hold content only: every email is sent in one layout with the logo,
// title and footer from Branding (./emailLayout.ts). Their text bodies are empty: the plain-text part
// is made from the HTML body (a text body an admin writes is used instead).
// Variables are written {{name}}; the variables each template may use:
//   every template      productName, supportPhone, firstName, lastName
//   email_verification  link (verification link), expiresInHours
//   password_reset      link (reset link), expiresInMinutes
//   user_invitation     link (set-password link), expiresInHours, username, invitedBy
//   welcome             link (sign-in link), username
//   password_changed    link (sign-in page, to reset again), changedAt
//   two_factor_changed  summary (what changed), detail (the passkey's name, or empty), changedAt,
//                       link (the two-factor sign-in page)
//   team_*              userName, userEmail, userType, companyName, notes, link (admin page)
//   appointment_*       appointmentDate, appointmentTime, timeZone, localTime (the client's own
//                       zone, when known and not Pacific), appointmentType, notes,
//                       cancelReason (cancelled), previousDate/previousTime (rescheduled), link,
//                       appointmentDay (reminder: "today", "tomorrow" or "on <date>", Pacific)
//   document_*          title, fileName, version, link (the client's /documents); reason (rejected),
//                       decidedBy (approved, rejected), uploadedByName (report)
//   team_document_*     userName, userEmail, companyName, title, fileName, version, link (the review
//                       queue, /admin/documentation)

/** One default template, as stored in email_templates (text "": made from the HTML). */
export interface DefaultEmailTemplate {
  key: string;
  name: string;
  subject: string;
  html: string;
  text: string;
}

const appointmentDetails =
  "<p><strong>When:</strong> {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})<br>" +
  "{{#localTime}}<strong>Your time:</strong> {{localTime}}<br>{{/localTime}}" +
  "<strong>How:</strong> {{appointmentType}}</p>";

/** Every template key the portal sends, with its default wording. */
export const DEFAULT_EMAIL_TEMPLATES: readonly DefaultEmailTemplate[] = [
  {
    key: "email_verification",
    name: "Email verification",
    subject: "Confirm your email for {{productName}}",
    html: '<p>Hello {{firstName}},</p><p>Please confirm your email address to finish setting up your {{productName}} account.</p><p><a href="{{link}}">Confirm my email</a></p><p>The link is valid for {{expiresInHours}} hours. If you did not create an account, ignore this message.</p>',
    text: "",
  },
  {
    key: "password_reset",
    name: "Password reset",
    subject: "Reset your {{productName}} password",
    html: '<p>Hello {{firstName}},</p><p>We received a request to reset your password.</p><p><a href="{{link}}">Choose a new password</a></p><p>The link can be used once and expires in {{expiresInMinutes}} minutes. If you did not ask for this, you can ignore this message: your password stays the same.</p>',
    text: "",
  },
  {
    key: "user_invitation",
    name: "Invitation to a new account",
    subject: "You are invited to {{productName}} Portal",
    html: '<p>Hello {{firstName}},</p><p>{{invitedBy}} created a {{productName}} Portal account for you. Your username is <strong>{{username}}</strong>.</p><p><a href="{{link}}">Set my password</a></p><p>The link can be used once and is valid for {{expiresInHours}} hours. Questions? Call us at {{supportPhone}}.</p>',
    text: "",
  },
  {
    key: "welcome",
    name: "Welcome",
    subject: "Welcome to {{productName}} Portal",
    html: '<p>Hello {{firstName}},</p><p>Welcome to {{productName}} Portal. Your username is <strong>{{username}}</strong>.</p><p><a href="{{link}}">Sign in to the portal</a></p><p>Questions? Call us at {{supportPhone}}.</p>',
    text: "",
  },
  {
    key: "password_changed",
    name: "Password changed",
    subject: "Your {{productName}} password was changed",
    html: '<p>Hello {{firstName}},</p><p>The password of your {{productName}} account was changed on {{changedAt}}.</p><p>If you did this, there is nothing more to do. If you did not, <a href="{{link}}">reset your password</a> now and call us at {{supportPhone}}.</p>',
    text: "",
  },
  {
    key: "two_factor_changed",
    name: "Two-factor sign-in changed",
    subject: "{{summary}}",
    html: '<p>Hello {{firstName}},</p><p>{{summary}} on {{changedAt}}. {{detail}}</p><p>If you did this, there is nothing more to do. If you did not, <a href="{{link}}">sign in and review your two-factor sign-in</a>, change your password, and call us at {{supportPhone}}.</p>',
    text: "",
  },
  {
    key: "team_note_notification",
    name: "Team: new note from a user",
    subject: "New note from {{userName}}",
    html: '<p>{{userName}} ({{userEmail}}, {{companyName}}) sent a note:</p><blockquote style="border-left:3px solid #abb3bf;margin:0;padding-left:12px">{{notes}}</blockquote><p><a href="{{link}}">Open the user in the admin console</a></p>',
    text: "",
  },
  {
    key: "team_new_registration",
    name: "Team: new registration",
    subject: "New {{userType}} registration: {{userName}}",
    html: '<p>{{userName}} ({{userEmail}}) registered as <strong>{{userType}}</strong>.</p><p>Company: {{companyName}}<br>Notes: {{notes}}</p><p><a href="{{link}}">Review the account</a></p>',
    text: "",
  },
  {
    key: "appointment_scheduled",
    name: "Appointment requested",
    subject: "Your consultation request for {{appointmentDate}}",
    html: `<p>Hello {{firstName}},</p><p>We received your consultation request. It is pending until our team confirms it.</p>${appointmentDetails}<p><a href="{{link}}">View your appointments</a></p>`,
    text: "",
  },
  {
    key: "appointment_confirmed",
    name: "Appointment confirmed",
    subject: "Confirmed: your consultation on {{appointmentDate}}",
    html: `<p>Hello {{firstName}},</p><p>Your consultation is confirmed. The calendar invitation is attached.</p>${appointmentDetails}<p><a href="{{link}}">View your appointments</a></p>`,
    text: "",
  },
  {
    key: "appointment_cancelled",
    name: "Appointment cancelled",
    subject: "Cancelled: your consultation on {{appointmentDate}}",
    html: `<p>Hello {{firstName}},</p><p>Your consultation has been cancelled.</p>${appointmentDetails}{{#cancelReason}}<p><strong>Reason:</strong> {{cancelReason}}</p>{{/cancelReason}}<p><a href="{{link}}">Book another time</a></p>`,
    text: "",
  },
  {
    key: "appointment_rescheduled",
    name: "Appointment rescheduled",
    subject: "Rescheduled: your consultation is now on {{appointmentDate}}",
    html: `<p>Hello {{firstName}},</p><p>Your consultation planned for {{previousDate}} at {{previousTime}} has moved.</p>${appointmentDetails}<p><a href="{{link}}">View your appointments</a></p>`,
    text: "",
  },
  {
    key: "appointment_reminder",
    name: "Appointment reminder",
    subject: "Reminder: your consultation {{appointmentDay}} at {{appointmentTime}}",
    html: `<p>Hello {{firstName}},</p><p>This is a reminder of your consultation with our team.</p>${appointmentDetails}<p><a href="{{link}}">View your appointments</a></p>`,
    text: "",
  },
  {
    key: "team_appointment_booked",
    name: "Team: appointment booked",
    subject: "New appointment: {{userName}} on {{appointmentDate}} at {{appointmentTime}}",
    html: `<p>{{userName}} ({{userEmail}}) booked a consultation.</p>${appointmentDetails}<p>Notes: {{notes}}</p><p><a href="{{link}}">Confirm or cancel it</a></p>`,
    text: "",
  },
  {
    key: "team_document_uploaded",
    name: "Team: document uploaded",
    subject: "New document from {{userName}}: {{title}}",
    html: '<p>{{userName}} ({{userEmail}}, {{companyName}}) uploaded a document for review.</p><p><strong>{{title}}</strong><br>File: {{fileName}}</p><p><a href="{{link}}">Open the review queue</a></p>',
    text: "",
  },
  {
    key: "team_document_resubmitted",
    name: "Team: document resubmitted",
    subject: "Resubmitted by {{userName}}: {{title}} (version {{version}})",
    html: '<p>{{userName}} ({{userEmail}}, {{companyName}}) sent a new file for a rejected document. It is pending review again.</p><p><strong>{{title}}</strong><br>File: {{fileName}} (version {{version}})</p><p><a href="{{link}}">Open the review queue</a></p>',
    text: "",
  },
  {
    key: "document_approved",
    name: "Document approved",
    subject: "Your document was approved: {{title}}",
    html: '<p>Hello {{firstName}},</p><p>Our team approved your document <strong>{{title}}</strong> ({{fileName}}).</p><p><a href="{{link}}">View your documents</a></p>',
    text: "",
  },
  {
    key: "document_rejected",
    name: "Document needs a new file",
    subject: "Your document needs a new file: {{title}}",
    html: '<p>Hello {{firstName}},</p><p>Our team could not accept your document <strong>{{title}}</strong> ({{fileName}}).</p><p><strong>Reason:</strong> {{reason}}</p><p>You can send a corrected file from your documents page: it keeps the document\'s history.</p><p><a href="{{link}}">Resubmit the document</a></p>',
    text: "",
  },
  {
    key: "document_report",
    name: "New report from the team",
    subject: "A new report from the team: {{title}}",
    html: '<p>Hello {{firstName}},</p><p>{{uploadedByName}} sent you a report: <strong>{{title}}</strong> ({{fileName}}).</p><p><a href="{{link}}">Open your documents</a></p>',
    text: "",
  },
];
