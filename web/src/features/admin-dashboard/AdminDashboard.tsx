import { useQuery } from "@apollo/client/react";
import { usePermissionCheck } from "@web/data/rest";
import "./dashboard.css";
import { Button, Callout, Card, Classes, H1, H2, Intent, Spinner, SpinnerSize } from "@blueprintjs/core";
import { Lock } from "@blueprintjs/icons";
import { AdminDashboardDocument } from "@web/generated/graphql";
import { LoadError } from "@web/ui/LoadError";
import { RefreshButton } from "@web/ui/ToolbarButtons";
import { useNavigate } from "react-router-dom";
import { AuditTrail } from "./audit/AuditTrail";
import { FigureCards } from "./FigureCards";
import { RecentActivity } from "./RecentActivity";
import { RegistrationsChart } from "./RegistrationsChart";

/**
 * Admin Dashboard (spec §2: /admin and /admin/dashboard, login only; issue 11): for any admin, a card
 * per figure linking to the page that acts on it where the admin may open that page, the last 30
 * days' registrations, the recent activity and the full audit log. A signed-in non-admin reads the
 * spec's 'Permission Denied' message instead.
 */
export function AdminDashboardPage() {
  const { result, isLoading } = usePermissionCheck([]);
  if (isLoading || !result) return <Spinner className="portal-page-spinner" size={SpinnerSize.STANDARD} />;
  if (!result.isAdmin) return <NotAnAdmin />;
  return <AdminDashboard />;
}

/** What a signed-in user who is not an administrator sees at /admin. */
function NotAnAdmin() {
  const navigate = useNavigate();
  return (
    <section className="portal-page">
      <H1>Admin Dashboard</H1>
      <Callout intent={Intent.DANGER} icon={<Lock />} title="Permission Denied" role="alert">
        <p>You don't have the necessary permissions to access this area.</p>
        <p>The admin dashboard is for the firm's administrators.</p>
        <Button intent={Intent.PRIMARY} text="Back to Dashboard" onClick={() => navigate("/dashboard")} />
      </Callout>
    </section>
  );
}

function AdminDashboard() {
  const { data, loading, error, refetch } = useQuery(AdminDashboardDocument, {
    fetchPolicy: "cache-and-network",
    notifyOnNetworkStatusChange: true,
  });
  const dashboard = data?.adminDashboard;
  const handleRefresh = () => {
    void refetch().catch(() => undefined);
  };
  return (
    <section className="portal-page dashboard-page">
      <div className="dashboard-head">
        <H1>Admin Dashboard</H1>
        <RefreshButton loading={loading && Boolean(dashboard)} small={false} onClick={handleRefresh} />
      </div>
      {error && !dashboard ? (
        <LoadError title="The dashboard could not be loaded" error={error} onRetry={handleRefresh} />
      ) : !dashboard ? (
        <Spinner size={32} aria-label="Loading the dashboard" />
      ) : (
        <>
          <p className={Classes.TEXT_MUTED}>
            As of {new Date(String(dashboard.generatedAt)).toLocaleString("en-US")}; days are business days
            (Pacific time).
          </p>
          <FigureCards dashboard={dashboard} />
          <div className="dashboard-wide">
            <Card className="dashboard-card" compact>
              <H2 className="dashboard-card-title">New registrations, last 30 days</H2>
              <RegistrationsChart days={dashboard.users.registrations} />
            </Card>
            <Card className="dashboard-card" compact>
              <H2 className="dashboard-card-title">Recent activity</H2>
              <RecentActivity entries={dashboard.recentActivity} />
              <p className="dashboard-where">
                <a href="#audit-log">See the full audit log</a>
              </p>
            </Card>
          </div>
        </>
      )}
      <section className="dashboard-audit" aria-labelledby="audit-log">
        <H2 id="audit-log" tabIndex={-1}>
          Audit log
        </H2>
        <AuditTrail />
      </section>
    </section>
  );
}
