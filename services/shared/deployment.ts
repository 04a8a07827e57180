import type { Db } from "./db";

// The deployment a database belongs to. Its id is random, made once by the migration that created
// the `deployment` table (docs/DECISIONS.md, Backing services): the same database always gives the
// same id, two databases never share one. The default NATS stream, subject prefix and Redis prefix
// derive from it, and the relay stamps it on every envelope it publishes.

/** What the `deployment` row says. */
export interface Deployment {
  /** short random id: lower-case hex */
  id: string;
  /** the database the row was made in */
  databaseName: string;
  /** the database it is read from now; differs from databaseName in a copy of another database */
  currentDatabase: string;
}

interface Row {
  deploymentId: string;
  databaseName: string;
  current: string;
}

const cache = new WeakMap<Db, Promise<Deployment>>();

async function read(db: Db): Promise<Deployment> {
  // The migration inserts the row; this puts it back should someone have deleted it.
  await db.prisma.$executeRaw`
    INSERT INTO deployment (id, "deploymentId", "databaseName")
    VALUES (1, substr(replace(gen_random_uuid()::text, '-', ''), 1, 10), current_database())
    ON CONFLICT (id) DO NOTHING`;
  const [row] = await db.prisma.$queryRaw<Row[]>`
    SELECT "deploymentId", "databaseName", current_database()::text AS current FROM deployment WHERE id = 1`;
  if (!row) throw new Error("the deployment row is missing");
  return { id: row.deploymentId, databaseName: row.databaseName, currentDatabase: row.current };
}

/**
 * This database's deployment (read once per connection, then cached).
 * @throws when the database cannot be read (not migrated, or not answering).
 */
export function deploymentOf(db: Db): Promise<Deployment> {
  let found = cache.get(db);
  if (!found) {
    found = read(db);
    found.catch(() => cache.delete(db));
    cache.set(db, found);
  }
  return found;
}

/** The SQL that gives a copied database an id of its own (printed when a copy is suspected). */
export const NEW_DEPLOYMENT_ID_SQL =
  `UPDATE deployment SET "deploymentId" = substr(replace(gen_random_uuid()::text, '-', ''), 1, 10), ` +
  `"databaseName" = current_database();`;
