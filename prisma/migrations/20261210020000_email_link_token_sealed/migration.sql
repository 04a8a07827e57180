-- One-time links at rest (issue 20): a message that carries a verification, reset or invitation link
-- is stored with the link's token replaced by "redacted" and the token itself sealed beside it
-- (services/shared/sealed.ts, sealSetting); the sender puts it back into the link as it sends, and
-- the sealed token is dropped once the message is sent, captured or failed. "oneTimeLink" keeps that
-- the message carried one (a failed one cannot be resent with its link).
ALTER TABLE "email_messages"
ADD COLUMN "linkTokenSealed" TEXT,
ADD COLUMN "oneTimeLink" BOOLEAN NOT NULL DEFAULT false;

-- Messages stored before: the captured and failed ones kept their live links for good. Their tokens
-- are redacted as a sent message's are (queued ones are sent, and redacted then, as before).
UPDATE "email_messages"
SET "html" = regexp_replace("html", '([?&](?:amp;)?token(?:=|&#x3D;))[^"''&[:space:]<>]+', '\1redacted', 'gi'),
    "text" = regexp_replace("text", '([?&](?:amp;)?token(?:=|&#x3D;))[^"''&[:space:]<>]+', '\1redacted', 'gi'),
    "oneTimeLink" = "templateKey" IN ('email_verification', 'password_reset', 'user_invitation')
WHERE "status" IN ('captured', 'failed');
