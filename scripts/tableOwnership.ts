import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

// Which service owns each table of prisma/schema.prisma, and a check that no service's code
// (tests aside) touches another service's tables: through a Prisma delegate (`db.prisma.<model>`,
// `tx.<model>`, `client.<model>`), by name in SQL (FROM, JOIN, UPDATE, INTO, TABLE), or through a
// Prisma relation of its own model (`include: { user: true }` on an appointment, a `select`, a
// relation filter in `where`, an `orderBy` or a nested write in `data`). A service that needs
// another's facts asks its face (docs/DECISIONS.md, Services own their tables).

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
  TwoFactorAuthenticator: "user",
  Passkey: "user",
  RecoveryCode: "user",
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
 * Reads that are known and not yet behind a contract, each with its reason ("file table": why); the
 * test fails when one is no longer needed, so the list only shrinks. Empty since every service reads
 * another's facts through its face.
 */
export const KNOWN_CROSSINGS: Record<string, string> = {};

export interface Model {
  name: string;
  table: string;
  /** the Prisma delegate: the model name with a lower-case first letter */
  delegate: string;
  /** its relation fields: the field's name and the model it leads to */
  relations: { field: string; model: string }[];
}

/** The models of a Prisma schema with their table names and relation fields. */
export function modelsOf(schema: string): Model[] {
  const blocks = [...schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)].map((m) => ({
    name: m[1] ?? "",
    body: m[2] ?? "",
  }));
  const names = new Set(blocks.map((b) => b.name));
  return blocks.map(({ name, body }) => {
    const table = /@@map\("(\w+)"\)/.exec(body)?.[1] ?? name;
    const relations: Model["relations"] = [];
    for (const field of body.matchAll(/^\s*(\w+)\s+(\w+)(?:\[\]|\?)?(?:\s|$)/gm)) {
      const target = field[2] ?? "";
      if (names.has(target)) relations.push({ field: field[1] ?? "", model: target });
    }
    return { name, table, delegate: name.charAt(0).toLowerCase() + name.slice(1), relations };
  });
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

/** A relation of a model a room may query that leads to a table another service owns. */
export interface CrossRelation {
  /** Model.field, e.g. Appointment.user */
  relation: string;
  field: string;
  table: string;
  owner: string;
}

/**
 * The relations that lead out of `room`: fields of the models it owns (or the platform's, which
 * every room queries) whose model another service owns.
 */
export function crossRelationsOf(
  room: string,
  models: readonly Model[],
  owners: Record<string, string> = TABLE_OWNERS,
): CrossRelation[] {
  const byName = new Map(models.map((m) => [m.name, m]));
  const mine = (owner: string | undefined) => owner === room || owner === "shared";
  return models
    .filter((m) => mine(owners[m.name]))
    .flatMap((m) =>
      m.relations.flatMap((r) => {
        const owner = owners[r.model];
        const table = byName.get(r.model)?.table;
        if (owner === undefined || table === undefined || mine(owner)) return [];
        return [{ relation: `${m.name}.${r.field}`, field: r.field, table, owner }];
      }),
    );
}

/** The arguments of a Prisma query that name relations: what they load, filter, sort or write by. */
const RELATION_ARGS = new Set(["include", "select", "where", "orderBy", "data"]);

/** `expr` without parentheses, `as`, `satisfies` and `!`. */
function unwrap(expr: ts.Expression): ts.Expression {
  let e = expr;
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isSatisfiesExpression(e) ||
    ts.isNonNullExpression(e)
  ) {
    e = e.expression;
  }
  return e;
}

/** Whether a type names one of Prisma's query argument types (`Prisma.DocumentInclude`, ...). */
function isPrismaArgType(type: ts.TypeNode | undefined): boolean {
  return (
    type !== undefined &&
    ts.isTypeReferenceNode(type) &&
    ts.isQualifiedName(type.typeName) &&
    ts.isIdentifier(type.typeName.left) &&
    type.typeName.left.text === "Prisma"
  );
}

/**
 * The property names of the Prisma query arguments a source text writes: every key, at any depth,
 * of an object given as `include`, `select`, `where`, `orderBy` or `data` (directly, or by a
 * constant of the same file), and of an object typed or checked as one of Prisma's argument types
 * (`const x = { ... } satisfies Prisma.DocumentInclude`, `const where: Prisma.UserWhereInput = ...`).
 */
export function prismaArgKeys(text: string): Set<string> {
  const source = ts.createSourceFile("x.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const constants = new Map<string, ts.Expression>();
  const roots: ts.Expression[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      constants.set(node.name.text, node.initializer);
      if (isPrismaArgType(node.type)) roots.push(node.initializer);
    }
    if (ts.isSatisfiesExpression(node) && isPrismaArgType(node.type)) roots.push(node.expression);
    if (ts.isAsExpression(node) && isPrismaArgType(node.type)) roots.push(node.expression);
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && RELATION_ARGS.has(node.name.text)) {
      roots.push(node.initializer);
    }
    if (ts.isShorthandPropertyAssignment(node) && RELATION_ARGS.has(node.name.text)) roots.push(node.name);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const keys = new Set<string>();
  const seen = new Set<ts.Node>();
  const collect = (expr: ts.Expression) => {
    const e = unwrap(expr);
    if (seen.has(e)) return;
    seen.add(e);
    if (ts.isIdentifier(e)) {
      const value = constants.get(e.text);
      if (value) collect(value);
    } else if (ts.isObjectLiteralExpression(e)) {
      for (const property of e.properties) {
        if (ts.isPropertyAssignment(property)) {
          if (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))
            keys.add(property.name.text);
          collect(property.initializer);
        } else if (ts.isShorthandPropertyAssignment(property)) {
          keys.add(property.name.text);
          collect(property.name);
        } else if (ts.isSpreadAssignment(property)) {
          collect(property.expression);
        }
      }
    } else if (ts.isArrayLiteralExpression(e)) {
      for (const element of e.elements) collect(ts.isSpreadElement(element) ? element.expression : element);
    } else if (ts.isConditionalExpression(e)) {
      collect(e.whenTrue);
      collect(e.whenFalse);
    }
  };
  for (const root of roots) collect(root);
  return keys;
}

/** "file table: why" for each table a service's file touches that another service owns. */
export function ownershipViolations(
  files: readonly { path: string; text: string }[],
  models: readonly Model[],
  owners: Record<string, string> = TABLE_OWNERS,
): string[] {
  const ownerOfTable = new Map(models.map((m) => [m.table, owners[m.name]]));
  const crossByRoom = new Map<string, CrossRelation[]>();
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
    const cross = crossByRoom.get(room) ?? crossRelationsOf(room, models, owners);
    crossByRoom.set(room, cross);
    // parsing is the slow part: only a file that names one of the room's relations at all
    if (!cross.some((r) => new RegExp(`\\b${r.field}\\b`).test(file.text))) continue;
    const keys = prismaArgKeys(file.text);
    for (const relation of cross) {
      if (!keys.has(relation.field)) continue;
      problems.push(
        `${file.path} ${relation.table}: service ${room} reads the ${relation.owner} service's table through the relation ${relation.relation}`,
      );
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
