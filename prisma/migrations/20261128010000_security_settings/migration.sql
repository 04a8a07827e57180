-- Security settings an administrator edits (issue 12): enhanced sign-in for administrators, the
-- minimum password length and the sign-in rate limits, each bounded by the shared schema
-- (schema/validation/security.ts); the defaults are the values the portal had before.
ALTER TABLE "security_settings"
    ADD COLUMN "requireEnhancedForAdmins" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "minPasswordLength" INTEGER NOT NULL DEFAULT 8,
    ADD COLUMN "loginIpAttempts" INTEGER NOT NULL DEFAULT 100,
    ADD COLUMN "loginAccountFreeFailures" INTEGER NOT NULL DEFAULT 5,
    ADD COLUMN "loginAccountMaxDelayMinutes" INTEGER NOT NULL DEFAULT 15;
