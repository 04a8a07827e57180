import { useQuery } from "@apollo/client/react";
import { Button, Callout, Intent, NonIdealState, ProgressBar, Spinner, Tag } from "@blueprintjs/core";
import {
  UserBulkJobDocument,
  UserBulkJobResultsDocument,
  type UserJobFieldsFragment,
  type UserJobItemOutcome,
} from "@web/generated/graphql";
import { DataTable } from "@web/ui/DataTable";
import { useEffect, useState } from "react";
import { isJobRunning, jobProgressLabel, OUTCOME_LABELS, USER_JOB_POLL_MS } from "./userJobs";

/** Props of a job's progress and results. */
export interface JobProgressProps {
  jobId: number;
  /** what the job does, e.g. "Status change" or "Import" */
  title: string;
  /** called once when the job has finished */
  onFinished?(job: UserJobFieldsFragment): void;
}

/**
 * A job's progress (a progress bar, polled while it runs), then its result: how many changed and
 * the skipped and failed users with the reason for each, page by page.
 */
export function JobProgress({ jobId, title, onFinished }: JobProgressProps) {
  const { data, error, startPolling, stopPolling } = useQuery(UserBulkJobDocument, {
    variables: { id: jobId },
    fetchPolicy: "network-only",
    notifyOnNetworkStatusChange: false,
  });
  const job = data?.userBulkJob ?? null;
  const running = job ? isJobRunning(job) : true;
  const [reported, setReported] = useState(false);

  useEffect(() => {
    if (!running) return;
    startPolling(USER_JOB_POLL_MS);
    return () => stopPolling();
  }, [running, startPolling, stopPolling]);

  useEffect(() => {
    if (job && !isJobRunning(job) && !reported) {
      setReported(true);
      onFinished?.(job);
    }
  }, [job, reported, onFinished]);

  if (error && !job) {
    return (
      <Callout intent={Intent.DANGER} role="alert" title="The job's progress could not be loaded">
        {error.message}
      </Callout>
    );
  }
  if (!job) return <Spinner size={24} aria-label="Loading the job" />;

  if (running) {
    return (
      <div role="status" aria-live="polite" className="user-job-progress">
        <p>
          <strong>{title}</strong>: {job.status === "queued" ? "waiting to start" : `${job.percent}% done`}
        </p>
        <ProgressBar
          value={job.status === "queued" ? undefined : job.percent / 100}
          intent={Intent.PRIMARY}
          aria-label={`${title} progress`}
        />
        <p className="user-job-label">{jobProgressLabel(job)}</p>
      </div>
    );
  }

  const troubled = job.skipped + job.failed > 0;
  return (
    <div className="user-job-result">
      <Callout
        role="status"
        intent={job.status === "failed" || job.failed > 0 ? Intent.WARNING : Intent.SUCCESS}
        title={job.status === "failed" ? `${title} stopped` : `${title} finished`}
      >
        <ProgressBar
          value={job.percent / 100}
          intent={Intent.SUCCESS}
          stripes={false}
          animate={false}
          aria-label={`${title} progress`}
        />
        <p className="user-job-label">{jobProgressLabel(job)}</p>
        {job.error ? <p>{job.error}</p> : null}
      </Callout>
      {troubled ? <JobProblems jobId={job.id} /> : null}
    </div>
  );
}

const PROBLEMS: UserJobItemOutcome[] = ["skipped", "failed"];

/** The skipped and failed items of a finished job, with their reasons, 50 at a time. */
function JobProblems({ jobId }: { jobId: number }) {
  const { data, loading, error, fetchMore } = useQuery(UserBulkJobResultsDocument, {
    variables: { id: jobId, outcomes: PROBLEMS },
    fetchPolicy: "network-only",
  });
  const page = data?.userBulkJob?.results;
  if (error) {
    return (
      <Callout intent={Intent.DANGER} role="alert">
        The results could not be loaded: {error.message}
      </Callout>
    );
  }
  if (!page) return loading ? <Spinner size={20} aria-label="Loading the results" /> : null;
  if (page.nodes.length === 0) return <NonIdealState title="Nothing was skipped" />;
  const handleMore = () =>
    fetchMore({
      variables: { after: page.endCursor },
      updateQuery: (prev, { fetchMoreResult }) => {
        const before = prev.userBulkJob?.results;
        const next = fetchMoreResult.userBulkJob?.results;
        if (!before || !next || !fetchMoreResult.userBulkJob) return prev;
        return {
          userBulkJob: {
            ...fetchMoreResult.userBulkJob,
            results: { ...next, nodes: [...before.nodes, ...next.nodes] },
          },
        };
      },
    });
  return (
    <>
      <h3 className="user-job-subtitle">Skipped and failed ({page.totalCount.toLocaleString("en-US")})</h3>
      <DataTable
        scrollClassName="user-job-table"
        region="Skipped and failed users"
        columns={["#", "User", "Result", "Reason"]}
        rows={page.nodes}
      >
        {(item) => (
          <tr key={item.position}>
            <td>{item.position}</td>
            <td>
              {item.name ?? "—"}
              {item.username ? <div className="user-job-muted">{item.username}</div> : null}
            </td>
            <td>
              <Tag minimal intent={item.outcome === "failed" ? Intent.DANGER : Intent.WARNING}>
                {OUTCOME_LABELS[item.outcome]}
              </Tag>
            </td>
            <td>{item.message ?? "—"}</td>
          </tr>
        )}
      </DataTable>
      {page.hasNextPage ? (
        <Button text="Show more" onClick={() => void handleMore()} loading={loading} />
      ) : null}
    </>
  );
}
