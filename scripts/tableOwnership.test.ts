import { readFileSync } from "node:fs";
import path from "node:path";
import {
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

  it("holds across services/ (tests aside), but for the known crossings, each still needed", () => {
    const problems = ownershipViolations(serviceSources(root), models);
    const keyOf = (problem: string) => problem.split(":")[0] ?? problem;
    expect(problems.filter((p) => !(keyOf(p) in KNOWN_CROSSINGS))).toEqual([]);
    expect(Object.keys(KNOWN_CROSSINGS).filter((k) => !problems.some((p) => keyOf(p) === k))).toEqual([]);
  });
});
