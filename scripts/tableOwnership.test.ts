import { readFileSync } from "node:fs";
import path from "node:path";
import {
  crossRelationsOf,
  KNOWN_CROSSINGS,
  modelsOf,
  ownershipViolations,
  serviceSources,
  TABLE_OWNERS,
  tablesTouched,
} from "./tableOwnership";

const root = path.resolve(__dirname, "..");
const models = modelsOf(readFileSync(path.join(root, "prisma/schema.prisma"), "utf8"));
const file = (p: string, text: string) => ({ path: p, text });

describe("table ownership", () => {
  it("names an owner for every model of prisma/schema.prisma, and only those", () => {
    expect(models.length).toBeGreaterThan(20);
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual(models.map((m) => m.name).sort());
  });

  it("finds tables by Prisma delegate and by name in SQL", () => {
    const text = [
      "await db.prisma.user.findUnique({ where: { id } });",
      "await tx.emailMessage.update({});",
      'await tx.$queryRaw`SELECT 1 FROM documents d JOIN "appointments" a ON true`;',
      "await tx.$executeRaw`UPDATE esrt_jobs SET x = 1`;",
      "await tx.$executeRaw`INSERT INTO note_history (a) VALUES (1)`;",
      "const users = 3; // the word users alone is no table",
    ].join("\n");
    expect([...tablesTouched(text, models)].sort()).toEqual(
      ["appointments", "documents", "email_messages", "esrt_jobs", "note_history", "users"].sort(),
    );
  });

  it("fails on a service touching another service's table, and lets its own and the platform's through", () => {
    const problems = ownershipViolations(
      [
        file(
          "services/appointment/x.ts",
          "await tx.$queryRaw`SELECT id FROM users WHERE id = 1 FOR UPDATE`;",
        ),
        file("services/document/y.ts", "await db.prisma.user.findUnique({ where: { id } });"),
        file("services/email/z.ts", "await tx.appointment.findMany({});"),
        file("services/user/own.ts", "await db.prisma.user.findMany({}); await tx.auditLog.count({});"),
        file(
          "services/document/outbox.ts",
          "await tx.$executeRaw`INSERT INTO outbox_events (id) VALUES (1)`;",
        ),
        file("gateway/src/x.ts", "await db.prisma.document.findMany({});"),
      ],
      models,
    );
    expect(problems).toEqual([
      "services/appointment/x.ts users: service appointment touches the user service's table",
      "services/document/y.ts users: service document touches the user service's table",
      "services/email/z.ts appointments: service email touches the appointment service's table",
    ]);
  });

  it("knows each model's relations, and which lead out of a service", () => {
    const appointment = models.find((m) => m.name === "Appointment");
    expect(appointment?.relations).toEqual([{ field: "user", model: "User" }]);
    expect(crossRelationsOf("appointment", models).map((r) => r.relation)).toEqual(["Appointment.user"]);
    expect(crossRelationsOf("document", models).map((r) => r.relation)).toEqual(["Document.user"]);
    expect(
      crossRelationsOf("user", models)
        .map((r) => r.relation)
        .sort(),
    ).toEqual(["User.appointments", "User.documents"]);
  });

  it("fails on a service reading another service's table through a Prisma relation", () => {
    const problems = ownershipViolations(
      [
        file(
          "services/appointment/include.ts",
          "await tx.appointment.findMany({ where: { status: 'pending' }, include: { user: true } });",
        ),
        file(
          "services/appointment/nestedSelect.ts",
          "await tx.appointment.findUnique({ where: { id }, select: { id: true, user: { select: { email: true } } } });",
        ),
        file(
          "services/appointment/filter.ts",
          "await db.prisma.appointment.count({ where: { AND: [{ user: { userType: 'client' } }] } });",
        ),
        file(
          "services/document/constant.ts",
          [
            "export const INCLUDE = {",
            "  versions: true,",
            "  user: { select: { id: true, email: true } },",
            "} as const satisfies Prisma.DocumentInclude;",
          ].join("\n"),
        ),
        file(
          "services/document/shorthand.ts",
          "const include = { history: true, user: true };\nawait db.prisma.document.findMany({ include });",
        ),
        file(
          "services/user/count.ts",
          "await q.user.findMany({ select: { _count: { select: { documents: true } } } });",
        ),
        // its own relations, a foreign key's column and objects that are no query are fine
        file(
          "services/document/own.ts",
          "await tx.document.findMany({ select: { userId: true }, include: { versions: { orderBy: { version: 'asc' } } } });",
        ),
        file(
          "services/appointment/payload.ts",
          "const user = await findUserContact(tx, id); return { ...row, user };",
        ),
        file(
          "services/user/ownRelation.ts",
          "await tx.user.findUnique({ where: { id }, include: { securityQuestions: true } });",
        ),
      ],
      models,
    );
    const through = (f: string, table: string, room: string, relation: string) =>
      `${f} ${table}: service ${room} reads the user service's table through the relation ${relation}`;
    expect(problems).toEqual([
      through("services/appointment/include.ts", "users", "appointment", "Appointment.user"),
      through("services/appointment/nestedSelect.ts", "users", "appointment", "Appointment.user"),
      through("services/appointment/filter.ts", "users", "appointment", "Appointment.user"),
      through("services/document/constant.ts", "users", "document", "Document.user"),
      through("services/document/shorthand.ts", "users", "document", "Document.user"),
      "services/user/count.ts documents: service user reads the document service's table through the relation User.documents",
    ]);
  });

  it("holds across services/ (tests aside), but for the known crossings, each still needed", () => {
    const problems = ownershipViolations(serviceSources(root), models);
    const keyOf = (problem: string) => problem.split(":")[0] ?? problem;
    expect(problems.filter((p) => !(keyOf(p) in KNOWN_CROSSINGS))).toEqual([]);
    expect(Object.keys(KNOWN_CROSSINGS).filter((k) => !problems.some((p) => keyOf(p) === k))).toEqual([]);
  });
});
