import { z } from "zod";
import { id, text } from "./primitives";

// The testing tools' inputs (/admin/testing, issue 12), shared by the page and the server.

export const DIAGNOSTICS_MESSAGES = {
  eventId: "Event ids are UUIDs",
  cursor: "Invalid cursor",
} as const;

/** The round trip to read back: the id startEventRoundTrip answered. */
export const roundTripInputSchema = z.object({
  eventId: text().pipe(z.uuid(DIAGNOSTICS_MESSAGES.eventId)),
});

/** A page of dead letters, newest first. */
export const deadLetterPageSchema = z.object({
  first: z.number().int().min(1).max(100).default(25),
  after: text().max(40).optional(),
});

/** The dead letter to deliver again. */
export const retryDeadLetterSchema = z.object({ id: id() });
