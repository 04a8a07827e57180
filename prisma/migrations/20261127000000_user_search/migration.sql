-- User directory (issue 11): search over a million users by parts of username, email, names, company,
-- phone and uniqueId, case- and accent-insensitive (pg_trgm GIN index over one normalized text), and
-- b-tree indexes for the keyset sorts (name, created, last login; ties broken by id) and the facets.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- The text the search compares: without accents (unaccent also turns ’ ‘ ʼ into '), in lower case.
-- IMMUTABLE so that an index may use it: unaccent() is only STABLE because its dictionary could be
-- changed; these functions name the dictionary, and the indexes are rebuilt should it ever change.
-- PL/pgSQL rather than SQL: a SQL function that cannot be inlined (unaccent is STABLE) costs about
-- three times as much per row, and a search that walks a sort index evaluates it for every row read.
CREATE FUNCTION search_normalize(value text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ BEGIN RETURN lower(public.unaccent('public.unaccent'::regdictionary, value)); END $$;

-- One user's searchable text: the seven fields joined by spaces (so "Ada Lovelace" finds first name
-- and last name together), normalized as search_normalize does. COST 1000 tells the planner what a
-- row's evaluation really costs (about 6 µs), so that for text matching a few thousand users it reads
-- the matches through the trigram index instead of walking a sort index and testing every row.
CREATE FUNCTION user_search_text(
  username text, email text, "firstName" text, "lastName" text, "companyName" text, phone text, "uniqueId" text
) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE COST 1000
  AS $$ BEGIN RETURN lower(public.unaccent('public.unaccent'::regdictionary,
    username || ' ' || email || ' ' || "firstName" || ' ' || "lastName" || ' ' || coalesce("companyName", '')
    || ' ' || coalesce(phone, '') || ' ' || "uniqueId")); END $$;

CREATE INDEX "users_search_trgm_idx" ON "users"
  USING gin (user_search_text("username", "email", "firstName", "lastName", "companyName", "phone", "uniqueId") gin_trgm_ops);

-- Finer statistics of the search text, so the planner can tell a rare text (read the matches through
-- the GIN index, then sort them) from a common one (walk the sort's index until a page is full).
ALTER INDEX "users_search_trgm_idx" ALTER COLUMN 1 SET STATISTICS 2000;

-- Sort by name: last name, then first name, compared like the search (Ångström under A, de Vries
-- under D); ties by id.
CREATE INDEX "users_name_sort_idx" ON "users" (search_normalize("lastName"), search_normalize("firstName"), "id");

-- CreateIndex
CREATE INDEX "users_createdAt_id_idx" ON "users"("createdAt", "id");

-- CreateIndex
CREATE INDEX "users_lastLoginAt_id_idx" ON "users"("lastLoginAt", "id");

-- CreateIndex: the facet counts read this index alone
CREATE INDEX "users_facets_idx" ON "users"("userType", "userStatus", "accessLevel", "emailVerified", "esrtSynced");
