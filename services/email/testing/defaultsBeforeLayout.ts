// The default templates as the portal stored them before issue 21 (each HTML body inside an
// inline-styled <div> with a footer line; a hand-written text body), for the test of the migration
// that makes them content only (prisma/migrations/20261212000000_email_content_only).

/** One default template before the layout. */
export interface DefaultBeforeLayout {
  key: string;
  subject: string;
  html: string;
  text: string;
}

/** Every default template before the layout, by key. */
export const DEFAULTS_BEFORE_LAYOUT: readonly DefaultBeforeLayout[] = [
  {
    key: "email_verification",
    subject: "Confirm your email for {{productName}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>Please confirm your email address to finish setting up your {{productName}} account.</p><p><a href="{{link}}">Confirm my email</a></p><p>The link is valid for {{expiresInHours}} hours. If you did not create an account, ignore this message.</p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\nPlease confirm your email address to finish setting up your {{productName}} account:\n{{link}}\n\nThe link is valid for {{expiresInHours}} hours. If you did not create an account, ignore this message.",
  },
  {
    key: "password_reset",
    subject: "Reset your {{productName}} password",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>We received a request to reset your password.</p><p><a href="{{link}}">Choose a new password</a></p><p>The link can be used once and expires in {{expiresInMinutes}} minutes. If you did not ask for this, you can ignore this message: your password stays the same.</p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\nWe received a request to reset your password. Choose a new one here:\n{{link}}\n\nThe link can be used once and expires in {{expiresInMinutes}} minutes. If you did not ask for this, you can ignore this message: your password stays the same.",
  },
  {
    key: "user_invitation",
    subject: "You are invited to {{productName}} Portal",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>{{invitedBy}} created a {{productName}} Portal account for you. Your username is <strong>{{username}}</strong>.</p><p><a href="{{link}}">Set my password</a></p><p>The link can be used once and is valid for {{expiresInHours}} hours. Questions? Call us at {{supportPhone}}.</p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\n{{invitedBy}} created a {{productName}} Portal account for you. Your username is {{username}}.\nSet your password here:\n{{link}}\n\nThe link can be used once and is valid for {{expiresInHours}} hours. Questions? Call us at {{supportPhone}}.",
  },
  {
    key: "welcome",
    subject: "Welcome to {{productName}} Portal",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>Welcome to {{productName}} Portal. Your username is <strong>{{username}}</strong>.</p><p><a href="{{link}}">Sign in to the portal</a></p><p>Questions? Call us at {{supportPhone}}.</p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\nWelcome to {{productName}} Portal. Your username is {{username}}.\nSign in: {{link}}\n\nQuestions? Call us at {{supportPhone}}.",
  },
  {
    key: "password_changed",
    subject: "Your {{productName}} password was changed",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>The password of your {{productName}} account was changed on {{changedAt}}.</p><p>If you did this, there is nothing more to do. If you did not, <a href="{{link}}">reset your password</a> now and call us at {{supportPhone}}.</p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\nThe password of your {{productName}} account was changed on {{changedAt}}.\n\nIf you did this, there is nothing more to do. If you did not, reset your password now and call us at {{supportPhone}}:\n{{link}}",
  },
  {
    key: "two_factor_changed",
    subject: "{{summary}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>{{summary}} on {{changedAt}}. {{detail}}</p><p>If you did this, there is nothing more to do. If you did not, <a href="{{link}}">sign in and review your two-factor sign-in</a>, change your password, and call us at {{supportPhone}}.</p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\n{{summary}} on {{changedAt}}. {{detail}}\n\nIf you did this, there is nothing more to do. If you did not, sign in and review your two-factor sign-in, change your password, and call us at {{supportPhone}}:\n{{link}}",
  },
  {
    key: "team_note_notification",
    subject: "New note from {{userName}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>{{userName}} ({{userEmail}}, {{companyName}}) sent a note:</p><blockquote style="border-left:3px solid #abb3bf;margin:0;padding-left:12px">{{notes}}</blockquote><p><a href="{{link}}">Open the user in the admin console</a></p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "{{userName}} ({{userEmail}}, {{companyName}}) sent a note:\n\n{{notes}}\n\nOpen the user: {{link}}",
  },
  {
    key: "team_new_registration",
    subject: "New {{userType}} registration: {{userName}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>{{userName}} ({{userEmail}}) registered as <strong>{{userType}}</strong>.</p><p>Company: {{companyName}}<br>Notes: {{notes}}</p><p><a href="{{link}}">Review the account</a></p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "{{userName}} ({{userEmail}}) registered as {{userType}}.\nCompany: {{companyName}}\nNotes: {{notes}}\n\nReview the account: {{link}}",
  },
  {
    key: "appointment_scheduled",
    subject: "Your consultation request for {{appointmentDate}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>We received your consultation request. It is pending until our team confirms it.</p><p><strong>When:</strong> {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})<br>{{#localTime}}<strong>Your time:</strong> {{localTime}}<br>{{/localTime}}<strong>How:</strong> {{appointmentType}}</p><p><a href="{{link}}">View your appointments</a></p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\nWe received your consultation request. It is pending until our team confirms it.\n\nWhen: {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})\n{{#localTime}}Your time: {{localTime}}\n{{/localTime}}How: {{appointmentType}}\n\nView your appointments: {{link}}",
  },
  {
    key: "appointment_confirmed",
    subject: "Confirmed: your consultation on {{appointmentDate}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>Your consultation is confirmed. The calendar invitation is attached.</p><p><strong>When:</strong> {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})<br>{{#localTime}}<strong>Your time:</strong> {{localTime}}<br>{{/localTime}}<strong>How:</strong> {{appointmentType}}</p><p><a href="{{link}}">View your appointments</a></p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\nYour consultation is confirmed. The calendar invitation is attached.\n\nWhen: {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})\n{{#localTime}}Your time: {{localTime}}\n{{/localTime}}How: {{appointmentType}}\n\nView your appointments: {{link}}",
  },
  {
    key: "appointment_cancelled",
    subject: "Cancelled: your consultation on {{appointmentDate}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>Your consultation has been cancelled.</p><p><strong>When:</strong> {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})<br>{{#localTime}}<strong>Your time:</strong> {{localTime}}<br>{{/localTime}}<strong>How:</strong> {{appointmentType}}</p>{{#cancelReason}}<p><strong>Reason:</strong> {{cancelReason}}</p>{{/cancelReason}}<p><a href="{{link}}">Book another time</a></p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\nYour consultation has been cancelled.\n\nWhen: {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})\n{{#localTime}}Your time: {{localTime}}\n{{/localTime}}How: {{appointmentType}}\n{{#cancelReason}}Reason: {{cancelReason}}\n{{/cancelReason}}\nBook another time: {{link}}",
  },
  {
    key: "appointment_rescheduled",
    subject: "Rescheduled: your consultation is now on {{appointmentDate}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>Your consultation planned for {{previousDate}} at {{previousTime}} has moved.</p><p><strong>When:</strong> {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})<br>{{#localTime}}<strong>Your time:</strong> {{localTime}}<br>{{/localTime}}<strong>How:</strong> {{appointmentType}}</p><p><a href="{{link}}">View your appointments</a></p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\nYour consultation planned for {{previousDate}} at {{previousTime}} has moved.\n\nWhen: {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})\n{{#localTime}}Your time: {{localTime}}\n{{/localTime}}How: {{appointmentType}}\n\nView your appointments: {{link}}",
  },
  {
    key: "appointment_reminder",
    subject: "Reminder: your consultation {{appointmentDay}} at {{appointmentTime}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>This is a reminder of your consultation with our team.</p><p><strong>When:</strong> {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})<br>{{#localTime}}<strong>Your time:</strong> {{localTime}}<br>{{/localTime}}<strong>How:</strong> {{appointmentType}}</p><p><a href="{{link}}">View your appointments</a></p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\nThis is a reminder of your consultation with our team.\n\nWhen: {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})\n{{#localTime}}Your time: {{localTime}}\n{{/localTime}}How: {{appointmentType}}\n\nView your appointments: {{link}}",
  },
  {
    key: "team_appointment_booked",
    subject: "New appointment: {{userName}} on {{appointmentDate}} at {{appointmentTime}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>{{userName}} ({{userEmail}}) booked a consultation.</p><p><strong>When:</strong> {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})<br>{{#localTime}}<strong>Your time:</strong> {{localTime}}<br>{{/localTime}}<strong>How:</strong> {{appointmentType}}</p><p>Notes: {{notes}}</p><p><a href="{{link}}">Confirm or cancel it</a></p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "{{userName}} ({{userEmail}}) booked a consultation.\n\nWhen: {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})\n{{#localTime}}Your time: {{localTime}}\n{{/localTime}}How: {{appointmentType}}\nNotes: {{notes}}\n\nConfirm or cancel it: {{link}}",
  },
  {
    key: "team_document_uploaded",
    subject: "New document from {{userName}}: {{title}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>{{userName}} ({{userEmail}}, {{companyName}}) uploaded a document for review.</p><p><strong>{{title}}</strong><br>File: {{fileName}}</p><p><a href="{{link}}">Open the review queue</a></p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "{{userName}} ({{userEmail}}, {{companyName}}) uploaded a document for review.\n\n{{title}}\nFile: {{fileName}}\n\nOpen the review queue: {{link}}",
  },
  {
    key: "team_document_resubmitted",
    subject: "Resubmitted by {{userName}}: {{title}} (version {{version}})",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>{{userName}} ({{userEmail}}, {{companyName}}) sent a new file for a rejected document. It is pending review again.</p><p><strong>{{title}}</strong><br>File: {{fileName}} (version {{version}})</p><p><a href="{{link}}">Open the review queue</a></p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "{{userName}} ({{userEmail}}, {{companyName}}) sent a new file for a rejected document. It is pending review again.\n\n{{title}}\nFile: {{fileName}} (version {{version}})\n\nOpen the review queue: {{link}}",
  },
  {
    key: "document_approved",
    subject: "Your document was approved: {{title}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>Our team approved your document <strong>{{title}}</strong> ({{fileName}}).</p><p><a href="{{link}}">View your documents</a></p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\nOur team approved your document {{title}} ({{fileName}}).\n\nView your documents: {{link}}",
  },
  {
    key: "document_rejected",
    subject: "Your document needs a new file: {{title}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>Our team could not accept your document <strong>{{title}}</strong> ({{fileName}}).</p><p><strong>Reason:</strong> {{reason}}</p><p>You can send a corrected file from your documents page: it keeps the document\'s history.</p><p><a href="{{link}}">Resubmit the document</a></p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\nOur team could not accept your document {{title}} ({{fileName}}).\n\nReason: {{reason}}\n\nYou can send a corrected file from your documents page: it keeps the document's history.\nResubmit the document: {{link}}",
  },
  {
    key: "document_report",
    subject: "A new report from the team: {{title}}",
    html: '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127"><p>Hello {{firstName}},</p><p>{{uploadedByName}} sent you a report: <strong>{{title}}</strong> ({{fileName}}).</p><p><a href="{{link}}">Open your documents</a></p><p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>',
    text: "Hello {{firstName}},\n\n{{uploadedByName}} sent you a report: {{title}} ({{fileName}}).\n\nOpen your documents: {{link}}",
  },
];
