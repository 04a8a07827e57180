import { z } from "zod";
import { defineEvent, id } from "./define";

// The Pro-app sync service's events (issue 10). The user service keeps users.esrtSynced from them.

/**
 * A user's sync state changed: a newer version to deliver, or the Pro app acknowledged one. `seq`
 * rises with every change of the state, so a consumer applies a report only when it is newer than
 * the one it applied last (reports may arrive late or twice).
 */
export const esrtUserSyncChanged = defineEvent(
  "esrt.user_sync_changed",
  1,
  z.object({
    userId: id,
    uniqueId: z.string().min(1),
    latestVersion: z.number().int().positive(),
    acknowledgedVersion: z.number().int().min(0),
    /** acknowledgedVersion >= latestVersion */
    synced: z.boolean(),
    seq: z.number().int().positive(),
  }),
);

export const esrtEvents = [esrtUserSyncChanged] as const;
