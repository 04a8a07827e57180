-- The deployment this database belongs to: one row holding a random id, made once. The default NATS
-- stream, subject prefix and Redis prefix derive from it, and every event on the bus carries it, so
-- two portals on one NATS and one Redis never see each other's events or sessions.
CREATE TABLE "deployment" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "deploymentId" TEXT NOT NULL,
    "databaseName" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deployment_pkey" PRIMARY KEY ("id")
);

INSERT INTO "deployment" ("id", "deploymentId", "databaseName")
VALUES (1, substr(replace(gen_random_uuid()::text, '-', ''), 1, 10), current_database());
