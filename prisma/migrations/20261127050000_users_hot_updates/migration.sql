-- The facet counts' covering index goes (issue 11): it held accessLevel and esrtSynced, which the
-- Pro-app sync flips on every change of a user (esrtSynced false, then true once acknowledged), so
-- each of those updates could no longer be HOT and rewrote every index of users, the trigram index
-- included: the sync's throughput halved. The facet counts read the table instead.
DROP INDEX "users_facets_idx";

-- Room on each page for a changed row's new version (HOT update), so that changing columns no index
-- holds (version, esrtSynced, accessLevel, updatedAt: every sync round) touches no index of users.
ALTER TABLE "users" SET (fillfactor = 85);
