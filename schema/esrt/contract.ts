import { z } from "zod";
import { text } from "../validation/primitives";
import { uniqueIdSchema } from "../validation/user";

// The contract between the portal and the Pro app (ESRT Pro), the same on both channels (issue 10):
// a JetStream message on `<ESRT_SUBJECT_PREFIX>.user.<uniqueId>` and a Standard Webhooks POST carry
// the same JSON payload; the Pro app acknowledges a version on `<prefix>.ack.<uniqueId>` or with
// POST /api/esrt/ack. docs/asyncapi.yaml describes it; a test holds the two equal.

/** What the Pro app knows of a user: the sync snapshot at one version of the user. */
export const userSnapshotSchema = z.object({
  uniqueId: z.string().min(1),
  username: z.string().min(1),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  companyName: z.string().nullable(),
  userType: z.enum(["user", "prospect", "client", "mainAdmin", "userAdmin"]),
  userStatus: z.enum(["active", "inactive", "archived"]),
  accessLevel: z.enum(["full", "limited"]),
  /** the user's version: rises with every change; a newer one supersedes an older one */
  version: z.number().int().positive(),
});

export type UserSnapshot = z.infer<typeof userSnapshotSchema>;

/** The payload type of a user's snapshot. */
export const USER_SYNC_TYPE = "user.sync";
/** The payload type of an endpoint test an administrator sends from the sync page. */
export const ENDPOINT_TEST_TYPE = "endpoint.test";

/** A user's snapshot, as sent on NATS and by webhook (Standard Webhooks payload shape). */
export const userSyncPayloadSchema = z.object({
  type: z.literal(USER_SYNC_TYPE),
  /** when the message was made (ISO 8601, UTC) */
  timestamp: z.iso.datetime({ offset: true }),
  data: userSnapshotSchema,
});

/** A test event: proves the endpoint receives and verifies the portal's webhooks. */
export const endpointTestPayloadSchema = z.object({
  type: z.literal(ENDPOINT_TEST_TYPE),
  timestamp: z.iso.datetime({ offset: true }),
  data: z.object({ message: z.string(), endpointId: z.number().int().positive() }),
});

/** Every payload the portal sends the Pro app. */
export const proAppPayloadSchema = z.discriminatedUnion("type", [
  userSyncPayloadSchema,
  endpointTestPayloadSchema,
]);

export type UserSyncPayload = z.infer<typeof userSyncPayloadSchema>;
export type EndpointTestPayload = z.infer<typeof endpointTestPayloadSchema>;
export type ProAppPayload = z.infer<typeof proAppPayloadSchema>;

/** The version the Pro app acknowledges, published on `<prefix>.ack.<uniqueId>`. */
export const natsAckSchema = z.object({ version: z.number().int().positive().max(2_147_483_647) });

/** POST /api/esrt/ack: the Pro app acknowledges one user's version. */
export const apiAckSchema = z.object({
  uniqueId: uniqueIdSchema,
  version: z
    .number({ error: "version must be a whole number from 1" })
    .int("version must be a whole number from 1")
    .min(1, "version must be a whole number from 1")
    .max(2_147_483_647, "version must be a whole number from 1"),
});

/** What POST /api/esrt/ack answers: the user's sync state after the acknowledgement. */
export interface AckResult {
  uniqueId: string;
  acknowledgedVersion: number;
  latestVersion: number;
  esrtSynced: boolean;
}

/** A name for an API key or an endpoint's description. */
export const esrtLabelSchema = text().trim().max(200, "At most 200 characters");
