import { LaterRelease } from "../../components/LaterRelease";

/** User Management (spec §2); its content comes in a later release. */
export function UserManagementPage() {
  return <LaterRelease title="User Management" />;
}
