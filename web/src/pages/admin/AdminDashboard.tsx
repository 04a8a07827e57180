import { LaterRelease } from "../../components/LaterRelease";

/** Admin Dashboard (spec §2); its content comes in a later release. */
export function AdminDashboardPage() {
  return <LaterRelease title="Admin Dashboard" />;
}
