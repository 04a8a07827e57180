import { text } from "@schema/validation/primitives";
import type { Db } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { type ClientSummary, searchActiveClients } from "@services/user";
import { z } from "zod";
import type { DocumentActor } from "./actor";

// The report form's client picker: who a reviewer may send a report to. The users table is the user
// service's; this is a read-only lookup of clients' public fields, as documents.user already is.

export const CLIENTS_FORBIDDEN_MESSAGE = "You don't have permission to send reports to clients";

const clientSearchSchema = z.object({
  search: text().trim().max(200).optional(),
  first: z
    .number({ error: "first must be a whole number from 1 to 50" })
    .int("first must be a whole number from 1 to 50")
    .min(1, "first must be a whole number from 1 to 50")
    .max(50, "first must be a whole number from 1 to 50")
    .default(20),
});

/** A client as the picker shows it. */
export type DocumentClientView = ClientSummary;

/**
 * Active users of type client, for a reviewer (approve:documents) choosing whom a report is for:
 * every word of `search` must be a case-insensitive part of the username, email, first or last name
 * or company name. Sorted by last name, first name; at most `first` (1 to 50, default 20).
 * @throws AppError FORBIDDEN (no approve:documents), VALIDATION_FAILED (search or first out of range).
 */
export async function documentClients(props: {
  db: Db;
  actor: DocumentActor;
  search?: string | null;
  first?: number | null;
}): Promise<DocumentClientView[]> {
  if (!props.actor.approve) throw new AppError("FORBIDDEN", CLIENTS_FORBIDDEN_MESSAGE);
  const parsed = clientSearchSchema.safeParse({
    search: props.search ?? undefined,
    first: props.first ?? undefined,
  });
  if (!parsed.success) {
    throw new AppError("VALIDATION_FAILED", parsed.error.issues[0]?.message ?? "Invalid search");
  }
  const words = (parsed.data.search ?? "").split(/\s+/).filter(Boolean);
  return searchActiveClients({ db: props.db, words, first: parsed.data.first });
}
