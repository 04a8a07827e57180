-- Demo data (issue 12, /admin/testing, outside production only): the clients the testing tools
-- generate are marked, so that removing demo data removes exactly them (and their appointments,
-- documents and notes) and never a real account. Adding a column with a constant default rewrites
-- nothing.
ALTER TABLE "users" ADD COLUMN "isDemo" BOOLEAN NOT NULL DEFAULT false;
