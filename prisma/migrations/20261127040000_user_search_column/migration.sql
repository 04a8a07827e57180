-- The user's searchable text kept in a column (issue 11): written by a trigger whenever one of the
-- seven searched fields changes, so that a search compares stored text instead of computing
-- user_search_text() for every row it tests (about 6 µs a row: the p95 of a name part's search at a
-- million users). Not in Prisma's client (@ignore): only the database writes it, only searches read it.
ALTER TABLE "users" ADD COLUMN "searchText" TEXT;

CREATE FUNCTION users_search_text() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  NEW."searchText" := user_search_text(NEW."username", NEW."email", NEW."firstName", NEW."lastName",
    NEW."companyName", NEW."phone", NEW."uniqueId");
  RETURN NEW;
END $$;

CREATE TRIGGER users_search_text
  BEFORE INSERT OR UPDATE OF "username", "email", "firstName", "lastName", "companyName", "phone", "uniqueId"
  ON "users" FOR EACH ROW EXECUTE FUNCTION users_search_text();

UPDATE "users" SET "searchText" = user_search_text("username", "email", "firstName", "lastName",
  "companyName", "phone", "uniqueId");

-- the trigram index over the stored text replaces the expression index; the finer statistics follow
DROP INDEX "users_search_trgm_idx";
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ("searchText" gin_trgm_ops);
ALTER TABLE "users" ALTER COLUMN "searchText" SET STATISTICS 2000;
