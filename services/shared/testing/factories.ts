import { randomBytes, randomInt } from "node:crypto";
import { generateUniqueId, hashPassword } from "@services/user";
import type { Db } from "../db";
import {
  type Appointment,
  type Document,
  Prisma,
  type SecurityQuestions,
  type User,
} from "../generated/prisma/client";

// Test data factories: every call makes rows with unique values, so test files running in
// parallel against the run's one database never collide. Overrides win over the defaults.

/** The password every factory-made user has unless `plainPassword` says otherwise. */
export const TEST_PASSWORD = "Test-Password-1!";

let counter = 0;
const processTag = randomBytes(3).toString("hex");

/** A value no other factory call (in any test process of the run) returns. */
export function uniqueSuffix(): string {
  counter += 1;
  return `${processTag}${counter}`;
}

let defaultHash: Promise<string> | undefined;

function passwordHash(plain: string | undefined): Promise<string> {
  if (plain !== undefined && plain !== TEST_PASSWORD) return hashPassword(plain);
  defaultHash ??= hashPassword(TEST_PASSWORD);
  return defaultHash;
}

export type UserOverrides = Partial<Omit<Prisma.UserUncheckedCreateInput, "password">> & {
  /** the user's password in clear; stored hashed (default TEST_PASSWORD) */
  plainPassword?: string;
};

/**
 * Creates a user (a verified, active prospect by default) whose password is TEST_PASSWORD.
 * @throws Prisma errors, for example when an override repeats a taken username.
 */
export async function createUser(db: Db, overrides: UserOverrides = {}): Promise<User> {
  const { plainPassword, ...fields } = overrides;
  const suffix = uniqueSuffix();
  return db.prisma.user.create({
    data: {
      uniqueId: generateUniqueId(),
      username: `user_${suffix}`,
      email: `user_${suffix}@example.test`,
      firstName: "Test",
      lastName: `User ${suffix}`,
      emailVerified: true,
      ...fields,
      password: await passwordHash(plainPassword),
    },
  });
}

/**
 * Creates a mainAdmin (or, with `userType: "userAdmin"`, a user admin) with full access.
 * @throws Prisma errors from createUser.
 */
export async function createAdmin(db: Db, overrides: UserOverrides = {}): Promise<User> {
  return createUser(db, { userType: "mainAdmin", accessLevel: "full", ...overrides });
}

export type DocumentOverrides = Partial<Prisma.DocumentUncheckedCreateInput> & {
  /** false: no document_versions and document_history rows (default: version 1's, as an upload makes them) */
  withVersion?: boolean;
};

/**
 * Creates a pending PDF document as an upload leaves it (storage key, sniffed type, hash, version 1
 * with its document_versions and document_history rows); makes a client to own it unless `userId` is given. No stored
 * object exists under its key.
 * @throws Prisma errors, for example an unknown userId.
 */
export async function createDocument(db: Db, overrides: DocumentOverrides = {}): Promise<Document> {
  const { withVersion = true, ...fields } = overrides;
  const userId = fields.userId ?? (await createUser(db, { userType: "client" })).id;
  const suffix = uniqueSuffix();
  const storageKey = `documents/test/${suffix}-${randomBytes(8).toString("hex")}`;
  const sha256 = randomBytes(32).toString("hex");
  const document = await db.prisma.document.create({
    data: {
      title: `Statement ${suffix}`,
      fileName: `statement-${suffix}.pdf`,
      fileUrl: "/api/documents/pending/download",
      fileType: "pdf",
      fileSize: 1234,
      mimeType: "application/pdf",
      sha256,
      storageBackend: "local",
      storageKey,
      uploadedById: userId,
      ...fields,
      userId,
    },
  });
  const fixed = await db.prisma.document.update({
    where: { id: document.id },
    data: { fileUrl: `/api/documents/${document.id}/download` },
  });
  if (withVersion) {
    await db.prisma.documentVersion.create({
      data: {
        documentId: fixed.id,
        version: fixed.version,
        fileName: fixed.fileName,
        fileType: fixed.fileType,
        fileSize: fixed.fileSize ?? 0,
        mimeType: fixed.mimeType ?? "application/octet-stream",
        sha256: fixed.sha256 ?? sha256,
        storageBackend: fixed.storageBackend,
        storageKey: fixed.storageKey ?? storageKey,
        uploadedById: fixed.uploadedById,
        createdAt: fixed.createdAt,
      },
    });
    await db.prisma.documentHistory.create({
      data: {
        documentId: fixed.id,
        version: fixed.version,
        action: fixed.fromTeam ? "report" : "uploaded",
        actorId: fixed.uploadedById,
        actorName: fixed.uploadedByName ?? "Test Client",
        createdAt: fixed.createdAt,
      },
    });
  }
  return fixed;
}

const BUSINESS_ZONE = "America/Los_Angeles";

/** The UTC instant of a wall-clock time in the business time zone. */
function businessTime(year: number, month: number, day: number, hour: number, minute: number): Date {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: BUSINESS_ZONE,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  }).formatToParts(new Date(asUtc));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const shown = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"));
  return new Date(asUtc + (asUtc - shown));
}

/**
 * A random bookable slot: a weekday 1 to 30 days ahead, on the half hour from 09:00 to 16:30
 * Pacific time. Tests that need a day nobody else books use the later part of the 60-day window:
 * the REST tests about 45 days ahead, the browser tests 49 to 59 (e2e/support/appointments.ts).
 */
export function randomBusinessSlot(): Date {
  for (;;) {
    const day = new Date(Date.now() + randomInt(1, 31) * 86_400_000);
    const local = new Intl.DateTimeFormat("en-CA", {
      timeZone: BUSINESS_ZONE,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      weekday: "short",
    }).formatToParts(day);
    const get = (type: string) => local.find((p) => p.type === type)?.value ?? "";
    if (get("weekday") === "Sat" || get("weekday") === "Sun") continue;
    const slot = randomInt(16);
    return businessTime(
      Number(get("year")),
      Number(get("month")),
      Number(get("day")),
      9 + Math.floor(slot / 2),
      (slot % 2) * 30,
    );
  }
}

/**
 * Creates a pending phone appointment in a free business slot (unless `dateTime` is given); makes
 * a client to hold it unless `userId` is given.
 * @throws Prisma errors, for example P2002 when a given dateTime is already booked.
 */
export async function createAppointment(
  db: Db,
  overrides: Partial<Prisma.AppointmentUncheckedCreateInput> = {},
): Promise<Appointment> {
  const userId = overrides.userId ?? (await createUser(db, { userType: "client" })).id;
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.prisma.appointment.create({
        data: { appointmentType: "phone", dateTime: randomBusinessSlot(), ...overrides, userId },
      });
    } catch (err) {
      const slotTaken = err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
      if (!slotTaken || overrides.dateTime !== undefined || attempt >= 20) throw err;
    }
  }
}

/** The answers createSecurityQuestions stores (hashed), in clear. */
export const TEST_SECURITY_ANSWERS = ["Rex", "Springfield", "Blue"] as const;

/**
 * Gives a user three security questions whose answers are TEST_SECURITY_ANSWERS (stored hashed of
 * the trimmed, lower-cased answer) and marks securityQuestionsSet.
 * @throws Prisma errors, for example when the user already has questions.
 */
export async function createSecurityQuestions(db: Db, userId: number): Promise<SecurityQuestions> {
  const [a1, a2, a3] = await Promise.all(
    TEST_SECURITY_ANSWERS.map((a) => hashPassword(a.trim().toLowerCase())),
  );
  const questions = await db.prisma.securityQuestions.create({
    data: {
      userId,
      question1: "What was the name of your first pet?",
      question2: "In which city were you born?",
      question3: "What is your favourite colour?",
      answer1: a1 ?? "",
      answer2: a2 ?? "",
      answer3: a3 ?? "",
    },
  });
  await db.prisma.user.update({ where: { id: userId }, data: { securityQuestionsSet: true } });
  return questions;
}
