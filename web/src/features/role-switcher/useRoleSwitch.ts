import { useApolloClient } from "@apollo/client/react";
import type { SafeUser } from "@schema/api/user";
import { completeSignIn, useRestMutation } from "@web/data/rest";
import { serverMessage } from "@web/lib/apiErrors";
import { showToast } from "@web/lib/toast";
import { useNavigate } from "react-router-dom";
import { homeOf, ROLE_SWITCH_API } from "./roleSwitcher";

/** What the role switcher's button runs, and whether a switch is under way. */
export interface RoleSwitch {
  run(userId: number): Promise<void>;
  isPending: boolean;
}

/**
 * Signs in as a demo user (POST /api/dev/roles/switch, issue 21): the cache is emptied of the data
 * of the user before (nothing of theirs may show to the role; what is on screen is read again as the
 * demo user), the demo user becomes the current user, and the role's first page opens. A refusal shows 'Role switch failed' with the server's words.
 */
export function useRoleSwitch(): RoleSwitch {
  const client = useApolloClient();
  const navigate = useNavigate();
  const mutation = useRestMutation<number, SafeUser>({
    request: (userId) => ({ method: "POST", path: ROLE_SWITCH_API, body: { userId } }),
    onError: (error) =>
      showToast({
        title: "Role switch failed",
        description: serverMessage(error, "The role switch failed"),
        intent: "destructive",
      }),
  });
  const run = async (userId: number) => {
    const user = await mutation.run(userId);
    if (!user) return;
    await client.resetStore();
    completeSignIn(user);
    navigate(homeOf(user.userType));
    showToast({
      title: "Role switched",
      description: `Signed in as ${user.firstName} ${user.lastName}`.trim(),
    });
  };
  return { run, isPending: mutation.isPending };
}
