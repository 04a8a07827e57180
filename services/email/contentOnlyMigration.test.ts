import { migrateDatabase, readMigrations } from "@db/migrate";
import { connectPostgres, type Db } from "@services/shared/db";
import { scratchDatabase } from "@services/shared/testing/db";
import { DEFAULT_EMAIL_TEMPLATES } from "./defaultTemplates";
import { listEmailTemplates, listTemplateVersions } from "./templateAdmin";
import { DEFAULTS_BEFORE_LAYOUT } from "./testing/defaultsBeforeLayout";

// The migration that makes stored templates content only (issue 21 §2), run on a database that holds
// the templates as the portal stored them before: the defaults become the new defaults, an admin's
// edit keeps its wording without the old wrapper, and the saved versions follow their template.

const MIGRATION = "20261212000000_email_content_only";
const WRAP_START =
  '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1c2127">';
const WRAP_END = '<p style="color:#5f6b7c;font-size:13px">{{productName}} · {{supportPhone}}</p></div>';
const wrapped = (body: string) => `${WRAP_START}${body}${WRAP_END}`;

let scratch: { url: string; drop(): Promise<void> };
let db: Db;

beforeAll(async () => {
  scratch = await scratchDatabase();
  const before = readMigrations().filter((m) => m.name < MIGRATION);
  await migrateDatabase({ url: scratch.url }, before);
  db = await connectPostgres(scratch.url);
});

afterAll(async () => {
  await db?.close();
  await scratch?.drop();
});

/** A default's parts as stored before the layout. */
function oldDefault(key: string): { subject: string; html: string; text: string } {
  const template = DEFAULTS_BEFORE_LAYOUT.find((t) => t.key === key);
  if (!template) throw new Error(`no old default for ${key}`);
  return { subject: template.subject, html: template.html, text: template.text };
}

function newDefault(key: string) {
  const template = DEFAULT_EMAIL_TEMPLATES.find((t) => t.key === key);
  if (!template) throw new Error(`no default for ${key}`);
  return template;
}

describe(`migration ${MIGRATION}`, () => {
  it("rewrites the old defaults into the new ones, and strips only the exact wrapper from an admin's edit", async () => {
    expect(DEFAULTS_BEFORE_LAYOUT.map((t) => t.key)).toEqual(DEFAULT_EMAIL_TEMPLATES.map((t) => t.key));
    // every template as the seed stored it before the layout
    await db.prisma.emailTemplate.createMany({
      data: DEFAULTS_BEFORE_LAYOUT.map((t) => ({ ...t, name: newDefault(t.key).name, updatedBy: "seed" })),
    });
    // an admin's edit inside the wrapper, with a text body of their own; its versions
    const welcomeEdit = {
      subject: "Hello from Harbor, {{firstName}}",
      html: wrapped("<p>Hi {{firstName}},</p>\n<p>Your username is <b>{{username}}</b>.</p>"),
      text: "Hi {{firstName}}, your username is {{username}}.",
    };
    await db.prisma.emailTemplate.update({
      where: { key: "welcome" },
      data: { ...welcomeEdit, updatedBy: "Ada Admin" },
    });
    await db.prisma.emailTemplateVersion.createMany({
      data: [
        {
          templateKey: "welcome",
          version: 1,
          change: "original",
          createdBy: "seed",
          ...oldDefault("welcome"),
        },
        { templateKey: "welcome", version: 2, change: "edit", createdBy: "Ada Admin", ...welcomeEdit },
      ],
    });
    // an edit without the wrapper, whose text body is still the old default's
    await db.prisma.emailTemplate.update({
      where: { key: "password_changed" },
      data: { html: "<p>Your password changed on {{changedAt}}.</p>", updatedBy: "Ada Admin" },
    });
    // an edit of the footer line itself: not the exact wrapper, left alone
    const ownFooter = `${WRAP_START}<p>New report: {{title}}</p><p>{{productName}}</p></div>`;
    await db.prisma.emailTemplate.update({
      where: { key: "document_report" },
      data: { html: ownFooter, updatedBy: "Ada Admin" },
    });
    // the old default with a line break around it (a textarea's), as an admin saved it back
    await db.prisma.emailTemplate.update({
      where: { key: "two_factor_changed" },
      data: { html: `\n${oldDefault("two_factor_changed").html}\n`, updatedBy: "Ada Admin" },
    });

    const { applied } = await migrateDatabase({ url: scratch.url });
    // this migration first (those after it, if any, follow)
    expect(applied[0]).toBe(MIGRATION);

    const templates = await listEmailTemplates(db);
    const edited = ["welcome", "password_changed", "document_report"];
    expect(templates.filter((t) => !t.isDefault).map((t) => t.key)).toEqual(edited);
    for (const t of templates.filter((t) => !edited.includes(t.key))) {
      const fresh = newDefault(t.key);
      expect([t.key, t.subject, t.html, t.text]).toEqual([t.key, fresh.subject, fresh.html, ""]);
    }
    const byKey = new Map(templates.map((t) => [t.key, t]));
    expect(byKey.get("welcome")).toMatchObject({
      subject: welcomeEdit.subject,
      html: "<p>Hi {{firstName}},</p>\n<p>Your username is <b>{{username}}</b>.</p>",
      text: welcomeEdit.text,
      updatedBy: "Ada Admin",
    });
    expect(byKey.get("password_changed")).toMatchObject({
      html: "<p>Your password changed on {{changedAt}}.</p>",
      text: "",
    });
    expect(byKey.get("document_report")).toMatchObject({ html: ownFooter, text: "" });
    // the one saved back with its line breaks is the default again, and still says who saved it
    expect(byKey.get("two_factor_changed")).toMatchObject({ isDefault: true, updatedBy: "Ada Admin" });

    // the versions: the original is the new default, the edit lost its wrapper, the newest equals
    // the template (so a restore never brings the wrapper back)
    const versions = await listTemplateVersions(db, "welcome");
    expect(versions.map((v) => [v.version, v.change, v.subject, v.html, v.text])).toEqual([
      [2, "edit", welcomeEdit.subject, byKey.get("welcome")?.html, welcomeEdit.text],
      [1, "original", newDefault("welcome").subject, newDefault("welcome").html, ""],
    ]);
  });
});
