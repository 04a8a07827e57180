import type { TwoFactorChange } from "@schema/events/user";
import { audit } from "@services/shared/audit";
import type { Tx } from "@services/shared/db";
import { emit } from "@services/shared/events";
import { INVALID_TWO_FACTOR_CODE_MESSAGE, UserError } from "../errors";

/** The refusal of a code (or passkey) that did not hold, at the form's `code` field. */
export function invalidCode(message = INVALID_TWO_FACTOR_CODE_MESSAGE): UserError {
  return new UserError("INVALID_TWO_FACTOR_CODE", message, { errors: { code: [message] } });
}

/**
 * Records a change to a user's two-factor sign-in in the caller's transaction: an audit row
 * (`user.two_factor_<change>`) and user.two_factor_changed, whose email tells the user.
 */
export async function recordTwoFactorChange(
  tx: Tx,
  props: {
    user: { id: number; email: string; firstName: string };
    change: TwoFactorChange;
    /** who made it: the user (the default), or (a reset) the mainAdmin */
    actorId?: number;
    ip?: string | null;
    passkeyName?: string;
    metadata?: Record<string, unknown>;
  },
): Promise<void> {
  const { user } = props;
  const actorId = props.actorId ?? user.id;
  await emit(
    tx,
    {
      type: "user.two_factor_changed",
      payload: {
        userId: user.id,
        email: user.email,
        firstName: user.firstName,
        change: props.change,
        ...(props.passkeyName === undefined ? {} : { passkeyName: props.passkeyName }),
      },
    },
    { actor: { kind: actorId === user.id ? "user" : "admin", userId: actorId } },
  );
  await audit(tx, {
    action: `user.two_factor_${props.change}`,
    actorId,
    targetType: "user",
    targetId: user.id,
    ip: props.ip,
    metadata: {
      ...(props.passkeyName === undefined ? {} : { passkeyName: props.passkeyName }),
      ...props.metadata,
    },
  });
}
