import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "pg";
import { ensureEngineStandIn } from "./prisma-generate";

// Compares schema.prisma, as Prisma itself reads it (its DMMF datamodel), with a migrated
// PostgreSQL database's catalog. Used by schemaDrift.test.ts; every difference is one line.

const ROOT = path.resolve(__dirname, "..");
const SCHEMA = path.join(__dirname, "..", "prisma", "schema.prisma");

type DefaultValue = string | number | boolean | DefaultValue[] | { name: string; args: unknown[] };

/** A field of Prisma's DMMF datamodel (the parts the drift check reads). */
export interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "enum" | "object" | "unsupported";
  isList: boolean;
  isRequired: boolean;
  isId: boolean;
  isUnique: boolean;
  type: string;
  nativeType?: [string, string[]] | null;
  default?: DefaultValue;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}

/** A model of Prisma's DMMF datamodel. */
export interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
  primaryKey: { name: string | null; fields: string[] } | null;
}

/** An index (id, unique or normal) of Prisma's DMMF datamodel. */
export interface DmmfIndex {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  dbName?: string | null;
  fields: { name: string }[];
}

/** Prisma's DMMF datamodel. */
export interface Datamodel {
  models: DmmfModel[];
  enums: { name: string; dbName: string | null; values: { name: string; dbName: string | null }[] }[];
  indexes: DmmfIndex[];
}

/** Objects the migration creates in SQL because Prisma cannot express them (see schema.prisma). */
export const SQL_ONLY = {
  /** columns Prisma's client leaves out (@ignore in schema.prisma), written by the database itself */
  columns: {
    "users.searchText": { type: "text", notnull: false },
    "users.lastNameKey": { type: "text", notnull: false },
    "users.firstNameKey": { type: "text", notnull: false },
  } as Record<string, { type: string; notnull: boolean }>,
  indexes: {
    users_username_lower_key: { table: "users", definition: /UNIQUE INDEX .* \(lower\(username\)\)$/ },
    users_email_lower_key: { table: "users", definition: /UNIQUE INDEX .* \(lower\(email\)\)$/ },
    users_search_trgm_idx: {
      table: "users",
      definition: /INDEX .* USING gin \("searchText" gin_trgm_ops\)$/,
    },
    users_name_sort_idx: {
      table: "users",
      definition: /INDEX .* USING btree \("lastNameKey", "firstNameKey", id\)$/,
    },
    appointments_live_slot_key: {
      table: "appointments",
      definition:
        /UNIQUE INDEX .* \("dateTime", seat\) WHERE \(status <> 'cancelled'::"AppointmentStatus"\)$/,
    },
    esrt_deliveries_waiting_key: {
      table: "esrt_deliveries",
      definition:
        /UNIQUE INDEX .* \(channel, COALESCE\("endpointId", 0\), "userId"\) WHERE \(\(status = 'pending'::"EsrtDeliveryStatus"\) AND \("userId" IS NOT NULL\)\)$/,
    },
    esrt_deliveries_sending_key: {
      table: "esrt_deliveries",
      definition:
        /UNIQUE INDEX .* \(channel, COALESCE\("endpointId", 0\), "userId"\) WHERE \(\(status = 'sending'::"EsrtDeliveryStatus"\) AND \("userId" IS NOT NULL\)\)$/,
    },
    audit_logs_action_prefix_idx: {
      table: "audit_logs",
      definition: /INDEX .* \(action text_pattern_ops, "createdAt"\)$/,
    },
  },
  triggers: {
    users_search_text: {
      table: "users",
      definition:
        /BEFORE INSERT OR UPDATE OF username, email, "firstName", "lastName", "companyName", phone, "uniqueId" ON public\.users FOR EACH ROW EXECUTE FUNCTION users_search_text\(\)$/,
    },
    outbox_events_notify: {
      table: "outbox_events",
      definition:
        /AFTER INSERT ON public\.outbox_events FOR EACH ROW EXECUTE FUNCTION outbox_events_notify\(\)$/,
    },
  },
  functions: {
    users_search_text:
      /NEW\."searchText" := user_search_text\([\s\S]*NEW\."lastNameKey" := search_normalize\(NEW\."lastName"\);\s+NEW\."firstNameKey" := search_normalize\(NEW\."firstName"\)/,
    outbox_events_notify: /pg_notify\('outbox_events', NEW\.id::text\)/,
    search_normalize: /lower\(public\.unaccent\('public\.unaccent'::regdictionary, value\)\)/,
    user_search_text:
      /lower\(public\.unaccent\('public\.unaccent'::regdictionary,\s+username \|\| ' ' \|\| email/,
  },
} as const;

/**
 * Reads schema.prisma through `prisma generate` with a one-off generator that dumps the DMMF.
 * @throws when prisma cannot parse the schema (its message is included).
 */
export function loadDatamodel(schemaPath: string = SCHEMA): Datamodel {
  const dir = mkdtempSync(path.join(tmpdir(), "portal-dmmf-"));
  try {
    const output = path.join(dir, "datamodel.json");
    const generator = [
      process.execPath,
      "--require",
      require.resolve("tsx/cjs"),
      path.join(__dirname, "dmmfGenerator.ts"),
    ].join(" ");
    const schema = readFileSync(schemaPath, "utf8").replace(/^generator \w+ \{[^}]*\}\n/gm, "");
    const tmpSchema = path.join(dir, "schema.prisma");
    writeFileSync(
      tmpSchema,
      `generator dmmf {\n  provider = ${JSON.stringify(generator)}\n  output = ${JSON.stringify(output)}\n}\n${schema}`,
    );
    const result = spawnSync(
      process.execPath,
      [path.join(ROOT, "node_modules", "prisma", "build", "index.js"), "generate", "--schema", tmpSchema],
      {
        cwd: ROOT,
        encoding: "utf8",
        env: {
          ...process.env,
          PRISMA_SCHEMA_ENGINE_BINARY: ensureEngineStandIn(),
          PRISMA_HIDE_UPDATE_MESSAGE: "1",
          CHECKPOINT_DISABLE: "1",
        },
      },
    );
    if (result.status !== 0) throw new Error(`prisma generate failed:\n${result.stdout}\n${result.stderr}`);
    return JSON.parse(readFileSync(output, "utf8")) as Datamodel;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface ColumnRow {
  table: string;
  column: string;
  type: string;
  notnull: boolean;
  default: string | null;
}
interface IndexRow {
  table: string;
  name: string;
  unique: boolean;
  primary: boolean;
  columns: (string | null)[];
  partial: boolean;
  definition: string;
}
interface ForeignKeyRow {
  table: string;
  name: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
  onDelete: string;
  onUpdate: string;
}

function quoteIfNeeded(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

const PG_ACTION: Record<string, string> = {
  a: "NoAction",
  r: "Restrict",
  c: "Cascade",
  n: "SetNull",
  d: "SetDefault",
};

function expectedType(field: DmmfField, enumDbNames: Map<string, string>): string {
  let base: string;
  const native = field.nativeType?.[0];
  const args = field.nativeType?.[1] ?? [];
  if (field.kind === "enum") base = quoteIfNeeded(enumDbNames.get(field.type) ?? field.type);
  else if (native === "Uuid") base = "uuid";
  else if (native === "Timestamptz") base = `timestamp(${args[0] ?? 3}) with time zone`;
  else if (native === "Timestamp") base = `timestamp(${args[0] ?? 3}) without time zone`;
  else if (native === "VarChar") base = args[0] ? `character varying(${args[0]})` : "character varying";
  else if (native) base = native.toLowerCase();
  else {
    const byType: Record<string, string> = {
      String: "text",
      Int: "integer",
      BigInt: "bigint",
      Float: "double precision",
      Decimal: "numeric(65,30)",
      Boolean: "boolean",
      DateTime: "timestamp(3) without time zone",
      Json: "jsonb",
      Bytes: "bytea",
    };
    base = byType[field.type] ?? `unknown Prisma type ${field.type}`;
  }
  return field.isList ? `${base}[]` : base;
}

function columnName(field: DmmfField): string {
  return field.dbName ?? field.name;
}

function list(values: readonly (string | null)[]): string {
  return `(${values.map((v) => v ?? "<expression>").join(", ")})`;
}

async function readCatalog(client: Client) {
  const tables = (
    await client.query<{ table: string }>(
      `SELECT c.relname AS "table" FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`,
    )
  ).rows.map((r) => r.table);
  const columns = (
    await client.query<ColumnRow>(
      `SELECT c.relname AS "table", a.attname AS "column", format_type(a.atttypid, a.atttypmod) AS type,
              a.attnotnull AS notnull, pg_get_expr(d.adbin, d.adrelid) AS "default"
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`,
    )
  ).rows;
  const enums = (
    await client.query<{ name: string; values: string[] }>(
      `SELECT t.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS "values"
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
       WHERE n.nspname = 'public' GROUP BY t.typname`,
    )
  ).rows;
  const indexes = (
    await client.query<IndexRow>(
      `SELECT t.relname AS "table", i.relname AS name, x.indisunique AS "unique", x.indisprimary AS "primary",
              ARRAY(SELECT a.attname FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                    LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
                    ORDER BY k.ord)::text[] AS columns,
              x.indpred IS NOT NULL AS partial, pg_get_indexdef(x.indexrelid) AS definition
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'`,
    )
  ).rows;
  const foreignKeys = (
    await client.query<ForeignKeyRow>(
      `SELECT t.relname AS "table", c.conname AS name,
              ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns,
              r.relname AS "refTable",
              ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS "refColumns",
              c.confdeltype AS "onDelete", c.confupdtype AS "onUpdate"
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public' AND c.contype = 'f'`,
    )
  ).rows;
  const otherConstraints = (
    await client.query<{ table: string; name: string; type: string }>(
      `SELECT t.relname AS "table", c.conname AS name, c.contype AS type
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
       WHERE n.nspname = 'public' AND c.contype NOT IN ('f', 'p', 'u')`,
    )
  ).rows;
  const triggers = (
    await client.query<{ table: string; name: string; definition: string }>(
      `SELECT c.relname AS "table", g.tgname AS name, pg_get_triggerdef(g.oid) AS definition
       FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND NOT g.tgisinternal`,
    )
  ).rows;
  const functions = (
    await client.query<{ name: string; source: string }>(
      `SELECT p.proname AS name, p.prosrc AS source FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname = 'public'
         AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid
                         AND d.deptype = 'e')`,
    )
  ).rows;
  return { tables, columns, enums, indexes, foreignKeys, otherConstraints, triggers, functions };
}

async function checkDefault(
  client: Client,
  where: string,
  table: string,
  field: DmmfField,
  actual: string | null,
): Promise<string | undefined> {
  const expected = field.default;
  const column = columnName(field);
  if (
    expected === undefined ||
    (typeof expected === "object" &&
      !Array.isArray(expected) &&
      ["uuid", "cuid", "nanoid", "ulid"].includes(expected.name))
  ) {
    return actual === null ? undefined : `${where}: has default ${actual}, schema.prisma has none`;
  }
  if (actual === null) return `${where}: has no default, schema.prisma has ${JSON.stringify(expected)}`;
  if (typeof expected === "object" && !Array.isArray(expected)) {
    if (expected.name === "autoincrement") {
      const ok = actual === `nextval('${quoteIfNeeded(`${table}_${column}_seq`)}'::regclass)`;
      return ok
        ? undefined
        : `${where}: default is ${actual}, expected autoincrement (nextval of ${table}_${column}_seq)`;
    }
    if (expected.name === "now") {
      return actual === "CURRENT_TIMESTAMP" || actual === "now()"
        ? undefined
        : `${where}: default is ${actual}, expected now() (CURRENT_TIMESTAMP)`;
    }
    if (expected.name === "dbgenerated") {
      return actual === String(expected.args[0])
        ? undefined
        : `${where}: default is ${actual}, expected ${String(expected.args[0])}`;
    }
    return `${where}: default function ${expected.name}() is not understood by the drift check`;
  }
  // A constant: evaluate the database's default expression and compare values.
  const { rows } = await client.query<{ v: unknown }>(`SELECT (${actual}) AS v`);
  const value = rows[0]?.v;
  // BigInt defaults come from the DMMF as strings ("10000000") and from PostgreSQL as numbers
  const same =
    typeof expected === "string" && typeof value === "number"
      ? String(value) === expected
      : JSON.stringify(value) === JSON.stringify(expected);
  return same
    ? undefined
    : `${where}: default is ${actual} (${JSON.stringify(value)}), expected ${JSON.stringify(expected)}`;
}

/**
 * Lists every difference between the datamodel and the database `client` is connected to: tables,
 * columns (type, nullability, default), enums, primary keys, unique and plain indexes, foreign keys
 * (columns, target, ON DELETE/UPDATE), and any object that is in neither schema.prisma nor SQL_ONLY.
 * An empty list means no drift.
 * @throws on database errors.
 */
export async function findSchemaDrift(client: Client, datamodel: Datamodel): Promise<string[]> {
  const drift: string[] = [];
  const db = await readCatalog(client);
  const modelsByName = new Map(datamodel.models.map((m) => [m.name, m]));
  const tableOf = (model: DmmfModel) => model.dbName ?? model.name;
  const enumDbNames = new Map(datamodel.enums.map((e) => [e.name, e.dbName ?? e.name]));

  // Enums
  const dbEnums = new Map(db.enums.map((e) => [e.name, e.values]));
  for (const e of datamodel.enums) {
    const name = e.dbName ?? e.name;
    const values = dbEnums.get(name);
    const expected = e.values.map((v) => v.dbName ?? v.name);
    if (!values) drift.push(`enum ${name}: missing`);
    else if (JSON.stringify(values) !== JSON.stringify(expected)) {
      drift.push(`enum ${name}: values ${list(values)}, expected ${list(expected)}`);
    }
    dbEnums.delete(name);
  }
  for (const name of dbEnums.keys()) drift.push(`enum ${name}: not in schema.prisma`);

  // Tables and columns
  const expectedTables = new Set(datamodel.models.map(tableOf));
  for (const table of db.tables) {
    if (!expectedTables.has(table) && table !== "_prisma_migrations")
      drift.push(`table ${table}: not in schema.prisma`);
  }
  for (const model of datamodel.models) {
    const table = tableOf(model);
    if (!db.tables.includes(table)) {
      drift.push(`table ${table} (model ${model.name}): missing`);
      continue;
    }
    const dbColumns = new Map(db.columns.filter((c) => c.table === table).map((c) => [c.column, c]));
    for (const field of model.fields) {
      if (field.kind === "object") continue;
      const column = columnName(field);
      const where = `column ${table}.${column}`;
      const actual = dbColumns.get(column);
      dbColumns.delete(column);
      if (!actual) {
        drift.push(`${where} (${model.name}.${field.name}): missing`);
        continue;
      }
      const type = expectedType(field, enumDbNames);
      if (actual.type !== type) drift.push(`${where}: type ${actual.type}, expected ${type}`);
      const notnull = field.isRequired && !field.isList;
      if (actual.notnull !== notnull) {
        drift.push(
          `${where}: ${actual.notnull ? "NOT NULL" : "nullable"}, expected ${notnull ? "NOT NULL" : "nullable"}`,
        );
      }
      const problem = await checkDefault(client, where, table, field, actual.default);
      if (problem) drift.push(problem);
    }
    for (const [column, actual] of dbColumns) {
      const sqlOnly = SQL_ONLY.columns[`${table}.${column}`];
      if (!sqlOnly) drift.push(`column ${table}.${column}: not in schema.prisma`);
      else if (actual.type !== sqlOnly.type || actual.notnull !== sqlOnly.notnull)
        drift.push(
          `column ${table}.${column}: ${actual.type}${actual.notnull ? " NOT NULL" : ""}, expected ${sqlOnly.type}`,
        );
    }
    for (const name of Object.keys(SQL_ONLY.columns)) {
      const [sqlTable, sqlColumn] = name.split(".");
      if (sqlTable === table && !db.columns.some((c) => c.table === table && c.column === sqlColumn))
        drift.push(`column ${name} (SQL only): missing`);
    }
  }

  // Primary keys, unique and plain indexes
  const dbIndexes = new Map(db.indexes.map((i) => [i.name, i]));
  for (const index of datamodel.indexes) {
    const model = modelsByName.get(index.model);
    if (!model || index.type === "fulltext") continue;
    const table = tableOf(model);
    const columns = index.fields.map((f) => {
      const field = model.fields.find((x) => x.name === f.name);
      return field ? columnName(field) : f.name;
    });
    const suffix = index.type === "id" ? "pkey" : index.type === "unique" ? "key" : "idx";
    const name =
      index.dbName ?? (index.type === "id" ? `${table}_pkey` : `${table}_${columns.join("_")}_${suffix}`);
    const actual = dbIndexes.get(name);
    dbIndexes.delete(name);
    const what = index.type === "id" ? "primary key" : index.type === "unique" ? "unique index" : "index";
    if (!actual) {
      drift.push(`${what} ${name} on ${table}${list(columns)}: missing`);
      continue;
    }
    if (actual.table !== table) drift.push(`${what} ${name}: on table ${actual.table}, expected ${table}`);
    if (JSON.stringify(actual.columns) !== JSON.stringify(columns)) {
      drift.push(`${what} ${name}: columns ${list(actual.columns)}, expected ${list(columns)}`);
    }
    if (index.type === "id" && !actual.primary) drift.push(`${what} ${name}: is not the table's primary key`);
    if (index.type !== "id" && actual.unique !== (index.type === "unique")) {
      drift.push(
        `${what} ${name}: ${actual.unique ? "unique" : "not unique"}, expected ${index.type === "unique" ? "unique" : "not unique"}`,
      );
    }
    if (actual.partial) drift.push(`${what} ${name}: has a WHERE clause schema.prisma does not have`);
  }
  for (const [name, expected] of Object.entries(SQL_ONLY.indexes)) {
    const actual = dbIndexes.get(name);
    dbIndexes.delete(name);
    if (!actual) drift.push(`SQL-only index ${name} on ${expected.table}: missing`);
    else if (actual.table !== expected.table || !expected.definition.test(actual.definition)) {
      drift.push(`SQL-only index ${name}: definition is "${actual.definition}"`);
    }
  }
  for (const index of dbIndexes.values()) {
    if (index.table === "_prisma_migrations") continue;
    drift.push(`index ${index.name} on ${index.table}: not in schema.prisma (${index.definition})`);
  }

  // Foreign keys
  const dbForeignKeys = new Map(db.foreignKeys.map((f) => [f.name, f]));
  for (const model of datamodel.models) {
    const table = tableOf(model);
    for (const field of model.fields) {
      if (field.kind !== "object" || !field.relationFromFields?.length) continue;
      const target = modelsByName.get(field.type);
      if (!target) continue;
      const columnOf = (m: DmmfModel, name: string) => {
        const f = m.fields.find((x) => x.name === name);
        return f ? columnName(f) : name;
      };
      const columns = field.relationFromFields.map((n) => columnOf(model, n));
      const refColumns = (field.relationToFields ?? []).map((n) => columnOf(target, n));
      const name = `${table}_${columns.join("_")}_fkey`;
      const where = `foreign key ${name} (${model.name}.${field.name})`;
      const actual = dbForeignKeys.get(name);
      dbForeignKeys.delete(name);
      if (!actual) {
        drift.push(`${where}: missing`);
        continue;
      }
      const fromNullable = field.relationFromFields.some(
        (n) => model.fields.find((x) => x.name === n)?.isRequired === false,
      );
      const onDelete = field.relationOnDelete ?? (fromNullable ? "SetNull" : "Restrict");
      const onUpdate = field.relationOnUpdate ?? "Cascade";
      if (actual.table !== table || JSON.stringify(actual.columns) !== JSON.stringify(columns)) {
        drift.push(`${where}: on ${actual.table}${list(actual.columns)}, expected ${table}${list(columns)}`);
      }
      const refTable = tableOf(target);
      if (actual.refTable !== refTable || JSON.stringify(actual.refColumns) !== JSON.stringify(refColumns)) {
        drift.push(
          `${where}: references ${actual.refTable}${list(actual.refColumns)}, expected ${refTable}${list(refColumns)}`,
        );
      }
      const actualDelete = PG_ACTION[actual.onDelete] ?? actual.onDelete;
      const actualUpdate = PG_ACTION[actual.onUpdate] ?? actual.onUpdate;
      if (actualDelete !== onDelete) drift.push(`${where}: ON DELETE ${actualDelete}, expected ${onDelete}`);
      if (actualUpdate !== onUpdate) drift.push(`${where}: ON UPDATE ${actualUpdate}, expected ${onUpdate}`);
    }
  }
  for (const fk of dbForeignKeys.values())
    drift.push(`foreign key ${fk.name} on ${fk.table}: not in schema.prisma`);

  for (const c of db.otherConstraints)
    drift.push(`constraint ${c.name} (type ${c.type}) on ${c.table}: not in schema.prisma`);

  // Triggers and functions
  const dbTriggers = new Map(db.triggers.map((t) => [t.name, t]));
  for (const [name, expected] of Object.entries(SQL_ONLY.triggers)) {
    const actual = dbTriggers.get(name);
    dbTriggers.delete(name);
    if (!actual) drift.push(`SQL-only trigger ${name} on ${expected.table}: missing`);
    else if (actual.table !== expected.table || !expected.definition.test(actual.definition)) {
      drift.push(`SQL-only trigger ${name}: definition is "${actual.definition}"`);
    }
  }
  for (const t of dbTriggers.values()) drift.push(`trigger ${t.name} on ${t.table}: not in schema.prisma`);
  const dbFunctions = new Map(db.functions.map((f) => [f.name, f]));
  for (const [name, body] of Object.entries(SQL_ONLY.functions)) {
    const actual = dbFunctions.get(name);
    dbFunctions.delete(name);
    if (!actual) drift.push(`SQL-only function ${name}(): missing`);
    else if (!body.test(actual.source))
      drift.push(`SQL-only function ${name}(): body does not call ${body.source}`);
  }
  for (const name of dbFunctions.keys()) drift.push(`function ${name}(): not in schema.prisma`);

  return drift;
}
