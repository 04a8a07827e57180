-- Documents end to end (issue 9): sizes in bigint (the largest allowed file, 5 GiB, passes integer),
-- the cloud store's settings, where each document's file is, every version it has had, its history
-- of uploads and decisions, and the tus uploads in progress.
ALTER TABLE "storage_config" ALTER COLUMN "maxFileSize" SET DATA TYPE BIGINT,
ADD COLUMN "cloudEndpoint" TEXT,
ADD COLUMN "cloudRegion" TEXT,
ADD COLUMN "cloudBucket" TEXT,
ADD COLUMN "cloudForcePathStyle" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "cloudAccessKeyId" TEXT,
ADD COLUMN "cloudSecretSealed" TEXT;

ALTER TABLE "documents" ALTER COLUMN "fileSize" SET DATA TYPE BIGINT,
ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN "storageBackend" "StorageType" NOT NULL DEFAULT 'local',
ADD COLUMN "storageKey" TEXT,
ADD COLUMN "mimeType" TEXT,
ADD COLUMN "sha256" TEXT,
ADD COLUMN "uploadedById" INTEGER,
ADD COLUMN "fromTeam" BOOLEAN NOT NULL DEFAULT false;

-- CreateEnum
CREATE TYPE "DocumentAction" AS ENUM ('uploaded', 'resubmitted', 'approved', 'rejected', 'report');

-- CreateEnum
CREATE TYPE "UploadPurpose" AS ENUM ('document', 'resubmission', 'report');

-- CreateTable
CREATE TABLE "document_versions" (
    "id" SERIAL NOT NULL,
    "documentId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "fileName" TEXT NOT NULL,
    "fileType" TEXT NOT NULL,
    "fileSize" BIGINT NOT NULL,
    "mimeType" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "storageBackend" "StorageType" NOT NULL,
    "storageKey" TEXT NOT NULL,
    "uploadedById" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "document_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "document_history" (
    "id" SERIAL NOT NULL,
    "documentId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "action" "DocumentAction" NOT NULL,
    "actorId" INTEGER,
    "actorName" TEXT NOT NULL,
    "reason" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "document_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "uploads" (
    "id" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "purpose" "UploadPurpose" NOT NULL,
    "documentId" INTEGER,
    "clientId" INTEGER,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "fileName" TEXT NOT NULL,
    "fileType" TEXT NOT NULL,
    "declaredSize" BIGINT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "uploads_pkey" PRIMARY KEY ("id")
);

-- DropIndex
DROP INDEX "documents_status_idx";

-- CreateIndex
CREATE INDEX "documents_status_createdAt_idx" ON "documents"("status", "createdAt");

-- CreateIndex
CREATE INDEX "documents_createdAt_idx" ON "documents"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "document_versions_documentId_version_key" ON "document_versions"("documentId", "version");

-- CreateIndex
CREATE INDEX "document_versions_storageKey_idx" ON "document_versions"("storageKey");

-- CreateIndex
CREATE INDEX "document_history_documentId_createdAt_idx" ON "document_history"("documentId", "createdAt");

-- CreateIndex
CREATE INDEX "uploads_expiresAt_idx" ON "uploads"("expiresAt");

-- CreateIndex
CREATE INDEX "uploads_userId_idx" ON "uploads"("userId");

-- AddForeignKey
ALTER TABLE "document_versions" ADD CONSTRAINT "document_versions_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_history" ADD CONSTRAINT "document_history_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
