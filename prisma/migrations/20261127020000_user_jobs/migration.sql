-- Issue 11: invitations (a token kind), bulk changes and client imports as jobs with a result per item.

-- AlterEnum
ALTER TYPE "TokenPurpose" ADD VALUE 'invitation';

-- CreateEnum
CREATE TYPE "UserJobStatus" AS ENUM ('queued', 'running', 'done', 'failed');

-- CreateEnum
CREATE TYPE "UserJobItemOutcome" AS ENUM ('pending', 'changed', 'skipped', 'failed');

-- CreateTable
CREATE TABLE "user_jobs" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "value" TEXT,
    "status" "UserJobStatus" NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "selection" TEXT NOT NULL,
    "error" TEXT,
    "actorId" INTEGER NOT NULL,
    "ip" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),
    "leaseUntil" TIMESTAMPTZ(3),

    CONSTRAINT "user_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_job_items" (
    "jobId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "userId" INTEGER,
    "data" JSONB,
    "outcome" "UserJobItemOutcome" NOT NULL DEFAULT 'pending',
    "message" TEXT,
    "doneAt" TIMESTAMPTZ(3),

    CONSTRAINT "user_job_items_pkey" PRIMARY KEY ("jobId","position")
);

-- CreateIndex
CREATE INDEX "user_jobs_actorId_status_idx" ON "user_jobs"("actorId", "status");

-- CreateIndex
CREATE INDEX "user_jobs_status_createdAt_idx" ON "user_jobs"("status", "createdAt");

-- CreateIndex
CREATE INDEX "user_job_items_jobId_outcome_position_idx" ON "user_job_items"("jobId", "outcome", "position");

-- AddForeignKey
ALTER TABLE "user_job_items" ADD CONSTRAINT "user_job_items_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "user_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
