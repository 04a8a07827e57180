-- Sessions signed in before this instant are refused (a password, status or type change sets it).
ALTER TABLE "users" ADD COLUMN "sessionsValidAfter" TIMESTAMPTZ(3);
