-- Pro-app sync (issue 10): the esrt-sync service's own tables (latest snapshot per user, webhook
-- endpoints, deliveries and their attempts, API keys, jobs), and the user service's esrtSyncSeq. The
-- placeholder esrt_sync_deliveries table of the first migration never held a row and is replaced.
DROP TABLE "esrt_sync_deliveries";
DROP TYPE "SyncChannel";
DROP TYPE "SyncStatus";

ALTER TABLE "users" ADD COLUMN "esrtSyncSeq" INTEGER NOT NULL DEFAULT 0;

-- CreateEnum
CREATE TYPE "EsrtChannel" AS ENUM ('nats', 'webhook', 'api');

-- CreateEnum
CREATE TYPE "EsrtDeliveryStatus" AS ENUM ('pending', 'sending', 'delivered', 'dead', 'superseded');

-- CreateEnum
CREATE TYPE "EsrtJobStatus" AS ENUM ('queued', 'running', 'done', 'failed');

-- CreateTable
CREATE TABLE "esrt_user_states" (
    "userId" INTEGER NOT NULL,
    "uniqueId" TEXT NOT NULL,
    "snapshot" JSONB NOT NULL,
    "latestVersion" INTEGER NOT NULL,
    "acknowledgedVersion" INTEGER NOT NULL DEFAULT 0,
    "acknowledgedAt" TIMESTAMPTZ(3),
    "acknowledgedVia" "EsrtChannel",
    "seq" INTEGER NOT NULL DEFAULT 1,
    "searchText" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "esrt_user_states_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "esrt_endpoints" (
    "id" SERIAL NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabledReason" TEXT,
    "secretSealed" TEXT NOT NULL,
    "previousSecretSealed" TEXT,
    "previousSecretExpiresAt" TIMESTAMPTZ(3),
    "secretRotatedAt" TIMESTAMPTZ(3),
    "consecutiveFailures" INTEGER NOT NULL DEFAULT 0,
    "failingSince" TIMESTAMPTZ(3),
    "lastSuccessAt" TIMESTAMPTZ(3),
    "lastFailureAt" TIMESTAMPTZ(3),
    "createdById" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "esrt_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "esrt_deliveries" (
    "id" SERIAL NOT NULL,
    "messageId" TEXT NOT NULL,
    "channel" "EsrtChannel" NOT NULL,
    "endpointId" INTEGER,
    "userId" INTEGER,
    "uniqueId" TEXT,
    "version" INTEGER,
    "eventType" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "EsrtDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" TIMESTAMPTZ(3),
    "lastStatusCode" INTEGER,
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMPTZ(3),

    CONSTRAINT "esrt_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "esrt_delivery_attempts" (
    "id" SERIAL NOT NULL,
    "deliveryId" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "statusCode" INTEGER,
    "latencyMs" INTEGER NOT NULL,
    "error" TEXT,
    "responseSnippet" TEXT,

    CONSTRAINT "esrt_delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "esrt_api_keys" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "createdById" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "esrt_api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "esrt_jobs" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "status" "EsrtJobStatus" NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "cursor" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdById" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),
    "leaseUntil" TIMESTAMPTZ(3),

    CONSTRAINT "esrt_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "esrt_user_states_uniqueId_key" ON "esrt_user_states"("uniqueId");

-- CreateIndex
CREATE UNIQUE INDEX "esrt_deliveries_messageId_key" ON "esrt_deliveries"("messageId");

-- CreateIndex
CREATE INDEX "esrt_deliveries_status_nextAttemptAt_idx" ON "esrt_deliveries"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "esrt_deliveries_endpointId_userId_idx" ON "esrt_deliveries"("endpointId", "userId");

-- CreateIndex
CREATE INDEX "esrt_deliveries_userId_idx" ON "esrt_deliveries"("userId");

-- CreateIndex
CREATE INDEX "esrt_deliveries_createdAt_id_idx" ON "esrt_deliveries"("createdAt", "id");

-- CreateIndex
CREATE INDEX "esrt_delivery_attempts_deliveryId_attempt_idx" ON "esrt_delivery_attempts"("deliveryId", "attempt");

-- CreateIndex
CREATE UNIQUE INDEX "esrt_api_keys_keyHash_key" ON "esrt_api_keys"("keyHash");

-- CreateIndex
CREATE INDEX "esrt_jobs_status_createdAt_idx" ON "esrt_jobs"("status", "createdAt");

-- AddForeignKey
ALTER TABLE "esrt_deliveries" ADD CONSTRAINT "esrt_deliveries_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "esrt_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "esrt_delivery_attempts" ADD CONSTRAINT "esrt_delivery_attempts_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "esrt_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- SQL only (see schema.prisma): per user, channel and endpoint at most one delivery waits and at most
-- one is being sent, so a newer version supersedes a waiting older one and versions leave in order.
CREATE UNIQUE INDEX "esrt_deliveries_waiting_key" ON "esrt_deliveries"("channel", COALESCE("endpointId", 0), "userId") WHERE "status" = 'pending' AND "userId" IS NOT NULL;
CREATE UNIQUE INDEX "esrt_deliveries_sending_key" ON "esrt_deliveries"("channel", COALESCE("endpointId", 0), "userId") WHERE "status" = 'sending' AND "userId" IS NOT NULL;

-- Every existing user's current state becomes their first sync snapshot (not yet acknowledged), so
-- "resync all" reaches users made before the sync service existed.
INSERT INTO "esrt_user_states" ("userId", "uniqueId", "snapshot", "latestVersion", "searchText")
SELECT "id", "uniqueId",
       jsonb_build_object(
         'uniqueId', "uniqueId", 'username', "username", 'firstName', "firstName",
         'lastName', "lastName", 'email', "email", 'phone', "phone", 'companyName', "companyName",
         'userType', "userType"::text, 'userStatus', "userStatus"::text,
         'accessLevel', "accessLevel"::text, 'version', "version"),
       "version",
       lower("firstName" || ' ' || "lastName" || ' ' || "username" || ' ' || "email")
FROM "users";
