import { apiRequest } from "@web/lib/api";
import { useEffect, useRef } from "react";

/** What GET /api/users/by-uniqueid/{uniqueId} answers. */
export interface UniqueIdLookup {
  id: number;
  uniqueId: string;
  firstName: string;
  lastName: string;
  companyName: string | null;
  esrtSynced: boolean;
}

/**
 * Looks the console's user up by unique id once when the console opens for a real user (spec §7);
 * the answer, which carries esrtSynced, is only logged. A failure is logged as a warning, never shown.
 */
export function useLookupByUniqueIdOnce(uniqueId: string, enabled: boolean): void {
  const lookedUp = useRef<string | null>(null);
  useEffect(() => {
    if (!enabled || lookedUp.current === uniqueId) return;
    lookedUp.current = uniqueId;
    apiRequest("GET", `/api/users/by-uniqueid/${encodeURIComponent(uniqueId)}`)
      .then((res) => res.json() as Promise<UniqueIdLookup>)
      .then(
        (found) =>
          console.info("ESRT Pro sync status", { uniqueId: found.uniqueId, esrtSynced: found.esrtSynced }),
        (error: unknown) => console.warn("Could not look the user up by unique id", error),
      );
  }, [uniqueId, enabled]);
}
