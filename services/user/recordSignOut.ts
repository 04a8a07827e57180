import { audit } from "@services/shared/audit";
import type { Db } from "@services/shared/db";

/** Audits a signed-in user's sign-out (user.logged_out). @throws when the database fails. */
export async function recordSignOut(props: { db: Db; userId: number }): Promise<void> {
  await audit(props.db.prisma, {
    action: "user.logged_out",
    actorId: props.userId,
    targetType: "user",
    targetId: props.userId,
  });
}
