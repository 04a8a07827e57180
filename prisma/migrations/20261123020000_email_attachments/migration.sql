-- An email's attachments, stored with it so the sender can deliver (and retry) the message as
-- queued: a JSON array of {filename, contentType, content, encoding?}, null for none. A
-- text/calendar attachment (an appointment's .ics invitation) is sent as the invitation part mail
-- clients offer to accept, with a downloadable copy.
ALTER TABLE "email_messages" ADD COLUMN "attachments" JSONB;
