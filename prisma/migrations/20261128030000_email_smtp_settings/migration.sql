-- Email settings (issue 12): the SMTP server an administrator sets on /admin/email-settings (used
-- when SMTP_URL is not set in the environment), its password sealed (services/shared/sealed.ts,
-- sealSetting), and the Reply-To of every message. No host: messages are kept, marked captured.
CREATE TYPE "SmtpSecurity" AS ENUM ('none', 'starttls', 'tls');

ALTER TABLE "email_settings"
ADD COLUMN "smtpHost" TEXT,
ADD COLUMN "smtpPort" INTEGER,
ADD COLUMN "smtpSecurity" "SmtpSecurity" NOT NULL DEFAULT 'starttls',
ADD COLUMN "smtpUser" TEXT,
ADD COLUMN "smtpPasswordSealed" TEXT,
ADD COLUMN "replyTo" TEXT;
