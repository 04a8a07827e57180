import { isAppointmentError } from "@services/appointment";
import { isAppError } from "@services/shared/errors";
import { isUserError } from "@services/user";
import { normalizeError, toGraphQLError } from "../errors";

/**
 * Runs an identity operation for a resolver: the service's expected failures (UserError, AppError)
 * become AppErrors, which fields with `errors: { types: [AppError] }` return as typed results;
 * anything else is rethrown as it is (an internal error). An outage (UNAVAILABLE: Redis away) is no
 * answer to the question asked: it becomes a top-level error answered with HTTP 503, as on REST.
 */
export async function runIdentity<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUserError(err) || isAppError(err) || isAppointmentError(err)) {
      const appError = normalizeError(err);
      if (appError.code === "UNAVAILABLE") throw toGraphQLError(appError);
      throw appError;
    }
    throw err;
  }
}
