-- Uploads in progress across gateways (issue 22): with cloud storage configured, an upload's bytes
-- are staged in the cloud store (under uploads/<id>/), so a PATCH that reaches another gateway
-- continues it. Each upload records where it is staged, chosen at its creation, so that a change of
-- the storage setting midway neither strands it nor sends its next PATCH to the wrong place.
ALTER TABLE "uploads" ADD COLUMN "stagedIn" "StorageType" NOT NULL DEFAULT 'local';
