import { z } from "zod";
import { defineEvent, id, isoDate } from "./define";

// Sync of users to the Pro app (ESRT Pro).

export const esrtUserSyncRequested = defineEvent(
  "esrt.user_sync_requested",
  1,
  z.object({
    userId: id,
    uniqueId: z.string().min(1),
    /** the user version the Pro app must reach */
    userVersion: z.number().int().positive(),
    /** the event that made the sync necessary, or "manual" */
    reason: z.string().min(1),
  }),
);

export const esrtUserSynced = defineEvent(
  "esrt.user_synced",
  1,
  z.object({
    userId: id,
    uniqueId: z.string().min(1),
    userVersion: z.number().int().positive(),
    channel: z.enum(["nats", "webhook"]),
    acknowledgedAt: isoDate,
  }),
);

export const esrtEvents = [esrtUserSyncRequested, esrtUserSynced] as const;
