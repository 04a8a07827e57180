import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { type AsyncAPIDocumentInterface, Parser } from "@asyncapi/parser";
import { ackSubject, userSubject } from "@services/esrt-sync";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import {
  endpointTestPayloadSchema,
  natsAckSchema,
  userSnapshotSchema,
  userSyncPayloadSchema,
} from "./contract";

// docs/asyncapi.yaml is the Pro app's contract; schema/esrt/contract.ts is the code's. The document
// must parse without errors, and each payload schema in it must have the same shape as the zod
// schema the code uses (converted with z.toJSONSchema): the same property names, required ones,
// types, enums and constants, all the way down. A field added on one side only fails here.

const DOC = path.join(__dirname, "../../docs/asyncapi.yaml");

type Json = Record<string, unknown>;

/** The parts of a JSON Schema the contract is about. */
interface Shape {
  types: string[];
  enum?: string[];
  const?: unknown;
  format?: string;
  properties?: Record<string, Shape>;
  required?: string[];
  items?: Shape;
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function typesOf(schema: Json): string[] {
  const { type } = schema;
  const own = typeof type === "string" ? [type] : Array.isArray(type) ? type.map(String) : [];
  const members = [schema.anyOf, schema.oneOf].flatMap((list) => (Array.isArray(list) ? list : []));
  const fromMembers = members.filter(isObject).flatMap(typesOf);
  const all = [...own, ...fromMembers];
  if (all.length === 0 && "const" in schema) all.push(typeof schema.const);
  return [...new Set(all)].sort();
}

/** The contract's view of a schema (either side), for toEqual. */
function shapeOf(schema: unknown): Shape {
  if (!isObject(schema)) throw new Error(`not a schema: ${JSON.stringify(schema)}`);
  const shape: Shape = { types: typesOf(schema) };
  if (Array.isArray(schema.enum)) shape.enum = schema.enum.map(String).sort();
  if ("const" in schema) shape.const = schema.const;
  if (typeof schema.format === "string") shape.format = schema.format;
  if (isObject(schema.properties)) {
    shape.properties = Object.fromEntries(
      Object.entries(schema.properties)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, sub]) => [name, shapeOf(sub)]),
    );
    shape.required = Array.isArray(schema.required) ? schema.required.map(String).sort() : [];
  }
  if (isObject(schema.items)) shape.items = shapeOf(schema.items);
  return shape;
}

const zodShape = (schema: z.ZodType) =>
  shapeOf(z.toJSONSchema(schema, { io: "input", unrepresentable: "throw" }));

/** Every message of the document and the zod schema its payload must match. */
const PAYLOADS: Record<string, z.ZodType> = {
  userSync: userSyncPayloadSchema,
  userSyncWebhook: userSyncPayloadSchema,
  endpointTestWebhook: endpointTestPayloadSchema,
  ack: natsAckSchema,
};

let document: AsyncAPIDocumentInterface;

beforeAll(async () => {
  const { document: parsed, diagnostics } = await new Parser().parse(readFileSync(DOC, "utf8"));
  // severity 0 is an error (1 warning, 2 information, 3 hint)
  expect(
    diagnostics.filter((d) => d.severity === 0).map((d) => `${d.code}: ${d.message} at ${d.path.join(".")}`),
  ).toEqual([]);
  if (!parsed) throw new Error("docs/asyncapi.yaml did not parse");
  document = parsed;
}, 60_000);

describe("docs/asyncapi.yaml", () => {
  it("is AsyncAPI 3.0.0 with no warnings", async () => {
    expect(document.version()).toBe("3.0.0");
    const { diagnostics } = await new Parser().parse(readFileSync(DOC, "utf8"));
    expect(diagnostics.filter((d) => d.severity === 1).map((d) => d.message)).toEqual([]);
  });

  it("describes every message the code has a schema for, and no other", () => {
    expect(
      document
        .allMessages()
        .all()
        .map((m) => m.id())
        .sort(),
    ).toEqual(Object.keys(PAYLOADS).sort());
  });

  it.each(Object.entries(PAYLOADS))("message %s: its payload has the zod schema's shape", (id, schema) => {
    const message = document.allMessages().get(id);
    const payload = message?.payload()?.json();
    expect(shapeOf(payload)).toEqual(zodShape(schema));
  });

  it("the comparison notices a field added on one side only", () => {
    const payload = document.allMessages().get("userSync")?.payload()?.json();
    const extended = userSyncPayloadSchema.extend({
      data: userSnapshotSchema.extend({ nickname: z.string() }),
    });
    expect(shapeOf(payload)).not.toEqual(zodShape(extended));
    const optional = userSyncPayloadSchema.extend({ data: userSnapshotSchema.partial({ phone: true }) });
    expect(shapeOf(payload)).not.toEqual(zodShape(optional));
    const widened = userSyncPayloadSchema.extend({
      data: userSnapshotSchema.extend({ accessLevel: z.enum(["full", "limited", "none"]) }),
    });
    expect(shapeOf(payload)).not.toEqual(zodShape(widened));
  });

  it("names the subjects the code publishes and consumes", () => {
    const addresses = Object.fromEntries(
      document
        .channels()
        .all()
        .map((c) => [c.id(), c.address()]),
    );
    expect(addresses.userSnapshot).toBe(userSubject("{prefix}", "{uniqueId}"));
    expect(addresses.userAck).toBe(ackSubject("{prefix}", "{uniqueId}"));
  });

  it("describes the webhook as a POST with the Standard Webhooks headers", () => {
    const operation = document.operations().get("receiveWebhook");
    expect(operation?.action()).toBe("receive");
    expect(operation?.bindings().get("http")?.value()).toMatchObject({ method: "POST" });
    for (const id of ["userSyncWebhook", "endpointTestWebhook"]) {
      const headers: unknown = document.allMessages().get(id)?.headers()?.json();
      expect(shapeOf(headers).required).toEqual(
        expect.arrayContaining(["webhook-id", "webhook-timestamp", "webhook-signature"]),
      );
    }
  });

  it("explains the signature as the standardwebhooks library makes it", () => {
    // what the document says: v1, base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` keyed with the
    // base64 after whsec_
    const secret = `whsec_${Buffer.from("a secret of the endpoint, 32 bytes").toString("base64")}`;
    const id = "msg_0193a1b2c3d4e5f60718293a4b5c6d7e";
    const at = new Date("2026-11-25T10:00:00Z");
    const timestamp = Math.floor(at.getTime() / 1000);
    const body = JSON.stringify({ type: "endpoint.test" });
    const described = `v1,${createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
      .update(`${id}.${timestamp}.${body}`)
      .digest("base64")}`;
    expect(new Webhook(secret).sign(id, at, body)).toBe(described);
    const headers: unknown = document.allMessages().get("userSyncWebhook")?.headers()?.json();
    const properties = isObject(headers) && isObject(headers.properties) ? headers.properties : {};
    const signature = properties["webhook-signature"];
    const pattern = new RegExp(isObject(signature) ? String(signature.pattern) : "^$");
    expect(pattern.test(described)).toBe(true);
    expect(pattern.test(`${described} ${described}`)).toBe(true);
  });
});
