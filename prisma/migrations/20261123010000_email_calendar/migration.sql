-- An email may carry a calendar invitation (appointments): the iCalendar text, sent both as the
-- text/calendar alternative mail clients offer to accept and as an invite.ics attachment.
ALTER TABLE "email_messages" ADD COLUMN "calendar" TEXT;
