import { Callout, Card, Classes, H2, H3, HTMLTable, Intent, ProgressBar, Spinner } from "@blueprintjs/core";
import type { EsrtJobFieldsFragment, EsrtSyncOverviewQuery } from "@web/generated/graphql";
import { CellText } from "@web/ui/CellText";
import { LoadError } from "@web/ui/LoadError";
import { ScrollRegion } from "@web/ui/ScrollRegion";
import { RefreshButton } from "@web/ui/ToolbarButtons";
import { HealthTag } from "./EsrtParts";
import {
  formatAgo,
  formatInstant,
  isJobActive,
  JOB_STATUS_LABELS,
  jobKindLabel,
  jobProgress,
} from "./esrtSync";

type OverviewData = EsrtSyncOverviewQuery["esrtSyncOverview"];

/** Props of the overview. */
export interface SyncOverviewProps {
  overview: OverviewData | undefined;
  loading: boolean;
  error: Error | undefined;
  onRefresh(): void;
  /** the job to show: the active one, else the newest */
  job: EsrtJobFieldsFragment | null;
}

const COUNTS: { key: keyof OverviewData["counts"]; label: string; hint: string }[] = [
  { key: "users", label: "Users", hint: "every user the Pro app should know" },
  { key: "synced", label: "Synced", hint: "acknowledged their latest version" },
  { key: "pending", label: "Pending", hint: "latest version not acknowledged yet" },
  { key: "failing", label: "Failing", hint: "a delivery is being retried" },
  { key: "dead", label: "Dead", hint: "a delivery ran out of attempts" },
];

/**
 * The top of the sync page: users by sync state, the health of the NATS channel and of each webhook
 * endpoint, and the progress of a resync job.
 */
export function SyncOverview({ overview, loading, error, onRefresh, job }: SyncOverviewProps) {
  return (
    <section className="esrt-overview" aria-labelledby="esrt-overview-heading">
      <div className="esrt-section-head">
        <H2 id="esrt-overview-heading">Overview</H2>
        <RefreshButton loading={loading && Boolean(overview)} onClick={onRefresh} />
      </div>
      {error && !overview ? (
        <LoadError title="The sync state could not be loaded" error={error} onRetry={onRefresh} />
      ) : !overview ? (
        <Spinner size={24} aria-label="Loading the sync state" />
      ) : (
        <>
          <dl className="esrt-counts">
            {COUNTS.map((c) => (
              <div key={c.key} className={`esrt-count esrt-count-${c.key}`} title={c.hint}>
                <dt>{c.label}</dt>
                <dd>{overview.counts[c.key].toLocaleString("en-US")}</dd>
              </div>
            ))}
          </dl>
          <ScrollRegion className="esrt-table-scroll" label="Channel health">
            <HTMLTable compact className="esrt-table" aria-label="Channel health">
              <thead>
                <tr>
                  <th scope="col">Channel</th>
                  <th scope="col">Health</th>
                  <th scope="col">Last success</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">
                    NATS
                    <div className={Classes.TEXT_MUTED}>
                      stream {overview.nats.stream} · {overview.nats.subjectPrefix}.user.*
                    </div>
                  </th>
                  <td>
                    <HealthTag health={overview.nats.health} />
                  </td>
                  <td>
                    {overview.nats.lastAcknowledgedAt
                      ? `Acknowledged ${formatAgo(overview.nats.lastAcknowledgedAt)}`
                      : "Nothing acknowledged yet"}
                    <div className={Classes.TEXT_MUTED}>
                      Published {formatInstant(overview.nats.lastPublishedAt)}
                    </div>
                  </td>
                  <td className="esrt-wrap">
                    {overview.nats.enabled
                      ? (overview.nats.lastError ?? "None")
                      : "Turned off in the settings"}
                  </td>
                </tr>
                {overview.endpoints.map((e) => (
                  <tr key={e.id}>
                    <th scope="row" className="esrt-url">
                      <CellText width="wide">{e.url}</CellText>
                      {e.description ? <div className={Classes.TEXT_MUTED}>{e.description}</div> : null}
                    </th>
                    <td>
                      <HealthTag health={e.health} />
                    </td>
                    <td>{e.lastSuccessAt ? formatAgo(e.lastSuccessAt) : "Never"}</td>
                    <td className="esrt-wrap">
                      {e.disabledReason ??
                        (e.consecutiveFailures > 0
                          ? `${e.consecutiveFailures} failures in a row${
                              e.failingSince ? ` since ${formatInstant(e.failingSince)}` : ""
                            }`
                          : "None")}
                      {e.waitingDeliveries > 0 ? (
                        <div className={Classes.TEXT_MUTED}>{e.waitingDeliveries} waiting</div>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </ScrollRegion>
          {overview.endpoints.length === 0 ? (
            <p className={Classes.TEXT_MUTED}>No webhook endpoint yet: add one under Endpoints.</p>
          ) : null}
        </>
      )}
      {job ? <JobCard job={job} /> : null}
    </section>
  );
}

/** A resync job: its progress bar while it runs, its outcome once finished. */
export function JobCard({ job }: { job: EsrtJobFieldsFragment }) {
  const active = isJobActive(job);
  const progress = jobProgress(job);
  const title = `${jobKindLabel(job.kind)}: ${JOB_STATUS_LABELS[job.status].toLowerCase()}`;
  if (!active) {
    return (
      <Callout
        compact
        className="esrt-job"
        intent={job.status === "failed" || job.failed > 0 ? Intent.WARNING : Intent.SUCCESS}
        title={title}
      >
        {progress.label}
        {job.finishedAt ? ` · finished ${formatInstant(job.finishedAt)}` : ""}
        {job.error ? <div>{job.error}</div> : null}
      </Callout>
    );
  }
  return (
    <Card compact className="esrt-job" role="status" aria-live="polite">
      <H3 className="esrt-job-title">{title}</H3>
      <ProgressBar
        value={job.status === "queued" ? undefined : progress.value}
        intent={Intent.PRIMARY}
        aria-label={`${jobKindLabel(job.kind)} progress`}
      />
      <div className="esrt-job-label">{progress.label}</div>
    </Card>
  );
}
