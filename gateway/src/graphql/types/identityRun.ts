import { isAppointmentError } from "../../../../services/appointment/errors";
import { isAppError } from "../../../../services/shared/errors";
import { isUserError } from "../../../../services/user/errors";
import { normalizeError } from "../../errors";

/**
 * Runs an identity operation for a resolver: the service's expected failures (UserError, AppError)
 * become AppErrors, which fields with `errors: { types: [AppError] }` return as typed results;
 * anything else is rethrown as it is (an internal error).
 */
export async function runIdentity<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUserError(err) || isAppError(err) || isAppointmentError(err)) throw normalizeError(err);
    throw err;
  }
}
