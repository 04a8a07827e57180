import "./esrt.css";
import { useApolloClient, useQuery } from "@apollo/client/react";
import { Classes, H1, Intent, Tab, type TabId, Tabs } from "@blueprintjs/core";
import {
  EsrtDeliveriesDocument,
  type EsrtJobFieldsFragment,
  EsrtJobsDocument,
  EsrtSyncOverviewDocument,
} from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { tabOf } from "@web/ui/tabs";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiKeys } from "./ApiKeys";
import { DeliveryLog } from "./DeliveryLog";
import { Endpoints } from "./Endpoints";
import { activeJob, JOB_POLL_MS, jobKindLabel, jobProgress } from "./esrtSync";
import { SyncOverview } from "./Overview";

/**
 * ESRT Communication (spec §2, manage:esrt_sync; issue 10): how the portal keeps ESRT Pro up to
 * date. The health of the NATS channel and of each webhook endpoint with users by sync state; the
 * delivery log with each delivery's attempts, redelivery, replay, resync of one user or of all
 * (a job whose progress the page polls while it runs); the endpoints; the Pro app's API keys.
 */
export function EsrtCommunicationPage() {
  return <EsrtCommunication />;
}

function EsrtCommunication() {
  const client = useApolloClient();
  const [tab, setTab] = useState<TabId>("log");
  const overviewQuery = useQuery(EsrtSyncOverviewDocument, { fetchPolicy: "cache-and-network" });
  const overview = overviewQuery.data?.esrtSyncOverview;
  const refetchOverview = overviewQuery.refetch;

  const handleRefreshOverview = useCallback(() => {
    void refetchOverview().catch(() => undefined);
  }, [refetchOverview]);

  const handleJobFinished = useCallback(
    (job: EsrtJobFieldsFragment) => {
      showToast({
        title: `${jobKindLabel(job.kind)} ${job.status === "failed" ? "failed" : "finished"}`,
        description: job.error ?? jobProgress(job).label,
        intent: job.status === "failed" || job.failed > 0 ? Intent.WARNING : Intent.SUCCESS,
      });
      void client.refetchQueries({ include: [EsrtSyncOverviewDocument, EsrtDeliveriesDocument] });
    },
    [client],
  );
  const { job, running } = useFollowedJob(handleJobFinished);

  return (
    <section className="portal-page esrt-page">
      <H1>ESRT Communication</H1>
      <p className={Classes.TEXT_MUTED}>
        Every change to a user is sent to ESRT Pro on NATS and to each webhook endpoint; a user is synced once
        the Pro app has acknowledged their latest version.
      </p>
      <SyncOverview
        overview={overview}
        loading={overviewQuery.loading}
        error={overviewQuery.error}
        onRefresh={handleRefreshOverview}
        job={job}
      />
      {/* `tabOf` marks each tab `disabled={false}`: Blueprint's arrow keys move only between tabs marked aria-disabled="false" */}
      <Tabs id="esrt-sections" selectedTabId={tab} onChange={setTab} className="esrt-tabs" large>
        <Tab
          {...tabOf("log", "Delivery log")}
          panel={
            <DeliveryLog
              endpoints={overview?.endpoints ?? []}
              jobRunning={running}
              onChanged={handleRefreshOverview}
            />
          }
        />
        <Tab
          {...tabOf("endpoints", "Endpoints")}
          panel={
            <Endpoints
              endpoints={overview?.endpoints}
              loading={overviewQuery.loading}
              error={overviewQuery.error}
              onRetry={handleRefreshOverview}
            />
          }
        />
        <Tab {...tabOf("keys", "API keys")} panel={<ApiKeys />} />
      </Tabs>
    </section>
  );
}

/**
 * The resync jobs: the one to show (the newest queued or running, else the newest) and whether one
 * runs. While one runs, esrtJobs is asked every 2 s (only here, only then); when the followed job
 * finishes, `onFinished` is told once.
 */
function useFollowedJob(onFinished: (job: EsrtJobFieldsFragment) => void): {
  job: EsrtJobFieldsFragment | null;
  running: boolean;
} {
  const { data, startPolling, stopPolling } = useQuery(EsrtJobsDocument, {
    fetchPolicy: "cache-and-network",
  });
  const jobs = data?.esrtJobs ?? [];
  const active = activeJob(jobs);
  const activeId = active?.id ?? null;
  const followed = useRef<number | null>(null);

  useEffect(() => {
    if (activeId === null) return;
    startPolling(JOB_POLL_MS);
    return () => stopPolling();
  }, [activeId, startPolling, stopPolling]);

  const latest = data?.esrtJobs;
  useEffect(() => {
    if (activeId !== null) {
      followed.current = activeId;
      return;
    }
    const id = followed.current;
    if (id === null) return;
    followed.current = null;
    const finished = latest?.find((j) => j.id === id);
    if (finished) onFinished(finished);
  }, [activeId, latest, onFinished]);

  return { job: active ?? jobs[0] ?? null, running: active !== null };
}
