import { seal } from "@services/shared/sealed";
import { z } from "zod";
import {
  eventSchemas,
  eventTypes,
  InvalidEventError,
  newEventId,
  parseEnvelope,
  subjectFor,
  validateEvent,
} from "./index";

const registered = () => ({
  userId: 4,
  uniqueId: "ESRT-0004",
  email: "grace@example.com",
  firstName: "Grace",
  lastName: "Hopper",
  username: "grace",
  userType: "prospect" as const,
  companyName: null,
  userVersion: 1,
  sealedToken: seal("raw-verification-token"),
  tokenExpiresAt: new Date().toISOString(),
});

describe("domain event contracts", () => {
  it("names every event <aggregate>.<verb> and maps it to the subject <prefix>.<aggregate>.<verb>", () => {
    expect(eventTypes).toHaveLength(23);
    expect(eventTypes.filter((t) => t.startsWith("document."))).toEqual([
      "document.uploaded",
      "document.resubmitted",
      "document.approved",
      "document.rejected",
      "document.deleted",
    ]);
    for (const type of eventTypes)
      expect(type).toMatch(/^(user|appointment|document|esrt|diagnostics)\.[a-z_]+$/);
    expect(subjectFor("portal", "user.registered")).toBe("portal.user.registered");
  });

  it("carries no password, hash, security answer or raw token in any payload", () => {
    for (const type of eventTypes) {
      const keys = Object.keys(eventSchemas[type].payload.shape);
      for (const key of keys) {
        expect(`${type}.${key}`).not.toMatch(/password$|hash|answer|\.token$|resetToken/i);
      }
    }
    expect(Object.keys(eventSchemas["user.registered"].payload.shape)).toContain("sealedToken");
    expect(Object.keys(eventSchemas["user.password_reset_requested"].payload.shape)).toContain("sealedToken");
  });

  it("refuses a raw token where a sealed one belongs, and fields the schema does not know", () => {
    expect(() =>
      validateEvent({
        type: "user.registered",
        version: 1,
        payload: { ...registered(), sealedToken: "raw" },
      }),
    ).toThrow(InvalidEventError);
    expect(() =>
      validateEvent({ type: "user.registered", version: 1, payload: { ...registered(), passwordHash: "x" } }),
    ).toThrow(/passwordHash/);
    expect(() => validateEvent({ type: "user.registered", version: 2, payload: registered() })).toThrow(
      /version/,
    );
    expect(() => validateEvent({ type: "user.registered", version: 1, payload: registered() })).not.toThrow();
  });

  it("reads an envelope back, narrowing the payload by type", () => {
    const raw = {
      id: newEventId(),
      type: "user.registered",
      version: 1,
      occurredAt: new Date().toISOString(),
      actor: null,
      correlationId: "c-1",
      payload: { ...registered(), addedByANewerPublisher: true },
    };
    const env = parseEnvelope(JSON.parse(JSON.stringify(raw)));
    if (env.type !== "user.registered") throw new Error("wrong type");
    expect(env.payload.username).toBe("grace");
    expect(env.payload).not.toHaveProperty("addedByANewerPublisher");
    expect(() => parseEnvelope({ ...raw, id: "not-a-uuid" })).toThrow(/invalid envelope/);
    expect(() => parseEnvelope({ ...raw, type: "user.exploded" })).toThrow(/unknown event type/);
    expect(() => parseEnvelope({ ...raw, payload: { userId: 4 } })).toThrow(InvalidEventError);
  });

  it("gives UUIDv7 event ids that sort by creation time", () => {
    const a = newEventId();
    const b = newEventId();
    expect(z.uuidv7().safeParse(a).success).toBe(true);
    expect(a < b).toBe(true);
  });
});
