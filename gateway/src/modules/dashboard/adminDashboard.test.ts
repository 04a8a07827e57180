import { randomUUID } from "node:crypto";
import { permissionsOf } from "@gateway/auth/permissions";
import { isolatedDb } from "@services/document/testing";
import { audit } from "@services/shared/audit";
import { config } from "@services/shared/config";
import type { Db } from "@services/shared/db";
import { createAppointment, createDocument, createUser } from "@services/shared/testing/factories";
import { adminDashboard } from "./adminDashboard";

// The admin dashboard's figures (issue 11) on a database of its own, seeded with a known set of
// users, documents, appointments, emails and events: each figure equals what was seeded, days and
// weeks counted in the business time zone (America/Los_Angeles).

let db: Db;
let isolated: { db: Db; drop(): Promise<void> };

// Thursday 19 November 2026, 23:30 in Los Angeles (PST, UTC-8): already Friday in UTC
const NOW = new Date("2026-11-20T07:30:00Z");

beforeAll(async () => {
  isolated = await isolatedDb();
  db = isolated.db;
});
afterAll(async () => {
  await isolated.drop();
});

test("every figure equals what was seeded", async () => {
  // users: created on business days around the 30-day window's edges (PDT until 1 November)
  const seeded: [string, Parameters<typeof createUser>[1]][] = [
    ["2026-11-20T07:00:00Z", { userType: "client" }], // 19 Nov 23:00 PST: today
    ["2026-11-20T07:10:00Z", { userType: "client", userStatus: "inactive" }], // today
    ["2026-11-19T07:59:00Z", { userType: "prospect", emailVerified: false }], // 18 Nov 23:59 PST
    ["2026-10-21T08:00:00Z", { userType: "user", emailVerified: false }], // 21 Oct 01:00 PDT: first day
    ["2026-10-21T06:59:00Z", { userType: "prospect", userStatus: "archived" }], // 20 Oct: before the window
    ["2026-09-01T12:00:00Z", { userType: "userAdmin" }],
    ["2026-09-01T12:00:00Z", { userType: "mainAdmin" }],
  ];
  const users = [];
  for (const [createdAt, overrides] of seeded) {
    users.push(await createUser(db, { ...overrides, createdAt: new Date(createdAt) }));
  }
  const client = users[0];
  if (!client) throw new Error("no client");

  // documents: two pending, one approved
  await createDocument(db, { userId: client.id, status: "pending" });
  await createDocument(db, { userId: client.id, status: "pending" });
  await createDocument(db, { userId: client.id, status: "approved" });

  // appointments (the business week is Monday 16 to Sunday 22 November)
  const at = (iso: string, status: "pending" | "confirmed" | "cancelled") =>
    createAppointment(db, { userId: client.id, dateTime: new Date(iso), status });
  await at("2026-11-19T18:00:00Z", "pending"); // today 10:00 PST
  await at("2026-11-19T19:00:00Z", "cancelled"); // today, cancelled
  await at("2026-11-16T17:00:00Z", "confirmed"); // Monday
  await at("2026-11-23T17:00:00Z", "pending"); // next Monday
  await at("2026-11-16T07:30:00Z", "pending"); // Sunday 15 Nov 23:30 PST: last week

  // emails: one failure within 24 hours, one older, one sent, one queued
  const email = (status: "failed" | "sent" | "queued", updatedAt: string) =>
    db.prisma.emailMessage.create({
      data: {
        dedupeKey: randomUUID(),
        toAddress: "someone@example.test",
        subject: "s",
        html: "<p>h</p>",
        text: "t",
        status,
        updatedAt: new Date(updatedAt),
      },
    });
  await email("failed", "2026-11-20T06:00:00Z");
  await email("failed", "2026-11-19T07:00:00Z");
  await email("sent", "2026-11-20T06:00:00Z");
  await email("queued", "2026-11-20T06:00:00Z");

  // events: two waiting in the outbox, one published, one dead letter
  const outbox = (published: boolean) =>
    db.prisma.$executeRaw`INSERT INTO outbox_events (id, subject, type, envelope, "publishedAt")
      VALUES (${randomUUID()}::uuid, 'test.subject', 'test.event', '{}'::jsonb, ${published ? NOW : null})`;
  await outbox(false);
  await outbox(false);
  await outbox(true);
  await db.prisma
    .$executeRaw`INSERT INTO dead_letters (consumer, "eventId", subject, envelope, error, attempts)
    VALUES ('test', ${randomUUID()}::uuid, 'test.subject', '{}'::jsonb, 'boom', 5)`;

  await audit(db.prisma, {
    action: "user.type_changed",
    actorId: users[6]?.id ?? null,
    targetType: "user",
    targetId: client.id,
  });
  await audit(db.prisma, { action: "storage.settings_updated", actorId: users[6]?.id ?? null });

  const main = await adminDashboard({ db, permissions: permissionsOf("mainAdmin"), now: NOW });
  const count = (list: { count: number }[], key: string, field: "userType" | "userStatus") =>
    (list as ({ count: number } & Record<string, unknown>)[]).find((b) => b[field] === key)?.count;

  expect(main.users.total).toBe(7);
  expect(Object.fromEntries(main.users.byType.map((b) => [b.userType, b.count]))).toEqual({
    user: 1,
    prospect: 2,
    client: 2,
    mainAdmin: 1,
    userAdmin: 1,
  });
  expect(Object.fromEntries(main.users.byStatus.map((b) => [b.userStatus, b.count]))).toEqual({
    active: 5,
    inactive: 1,
    archived: 1,
  });
  expect(count(main.users.byType, "client", "userType")).toBe(2);
  expect(main.users.unverified).toBe(2);
  const days = main.users.registrations;
  expect(days).toHaveLength(30);
  expect(days[0]).toEqual({ day: "2026-10-21", count: 1 });
  expect(days.at(-1)).toEqual({ day: "2026-11-19", count: 2 });
  expect(days.find((d) => d.day === "2026-11-18")).toEqual({ day: "2026-11-18", count: 1 });
  expect(days.reduce((n, d) => n + d.count, 0)).toBe(4);

  expect(main.pendingDocuments).toBe(2);
  expect(main.appointments).toEqual({ today: 1, thisWeek: 2, pendingThisWeek: 1 });
  expect(main.email).toEqual({ failedLast24h: 1, queued: 1 });
  expect(main.events).toMatchObject({ outboxBacklog: 2, deadLetters: 1 });
  // no Pro-app sync state yet: the NATS channel (when on) is healthy, nothing waits
  expect(main.sync).toEqual({
    health: config().ESRT_NATS ? "healthy" : "disabled",
    counts: { users: 0, synced: 0, pending: 0, failing: 0, dead: 0 },
    failingEndpoints: 0,
  });
  expect(main.recentActivity.map((e) => e.action)).toEqual(["storage.settings_updated", "user.type_changed"]);

  // a userAdmin sees the same figures, not the configuration entries, and fewer pages to follow
  const userAdmin = await adminDashboard({ db, permissions: permissionsOf("userAdmin"), now: NOW });
  expect(userAdmin.recentActivity.map((e) => e.action)).toEqual(["user.type_changed"]);
  expect(userAdmin.links.filter((l) => !l.allowed).map((l) => l.figure)).toEqual(["emailFailures"]);
  expect(main.links.every((l) => l.allowed)).toBe(true);
});
