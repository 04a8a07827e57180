import { adminListFiltersSchema } from "@services/appointment";
import type { z } from "zod";
import {
  APPOINTMENT_MESSAGES,
  appointmentDateTimeSchema,
  bookingSchema,
  cancelReasonSchema,
  timeZoneSchema,
} from "./appointment";
import {
  hasUnsafeCharacters,
  ID_MESSAGE,
  idSchema,
  MAX_DB_ID,
  text,
  UNSAFE_TEXT_MESSAGE,
} from "./primitives";
import {
  changePasswordSchema,
  loginSchema,
  notesSchema,
  registrationSchema,
  resetConfirmSchema,
  resetRequestSchema,
  securityAnswersSchema,
  securityQuestionsSchema,
  uniqueIdSchema,
  verifyEmailSchema,
} from "./user";

// Every input schema refuses, in every text field, what PostgreSQL cannot store (NUL, unpaired
// surrogates), and in every id field what its integer columns cannot hold: the shared schemas are the
// one place where input is made safe (CONVENTIONS: "handlers never see raw input").

type Path = (string | number)[];

function setAt(value: unknown, path: Path, leaf: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return leaf;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[Number(head)] = setAt(copy[Number(head)], rest, leaf);
    return copy;
  }
  const record = (value ?? {}) as Record<string, unknown>;
  return { ...record, [head]: setAt(record[head], rest, leaf) };
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>(
    (v, key) => (v !== null && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined),
    value,
  );
}

interface Case {
  name: string;
  schema: z.ZodType;
  valid: unknown;
  text: Path[];
  ids: Path[];
}

const slot = "2030-01-07T17:00:00.000Z";
const questions = [
  { question: "First pet's name?", answer: "Rex" },
  { question: "City of birth?", answer: "Springfield" },
  { question: "Favourite colour?", answer: "Blue" },
];

const cases: Case[] = [
  {
    name: "registrationSchema",
    schema: registrationSchema,
    valid: {
      username: "jdoe",
      email: "jdoe@example.com",
      password: "s3cret-pass",
      firstName: "Jane",
      lastName: "Doe",
      phone: "+1 555 010 0100",
      companyName: "Acme",
      notes: "Hello",
    },
    text: [
      ["username"],
      ["email"],
      ["password"],
      ["firstName"],
      ["lastName"],
      ["phone"],
      ["companyName"],
      ["notes"],
    ],
    ids: [],
  },
  {
    name: "loginSchema",
    schema: loginSchema,
    valid: { login: "jdoe", password: "s3cret-pass" },
    text: [["login"], ["password"]],
    ids: [],
  },
  {
    name: "resetRequestSchema",
    schema: resetRequestSchema,
    valid: { email: "jdoe@example.com" },
    text: [["email"]],
    ids: [],
  },
  {
    name: "resetConfirmSchema",
    schema: resetConfirmSchema,
    valid: { token: "t".repeat(32), password: "s3cret-pass" },
    text: [["token"], ["password"]],
    ids: [],
  },
  {
    name: "verifyEmailSchema",
    schema: verifyEmailSchema,
    valid: { token: "t".repeat(32) },
    text: [["token"]],
    ids: [],
  },
  {
    name: "securityQuestionsSchema",
    schema: securityQuestionsSchema,
    valid: { userId: 7, questions },
    text: [
      ["questions", 0, "question"],
      ["questions", 1, "answer"],
    ],
    ids: [["userId"]],
  },
  {
    name: "securityAnswersSchema",
    schema: securityAnswersSchema,
    valid: { userId: 7, answers: [{ questionIndex: 1, answer: "Springfield" }] },
    text: [["answers", 0, "answer"]],
    ids: [["userId"]],
  },
  { name: "notesSchema", schema: notesSchema, valid: { notes: "Call me" }, text: [["notes"]], ids: [] },
  {
    name: "changePasswordSchema",
    schema: changePasswordSchema,
    valid: { currentPassword: "0ld-password", newPassword: "s3cret-pass" },
    text: [["currentPassword"], ["newPassword"]],
    ids: [],
  },
  { name: "uniqueIdSchema", schema: uniqueIdSchema, valid: "ESRT-ABCDEFGH", text: [[]], ids: [] },
  {
    name: "bookingSchema",
    schema: bookingSchema(new Date("2030-01-02T12:00:00Z")),
    valid: { userId: 7, appointmentType: "phone", dateTime: slot, notes: "About invoices" },
    text: [["dateTime"], ["notes"]],
    ids: [["userId"]],
  },
  {
    name: "cancelReasonSchema",
    schema: cancelReasonSchema,
    valid: { reason: "Ill" },
    text: [["reason"]],
    ids: [],
  },
  {
    name: "appointmentDateTimeSchema",
    schema: appointmentDateTimeSchema,
    valid: slot,
    text: [[]],
    ids: [],
  },
  { name: "timeZoneSchema", schema: timeZoneSchema, valid: "Europe/Paris", text: [[]], ids: [] },
  {
    name: "adminListFiltersSchema",
    schema: adminListFiltersSchema,
    valid: { from: "2030-01-01", to: "2030-01-31", userId: "7" },
    text: [["from"], ["to"]],
    ids: [["userId"]],
  },
];

describe("text()", () => {
  it.each([
    ["a NUL", "a\u0000b"],
    ["a lone high surrogate", "caf\ud800e"],
    ["a lone low surrogate", "\udc00x"],
    ["a high surrogate at the end", "abc\udbff"],
    ["two high surrogates", "\ud83d\ud83d"],
  ])("refuses %s", (_name, value) => {
    expect(hasUnsafeCharacters(value)).toBe(true);
    const result = text().safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(UNSAFE_TEXT_MESSAGE);
  });

  it.each([["plain"], ["café"], ["emoji 😀 pairs"], ["tabs\tand\nnewlines"], [""]])("accepts %j", (value) => {
    expect(hasUnsafeCharacters(value)).toBe(false);
    expect(text().safeParse(value).success).toBe(true);
  });

  it("still chains string rules", () => {
    expect(text().trim().min(2, "short").safeParse("  a ").error?.issues[0]?.message).toBe("short");
  });
});

describe("idSchema", () => {
  it.each([[1], [42], [MAX_DB_ID], ["1"], ["2147483647"], ["007"]])("accepts %j", (value) => {
    expect(idSchema.safeParse(value).success).toBe(true);
  });

  it.each([
    [0],
    [-1],
    [1.5],
    [MAX_DB_ID + 1],
    [Number.MAX_SAFE_INTEGER],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    ["2147483648"],
    ["99999999999"],
    ["1e3"],
    [" 7"],
    ["0x10"],
    [""],
    ["\u0000"],
    [true],
    [null],
    [[1]],
    [{ valueOf: 1 }],
  ])("refuses %j with one clear message", (value) => {
    const result = idSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([ID_MESSAGE]);
  });
});

describe.each(cases)("$name", ({ schema, valid, text: textPaths, ids }) => {
  it("accepts its valid sample", () => {
    expect(schema.safeParse(valid).error?.issues).toBeUndefined();
  });

  it("refuses NUL and unpaired surrogates in each text field", () => {
    for (const path of textPaths) {
      const original = String(getAt(valid, path));
      for (const bad of [`${original}\u0000`, `\ud800${original}`, `${original}\udfff`]) {
        const result = schema.safeParse(setAt(valid, path, bad));
        expect(result.success).toBe(false);
        expect(result.error?.issues.map((i) => i.message)).toContain(UNSAFE_TEXT_MESSAGE);
        expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(
          result.error?.issues.map(() => path.join(".")),
        );
      }
    }
  });

  it("refuses ids out of the database's range in each id field", () => {
    for (const path of ids) {
      for (const bad of [MAX_DB_ID + 1, "2147483648", 0, -3, "abc", true]) {
        const result = schema.safeParse(setAt(valid, path, bad));
        expect(result.success).toBe(false);
        expect(result.error?.issues.map((i) => i.path.join("."))).toEqual([path.join(".")]);
      }
    }
  });
});

describe("appointment dateTime", () => {
  const now = new Date("2030-01-02T12:00:00Z");

  it.each([
    ["next tuesday"],
    [""],
    ["2026-12-01 17:00"],
    ["2030-02-30T17:00:00Z"],
    ["2030-01-07T17:00:00"],
    [1893949200000],
    [null],
    [{ toString: 1 }],
  ])("answers %j with the spec's message instead of throwing", (dateTime) => {
    const result = bookingSchema(now).safeParse({ appointmentType: "phone", dateTime });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(APPOINTMENT_MESSAGES.dateTime);
    expect(appointmentDateTimeSchema.safeParse(dateTime).success).toBe(false);
  });

  it("still checks the slot rules of a date that parses", () => {
    const result = bookingSchema(now).safeParse({
      appointmentType: "phone",
      dateTime: "2030-01-05T17:00:00Z",
    });
    expect(result.error?.issues.map((i) => i.message)).toEqual([APPOINTMENT_MESSAGES.weekday]);
  });
});

describe("timeZoneSchema", () => {
  it("keeps a valid IANA zone, drops an unknown one and refuses what is not text", () => {
    expect(timeZoneSchema.parse("America/New_York")).toBe("America/New_York");
    expect(timeZoneSchema.parse("Mars/Olympus_Mons")).toBeNull();
    expect(timeZoneSchema.parse(undefined)).toBeNull();
    expect(timeZoneSchema.parse(null)).toBeNull();
    for (const bad of [{ toString: 1 }, 42, ["Europe/Paris"], "Europe/Paris\u0000"]) {
      expect(timeZoneSchema.safeParse(bad).success).toBe(false);
    }
  });
});
