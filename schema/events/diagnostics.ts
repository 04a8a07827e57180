import { z } from "zod";
import { defineEvent, id } from "./define";

// The testing tools' events (issue 12): the round trip an administrator starts on /admin/testing.

/**
 * An administrator asked every service's consumer to answer: each service runs a consumer of this
 * event that does nothing but record it in its inbox (processed_events), so the page reads when each
 * one handled it. Carries nothing but who asked.
 */
export const diagnosticsRoundTripRequested = defineEvent(
  "diagnostics.round_trip_requested",
  1,
  z.object({ requestedBy: id }),
);

export const diagnosticsEvents = [diagnosticsRoundTripRequested] as const;
