-- Email templates and the delivery log (issue 12): every saved state of a template is kept as a
-- version (an edit, a revert to the default, a restore of an older version; the state before the
-- first edit is kept too), and the delivery log pages by id and filters by template and time.

-- CreateEnum
CREATE TYPE "EmailTemplateChange" AS ENUM ('original', 'edit', 'revert', 'restore');

-- CreateTable
CREATE TABLE "email_template_versions" (
    "id" SERIAL NOT NULL,
    "templateKey" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "subject" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "change" "EmailTemplateChange" NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,

    CONSTRAINT "email_template_versions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "email_template_versions_templateKey_version_key" ON "email_template_versions"("templateKey", "version");

-- CreateIndex
CREATE INDEX "email_messages_templateKey_id_idx" ON "email_messages"("templateKey", "id");

-- CreateIndex
CREATE INDEX "email_messages_createdAt_idx" ON "email_messages"("createdAt");
