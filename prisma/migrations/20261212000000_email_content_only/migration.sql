-- Email in one branded layout (issue 21 §2): the logo, title and footer come from Branding at
-- render time (services/email/emailLayout.ts) and templates hold content only. Until now each
-- stored HTML body carried its own copy of an inline-styled <div> wrapper with a footer line, and
-- each template a hand-written text body. This migration, on the templates and on every saved
-- version of them (so a restore never brings a wrapper back, and a template's newest version still
-- equals it):
--   * strips the exact old wrapper from an HTML body that has it, whether the body is the old
--     default (it becomes the new content-only default) or an admin's edit (their content is kept
--     as they wrote it); a body without the exact wrapper is left alone;
--   * empties a text body still equal to the old default's: the text part is now made from the HTML
--     body; a text body an admin wrote is kept and still sent (inside the text layout).
-- Who changed a template and when is left as it was: this is the layout moving out of the
-- templates, not an edit.

CREATE TEMPORARY TABLE "email_default_texts_before_layout" (
    "key" TEXT PRIMARY KEY,
    "text" TEXT NOT NULL
) ON COMMIT DROP;

INSERT INTO "email_default_texts_before_layout" ("key", "text") VALUES
  ('email_verification', E'Hello {{firstName}},\n\nPlease confirm your email address to finish setting up your {{productName}} account:\n{{link}}\n\nThe link is valid for {{expiresInHours}} hours. If you did not create an account, ignore this message.'),
  ('password_reset', E'Hello {{firstName}},\n\nWe received a request to reset your password. Choose a new one here:\n{{link}}\n\nThe link can be used once and expires in {{expiresInMinutes}} minutes. If you did not ask for this, you can ignore this message: your password stays the same.'),
  ('user_invitation', E'Hello {{firstName}},\n\n{{invitedBy}} created a {{productName}} Portal account for you. Your username is {{username}}.\nSet your password here:\n{{link}}\n\nThe link can be used once and is valid for {{expiresInHours}} hours. Questions? Call us at {{supportPhone}}.'),
  ('welcome', E'Hello {{firstName}},\n\nWelcome to {{productName}} Portal. Your username is {{username}}.\nSign in: {{link}}\n\nQuestions? Call us at {{supportPhone}}.'),
  ('password_changed', E'Hello {{firstName}},\n\nThe password of your {{productName}} account was changed on {{changedAt}}.\n\nIf you did this, there is nothing more to do. If you did not, reset your password now and call us at {{supportPhone}}:\n{{link}}'),
  ('two_factor_changed', E'Hello {{firstName}},\n\n{{summary}} on {{changedAt}}. {{detail}}\n\nIf you did this, there is nothing more to do. If you did not, sign in and review your two-factor sign-in, change your password, and call us at {{supportPhone}}:\n{{link}}'),
  ('team_note_notification', E'{{userName}} ({{userEmail}}, {{companyName}}) sent a note:\n\n{{notes}}\n\nOpen the user: {{link}}'),
  ('team_new_registration', E'{{userName}} ({{userEmail}}) registered as {{userType}}.\nCompany: {{companyName}}\nNotes: {{notes}}\n\nReview the account: {{link}}'),
  ('appointment_scheduled', E'Hello {{firstName}},\n\nWe received your consultation request. It is pending until our team confirms it.\n\nWhen: {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})\n{{#localTime}}Your time: {{localTime}}\n{{/localTime}}How: {{appointmentType}}\n\nView your appointments: {{link}}'),
  ('appointment_confirmed', E'Hello {{firstName}},\n\nYour consultation is confirmed. The calendar invitation is attached.\n\nWhen: {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})\n{{#localTime}}Your time: {{localTime}}\n{{/localTime}}How: {{appointmentType}}\n\nView your appointments: {{link}}'),
  ('appointment_cancelled', E'Hello {{firstName}},\n\nYour consultation has been cancelled.\n\nWhen: {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})\n{{#localTime}}Your time: {{localTime}}\n{{/localTime}}How: {{appointmentType}}\n{{#cancelReason}}Reason: {{cancelReason}}\n{{/cancelReason}}\nBook another time: {{link}}'),
  ('appointment_rescheduled', E'Hello {{firstName}},\n\nYour consultation planned for {{previousDate}} at {{previousTime}} has moved.\n\nWhen: {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})\n{{#localTime}}Your time: {{localTime}}\n{{/localTime}}How: {{appointmentType}}\n\nView your appointments: {{link}}'),
  ('appointment_reminder', E'Hello {{firstName}},\n\nThis is a reminder of your consultation with our team.\n\nWhen: {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})\n{{#localTime}}Your time: {{localTime}}\n{{/localTime}}How: {{appointmentType}}\n\nView your appointments: {{link}}'),
  ('team_appointment_booked', E'{{userName}} ({{userEmail}}) booked a consultation.\n\nWhen: {{appointmentDate}} at {{appointmentTime}} ({{timeZone}})\n{{#localTime}}Your time: {{localTime}}\n{{/localTime}}How: {{appointmentType}}\nNotes: {{notes}}\n\nConfirm or cancel it: {{link}}'),
  ('team_document_uploaded', E'{{userName}} ({{userEmail}}, {{companyName}}) uploaded a document for review.\n\n{{title}}\nFile: {{fileName}}\n\nOpen the review queue: {{link}}'),
  ('team_document_resubmitted', E'{{userName}} ({{userEmail}}, {{companyName}}) sent a new file for a rejected document. It is pending review again.\n\n{{title}}\nFile: {{fileName}} (version {{version}})\n\nOpen the review queue: {{link}}'),
  ('document_approved', E'Hello {{firstName}},\n\nOur team approved your document {{title}} ({{fileName}}).\n\nView your documents: {{link}}'),
  ('document_rejected', E'Hello {{firstName}},\n\nOur team could not accept your document {{title}} ({{fileName}}).\n\nReason: {{reason}}\n\nYou can send a corrected file from your documents page: it keeps the document\'s history.\nResubmit the document: {{link}}'),
  ('document_report', E'Hello {{firstName}},\n\n{{uploadedByName}} sent you a report: {{title}} ({{fileName}}).\n\nOpen your documents: {{link}}');

-- The body inside the old wrapper, exactly as the defaults wrote it (whitespace around the body is
-- tolerated); the body as it is when it has no such wrapper, or nothing inside it.
CREATE FUNCTION pg_temp.email_content_only(html TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN length(w.body) > length(w.prefix) + length(w.suffix)
      AND left(w.body, length(w.prefix)) = w.prefix
      AND right(w.body, length(w.suffix)) = w.suffix
      AND btrim(substr(w.body, length(w.prefix) + 1, length(w.body) - length(w.prefix) - length(w.suffix)), E' \t\r\n') <> ''
    THEN substr(w.body, length(w.prefix) + 1, length(w.body) - length(w.prefix) - length(w.suffix))
    ELSE html
  END
  FROM (SELECT
    btrim(html, E' \t\r\n') AS body,
    '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127">'::TEXT AS prefix,
    '<p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>'::TEXT AS suffix
  ) AS w
$$;

UPDATE "email_templates" SET "html" = pg_temp.email_content_only("html")
WHERE pg_temp.email_content_only("html") <> "html";

UPDATE "email_template_versions" SET "html" = pg_temp.email_content_only("html")
WHERE pg_temp.email_content_only("html") <> "html";

UPDATE "email_templates" AS t
SET "text" = ''
FROM "email_default_texts_before_layout" AS d
WHERE d."key" = t."key" AND d."text" = t."text";

UPDATE "email_template_versions" AS v
SET "text" = ''
FROM "email_default_texts_before_layout" AS d
WHERE d."key" = v."templateKey" AND d."text" = v."text";

DROP FUNCTION pg_temp.email_content_only(TEXT);
