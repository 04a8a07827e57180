/**
 * The last x-request-id the client saw on an answer of the gateway (REST or GraphQL), which the error
 * screens show so a report can be matched with the server's log line.
 */
let last: string | undefined;

/** Notes the x-request-id header of `res`, when it has one. */
export function recordRequestId(res: Response): void {
  const id = res.headers?.get?.("x-request-id");
  if (id) last = id;
}

/** The last x-request-id seen, or undefined before any answer carried one. */
export function lastRequestId(): string | undefined {
  return last;
}

/** `fetch` that notes each answer's x-request-id (given to Apollo's HttpLink). */
export const recordingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  recordRequestId(res);
  return res;
};
