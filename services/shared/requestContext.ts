import { AsyncLocalStorage } from "node:async_hooks";

// The request being served (gateway), so that code far from the HTTP layer (audit rows) knows which
// request and address it acts for without every caller passing them on. Workers have none.

/** What the audit log takes from the request: its id (x-request-id) and the client's address. */
export interface RequestContext {
  requestId: string;
  ip: string | null;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` (and everything it starts) as part of the request `context`. */
export function runInRequest<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The request being served, or undefined outside one (workers, start-up, tests without one). */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}
