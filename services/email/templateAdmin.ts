import { randomUUID } from "node:crypto";
import {
  templateKeySchema,
  templateUpdateSchema,
  templateVersionIdSchema,
  testSendSchema,
} from "@schema/validation/emailTemplates";
import { audit } from "@services/shared/audit";
import type { Db, Tx } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import type { EmailTemplateChange } from "@services/shared/generated/prisma/enums";
import { parse } from "@services/shared/validation";
import { DEFAULT_EMAIL_TEMPLATES, type DefaultEmailTemplate } from "./defaultTemplates";
import { loadMailContext } from "./mailContext";
import { queueEmail } from "./queueEmail";
import { type EmailTemplateParts, type RenderedEmail, renderEmailInLayout } from "./renderEmail";
import { sampleVariables, type TemplateVariable, templateVariables } from "./templateCatalog";
import { type TemplateProblem, templateProblems } from "./templateRules";

// Email templates for the admin (issue 12, manageEmails, checked by the caller): every email the
// portal sends, edited with the variables it is offered, previewed and test-sent with sample values,
// reverted to its default, and every saved state kept as a version that can be restored.

/** The admin who acts, as the email service knows them. */
export interface EmailActor {
  id: number;
  name: string;
  email: string;
}

/** A template as the admin page shows it. */
export interface EmailTemplateView extends EmailTemplateParts {
  key: string;
  name: string;
  variables: readonly TemplateVariable[];
  /** whether the parts are the default's */
  isDefault: boolean;
  /** null: never edited */
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** One saved state of a template. */
export interface EmailTemplateVersionView extends EmailTemplateParts {
  id: number;
  templateKey: string;
  version: number;
  change: EmailTemplateChange;
  createdAt: Date;
  createdBy: string | null;
}

/** A preview: the rendered parts with sample values, or the problems that stop the template. */
export interface TemplatePreview {
  rendered: RenderedEmail | null;
  problems: TemplateProblem[];
}

function defaultOf(key: string): DefaultEmailTemplate {
  const template = DEFAULT_EMAIL_TEMPLATES.find((t) => t.key === key);
  if (!template || !templateVariables(key)) throw new AppError("NOT_FOUND", "Email template not found");
  return template;
}

const partsOf = (t: EmailTemplateParts): EmailTemplateParts => ({
  subject: t.subject,
  html: t.html,
  text: t.text,
});
const sameParts = (a: EmailTemplateParts, b: EmailTemplateParts) =>
  a.subject === b.subject && a.html === b.html && a.text === b.text;

interface StoredTemplate extends EmailTemplateParts {
  key: string;
  updatedAt: Date;
  updatedBy: string | null;
}

function present(fallback: DefaultEmailTemplate, stored: StoredTemplate | null): EmailTemplateView {
  const parts = stored ? partsOf(stored) : partsOf(fallback);
  return {
    key: fallback.key,
    name: fallback.name,
    ...parts,
    variables: templateVariables(fallback.key) ?? [],
    isDefault: sameParts(parts, fallback),
    updatedAt: stored?.updatedBy ? stored.updatedAt : null,
    updatedBy: stored?.updatedBy ?? null,
  };
}

/** Every template the portal sends, in the order of the defaults. @throws Prisma errors. */
export async function listEmailTemplates(db: Db): Promise<EmailTemplateView[]> {
  const rows = await db.prisma.emailTemplate.findMany();
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return DEFAULT_EMAIL_TEMPLATES.map((t) => present(t, byKey.get(t.key) ?? null));
}

/** One template. @throws AppError VALIDATION_FAILED for a malformed key, NOT_FOUND for an unknown one. */
export async function getEmailTemplate(db: Db, key: unknown): Promise<EmailTemplateView> {
  const fallback = defaultOf(parse(templateKeySchema, key));
  return present(fallback, await db.prisma.emailTemplate.findUnique({ where: { key: fallback.key } }));
}

/** A template's versions, newest first. @throws AppError VALIDATION_FAILED, NOT_FOUND. */
export async function listTemplateVersions(db: Db, key: unknown): Promise<EmailTemplateVersionView[]> {
  const fallback = defaultOf(parse(templateKeySchema, key));
  return db.prisma.emailTemplateVersion.findMany({
    where: { templateKey: fallback.key },
    orderBy: { version: "desc" },
    take: 200,
  });
}

/** The problems as the refusal of a save: the first as the message, each part's under its field. */
function refusal(problems: TemplateProblem[]): AppError {
  const errors: Record<string, string[]> = {};
  for (const p of problems) errors[p.part] = [...(errors[p.part] ?? []), p.message];
  return new AppError("VALIDATION_FAILED", problems[0]?.message ?? "The template cannot be saved", {
    details: {
      errors,
      problems: problems.map(({ part, line, column, reason }) => ({ part, line, column, reason })),
    },
  });
}

/** @throws AppError VALIDATION_FAILED when the parts break the template rules. */
function assertValidTemplate(key: string, parts: EmailTemplateParts): void {
  const names = (templateVariables(key) ?? []).map((v) => v.name);
  const problems = templateProblems(parts, names);
  if (problems.length > 0) throw refusal(problems);
}

/**
 * Renders parts with the template's sample values and the portal's branding, in the layout (the
 * whole email, as it would be sent); problems instead when the parts break the rules (nothing is
 * stored).
 * @throws AppError VALIDATION_FAILED for a malformed key or empty parts, NOT_FOUND for an unknown key.
 */
export async function previewEmailTemplate(props: { db: Db; input: unknown }): Promise<TemplatePreview> {
  const input = parse(templateUpdateSchema, props.input);
  defaultOf(input.key);
  const parts = partsOf(input);
  const problems = templateProblems(
    parts,
    (templateVariables(input.key) ?? []).map((v) => v.name),
  );
  if (problems.length > 0) return { rendered: null, problems };
  const context = await props.db.prisma.$transaction((tx) => loadMailContext(tx));
  return {
    rendered: await renderEmailInLayout(
      parts,
      { ...sampleVariables(input.key), productName: context.productName, supportPhone: context.supportPhone },
      context,
      { draft: true },
    ),
    problems: [],
  };
}

/**
 * Stores `parts` as the template's current state and as its next version (the state before the
 * template's first version is kept first, as version 1, "original"), and audits the change with its
 * before and after. Parts equal to the current ones change nothing.
 */
async function saveTemplate(props: {
  db: Db;
  actor: EmailActor;
  key: string;
  parts: EmailTemplateParts;
  change: Exclude<EmailTemplateChange, "original">;
  action: string;
  metadata?: Record<string, string | number>;
}): Promise<EmailTemplateView> {
  const fallback = defaultOf(props.key);
  assertValidTemplate(props.key, props.parts);
  return props.db.prisma.$transaction(async (tx) => {
    const current = await lockedTemplate(tx, fallback);
    if (sameParts(current, props.parts)) return present(fallback, current);
    const last = await tx.emailTemplateVersion.findFirst({
      where: { templateKey: fallback.key },
      orderBy: { version: "desc" },
      select: { version: true },
    });
    let version = last?.version ?? 0;
    if (!last) {
      version += 1;
      await tx.emailTemplateVersion.create({
        data: {
          templateKey: fallback.key,
          version,
          ...partsOf(current),
          change: "original",
          createdBy: current.updatedBy,
        },
      });
    }
    version += 1;
    await tx.emailTemplateVersion.create({
      data: {
        templateKey: fallback.key,
        version,
        ...props.parts,
        change: props.change,
        createdBy: props.actor.name,
      },
    });
    const after = await tx.emailTemplate.update({
      where: { key: fallback.key },
      data: { ...props.parts, updatedBy: props.actor.name },
    });
    await audit(tx, {
      action: props.action,
      actorId: props.actor.id,
      targetType: "email_template",
      targetId: fallback.key,
      before: { ...partsOf(current) },
      after: { ...partsOf(after) },
      metadata: { key: fallback.key, version, ...props.metadata },
    });
    return present(fallback, after);
  });
}

/** The template's row, locked for the transaction (created from the default when missing). */
async function lockedTemplate(tx: Tx, fallback: DefaultEmailTemplate): Promise<StoredTemplate> {
  await tx.$executeRaw`
    INSERT INTO email_templates (key, name, subject, html, text, "updatedAt")
    VALUES (${fallback.key}, ${fallback.name}, ${fallback.subject}, ${fallback.html}, ${fallback.text}, now())
    ON CONFLICT (key) DO NOTHING`;
  const [row] = await tx.$queryRaw<StoredTemplate[]>`
    SELECT key, subject, html, text, "updatedAt", "updatedBy" FROM email_templates
    WHERE key = ${fallback.key} FOR UPDATE`;
  if (!row) throw new Error(`email template "${fallback.key}" vanished`);
  return row;
}

/**
 * Saves an admin's edit of a template: refused, with each problem's part, line and reason, when it
 * uses a variable the template is not offered, a refused tag, or does not parse.
 * @throws AppError VALIDATION_FAILED (the schema's message or the first problem's), NOT_FOUND.
 */
export async function updateEmailTemplate(props: {
  db: Db;
  actor: EmailActor;
  input: unknown;
}): Promise<EmailTemplateView> {
  const input = parse(templateUpdateSchema, props.input);
  return saveTemplate({
    db: props.db,
    actor: props.actor,
    key: input.key,
    parts: partsOf(input),
    change: "edit",
    action: "email.template_updated",
  });
}

/** Puts the default wording back (a new version). @throws AppError VALIDATION_FAILED, NOT_FOUND. */
export async function revertEmailTemplate(props: {
  db: Db;
  actor: EmailActor;
  key: unknown;
}): Promise<EmailTemplateView> {
  const fallback = defaultOf(parse(templateKeySchema, props.key));
  return saveTemplate({
    db: props.db,
    actor: props.actor,
    key: fallback.key,
    parts: partsOf(fallback),
    change: "revert",
    action: "email.template_reverted",
  });
}

/**
 * Makes an older version the current state again (a new version). A version that no longer meets
 * the rules (the catalog changed since) is refused like an edit.
 * @throws AppError VALIDATION_FAILED, NOT_FOUND for an unknown version.
 */
export async function restoreTemplateVersion(props: {
  db: Db;
  actor: EmailActor;
  versionId: unknown;
}): Promise<EmailTemplateView> {
  const id = parse(templateVersionIdSchema, props.versionId);
  const version = await props.db.prisma.emailTemplateVersion.findUnique({ where: { id } });
  if (!version) throw new AppError("NOT_FOUND", "Template version not found");
  return saveTemplate({
    db: props.db,
    actor: props.actor,
    key: version.templateKey,
    parts: partsOf(version),
    change: "restore",
    action: "email.template_restored",
    metadata: { restoredVersion: version.version },
  });
}

/** A queued test message. */
export interface TestSendResult {
  messageId: number;
  to: string;
}

/**
 * Queues a template (the draft being edited, or the stored one) rendered with its sample values to
 * `to` (the admin's own address when left out), through the ordinary queue, so it is sent, retried
 * and logged like any message; audited.
 * @throws AppError VALIDATION_FAILED (a bad address, empty parts, a draft that breaks the rules),
 * NOT_FOUND for an unknown template.
 */
export async function sendTestEmail(props: {
  db: Db;
  actor: EmailActor;
  input: unknown;
}): Promise<TestSendResult> {
  const input = parse(testSendSchema, props.input);
  defaultOf(input.key);
  const draft = input.draft ? partsOf(input.draft) : undefined;
  if (draft) assertValidTemplate(input.key, draft);
  const to = input.to ?? props.actor.email.trim().toLowerCase();
  const eventId = `test:${randomUUID()}`;
  return props.db.prisma.$transaction(async (tx) => {
    const context = await loadMailContext(tx, [input.key]);
    const { productName: _p, supportPhone: _s, ...variables } = sampleVariables(input.key);
    await queueEmail({ tx, eventId, templateKey: input.key, to, context, variables, template: draft });
    const row = await tx.emailMessage.findUniqueOrThrow({
      where: { dedupeKey: `${eventId}:${input.key}:${to}` },
      select: { id: true },
    });
    await audit(tx, {
      action: "email.test_sent",
      actorId: props.actor.id,
      targetType: "email_message",
      targetId: row.id,
      metadata: { key: input.key, to, draft: draft !== undefined },
    });
    return { messageId: row.id, to };
  });
}
