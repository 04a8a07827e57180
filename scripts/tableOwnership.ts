import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

// Which service owns each table of prisma/schema.prisma, and a check that no service's code
// (tests aside) touches another service's tables: through a Prisma delegate (`db.prisma.<model>`,
// `tx.<model>`, `client.<model>`) or by name in SQL (FROM, JOIN, UPDATE, INTO, TABLE). A service
// that needs another's facts asks its face (docs/DECISIONS.md, Who reads the users table).

/**
 * The owner of every model, by model name. `shared` is the platform (outbox, inbox, dead letters,
 * audit, deployment), which every service uses through services/shared.
 */
export const TABLE_OWNERS: Record<string, string> = {
  User: "user",
  BrandingConfig: "user",
  SecurityQuestions: "user",
  SecuritySettings: "user",
  OneTimeToken: "user",
  NoteHistory: "user",
  UserJob: "user",
  UserJobItem: "user",
  StorageConfig: "document",
  Document: "document",
  DocumentVersion: "document",
  DocumentHistory: "document",
  Upload: "document",
  Appointment: "appointment",
  EmailSettings: "email",
  EmailTemplate: "email",
  EmailTemplateVersion: "email",
  EmailMessage: "email",
  EsrtUserState: "esrt-sync",
  EsrtEndpoint: "esrt-sync",
  EsrtDelivery: "esrt-sync",
  EsrtDeliveryAttempt: "esrt-sync",
  EsrtApiKey: "esrt-sync",
  EsrtJob: "esrt-sync",
  OutboxEvent: "shared",
  ProcessedEvent: "shared",
  DeadLetter: "shared",
  AuditLog: "shared",
  Deployment: "shared",
};

/**
 * Reads that are known and not yet behind a contract, each with its reason; the test fails when
 * one is no longer needed, so the list only shrinks.
 */
export const KNOWN_CROSSINGS: Record<string, string> = {
  // the audit view names actors and targets in one keyset query (audit_logs LEFT JOIN users)
  "services/shared/auditLog.ts users": "audit view joins users for names",
  // the mail context reads the product name and phone with its own rows in one round trip
  "services/email/mailContext.ts branding_config": "email reads branding with its settings",
};

export interface Model {
  name: string;
  table: string;
  /** the Prisma delegate: the model name with a lower-case first letter */
  delegate: string;
}

/** The models of a Prisma schema with their table names. */
export function modelsOf(schema: string): Model[] {
  const models: Model[] = [];
  for (const match of schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const name = match[1] ?? "";
    const table = /@@map\("(\w+)"\)/.exec(match[2] ?? "")?.[1] ?? name;
    models.push({ name, table, delegate: name.charAt(0).toLowerCase() + name.slice(1) });
  }
  return models;
}

/** The room a path belongs to: a service's name, `shared` or null (not a service's code). */
export function roomOf(file: string): string | null {
  const m = /^services\/([^/]+)\//.exec(file);
  return m ? (m[1] ?? null) : null;
}

/** The tables a source text touches, by delegate or by name in SQL. */
export function tablesTouched(text: string, models: readonly Model[]): Set<string> {
  const touched = new Set<string>();
  const byDelegate = new Map(models.map((m) => [m.delegate, m.table]));
  const byTable = new Set(models.map((m) => m.table));
  for (const m of text.matchAll(/\b(?:prisma|tx|client|q|db)\.(\w+)\.(\w+)\(/g)) {
    const table = byDelegate.get(m[1] ?? "");
    if (table) touched.add(table);
  }
  for (const m of text.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO|TABLE)\s+"?(\w+)"?/g)) {
    if (byTable.has(m[1] ?? "")) touched.add(m[1] ?? "");
  }
  return touched;
}

/** "file table: why" for each table a service's file touches that another service owns. */
export function ownershipViolations(
  files: readonly { path: string; text: string }[],
  models: readonly Model[],
  owners: Record<string, string> = TABLE_OWNERS,
): string[] {
  const ownerOfTable = new Map(models.map((m) => [m.table, owners[m.name]]));
  const problems: string[] = [];
  for (const file of files) {
    const room = roomOf(file.path);
    if (!room) continue;
    for (const table of tablesTouched(file.text, models)) {
      const owner = ownerOfTable.get(table);
      // the platform's tables (outbox, inbox, dead letters, audit) are every service's to use
      if (owner === undefined || owner === room || owner === "shared") continue;
      problems.push(`${file.path} ${table}: service ${room} touches the ${owner} service's table`);
    }
  }
  return problems;
}

/** The non-test TypeScript sources under services/ (generated and testing helpers excluded). */
export function serviceSources(root: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== "generated" && entry.name !== "testing") walk(rel);
      } else if (
        /\.ts$/.test(entry.name) &&
        !/\.test\.ts$/.test(entry.name) &&
        !/^testing/.test(entry.name)
      ) {
        out.push({ path: rel, text: readFileSync(path.join(root, rel), "utf8") });
      }
    }
  };
  walk("services");
  return out;
}
