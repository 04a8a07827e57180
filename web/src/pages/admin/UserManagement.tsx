// STUB: replaced at merge by DIR
import { H1 } from "@blueprintjs/core";
import { useSearchParams } from "react-router-dom";
import { UserDrawer } from "./users/UserDrawer";

/** User Management: DIR's page replaces this one; it opens the drawer for `?user=<id>` as this does. */
export function UserManagementPage() {
  const [params, setParams] = useSearchParams();
  const id = Number(params.get("user"));
  return (
    <section className="portal-page">
      <H1>User Management</H1>
      <UserDrawer
        userId={Number.isInteger(id) && id > 0 ? id : null}
        onClose={() => setParams({}, { replace: true })}
        onChanged={() => undefined}
      />
    </section>
  );
}
