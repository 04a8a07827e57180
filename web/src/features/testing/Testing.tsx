import "@web/features/sync/esrt.css";
import "./testing.css";
import { useApolloClient, useMutation, useQuery } from "@apollo/client/react";
import { Alert, Button, Callout, Classes, H1, H2, Intent, Spinner, Tag } from "@blueprintjs/core";
import { Play, Refresh, Trash } from "@blueprintjs/icons";
import { ROLE_SWITCHER_PATH } from "@web/features/role-switcher/roleSwitcher";
import { formatInstant } from "@web/features/sync/esrtSync";
import {
  DeadLettersDocument,
  type DeadLettersQuery,
  type DemoDataCountsFieldsFragment,
  DemoDataDocument,
  type DependencyStatus,
  EventPipelineDocument,
  EventRoundTripDocument,
  type EventRoundTripQuery,
  GenerateDemoDataDocument,
  RemoveDemoDataDocument,
  RetryDeadLetterDocument,
  type RoundTripFieldsFragment,
  StartEventRoundTripDocument,
  SystemHealthDocument,
} from "@web/generated/graphql";
import { DataTable } from "@web/ui/DataTable";
import { KeysetList } from "@web/ui/KeysetList";
import { LoadError } from "@web/ui/LoadError";
import { runWithToast } from "@web/ui/mutationToast";
import { RefreshButton } from "@web/ui/ToolbarButtons";
import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router-dom";

/** How often a running round trip is read back, and how long the page waits at most. */
const ROUND_TRIP_POLL_MS = 500;
const ROUND_TRIP_GIVE_UP_MS = 20_000;
const DEAD_LETTER_PAGE = 25;

const STATUS_LOOK: Record<DependencyStatus, { text: string; intent: Intent }> = {
  up: { text: "Healthy", intent: Intent.SUCCESS },
  degraded: { text: "Degraded", intent: Intent.WARNING },
  down: { text: "Down", intent: Intent.DANGER },
  off: { text: "Off", intent: Intent.NONE },
};

/**
 * Testing Tools (spec §2, manage:config; issue 12): the health of every dependency with its latency
 * and each service's event consumer, an event round trip through every service with its timings,
 * and the outbox backlog and dead letters with retry.
 */
export function TestingPage() {
  return <TestingTools />;
}

function TestingTools() {
  return (
    <section className="portal-page esrt-page testing-page">
      <H1>Testing Tools</H1>
      <p className={Classes.TEXT_MUTED}>
        Check every service the portal depends on, send a test event through each service, and deliver again
        the events a service gave up on.
      </p>
      <Health />
      <RoundTrip />
      <DeadLetters />
      <DemoData />
    </section>
  );
}

function StatusTag({ status }: { status: DependencyStatus }) {
  const look = STATUS_LOOK[status];
  return (
    <Tag intent={look.intent} minimal round>
      {look.text}
    </Tag>
  );
}

function Health() {
  const { data, loading, error, refetch } = useQuery(SystemHealthDocument, { fetchPolicy: "network-only" });
  const health = data?.systemHealth;
  const handleRefresh = useCallback(() => {
    void refetch().catch(() => undefined);
  }, [refetch]);
  return (
    <section aria-labelledby="testing-health-heading" className="testing-section">
      <div className="esrt-section-head">
        <H2 id="testing-health-heading">Dependencies</H2>
        <Button
          variant="minimal"
          size="small"
          icon={<Refresh />}
          text="Check again"
          loading={loading && Boolean(health)}
          onClick={handleRefresh}
        />
      </div>
      {error && !health ? (
        <LoadError title="The health checks could not run" error={error} onRetry={handleRefresh} />
      ) : !health ? (
        <Spinner size={24} aria-label="Checking every dependency" />
      ) : (
        <>
          <DataTable
            scrollClassName="esrt-table-scroll"
            region="Dependencies"
            className="esrt-table"
            label="Dependencies"
            columns={["Dependency", "Status", "Latency", "Details"]}
            rows={health.dependencies}
          >
            {(d) => (
              <tr key={d.key} data-dependency={d.key}>
                <th scope="row" className="esrt-url">
                  {d.name}
                  <div className={Classes.TEXT_MUTED}>{d.mode}</div>
                </th>
                <td>
                  <StatusTag status={d.status} />
                </td>
                <td>{d.latencyMs === null ? "–" : `${d.latencyMs} ms`}</td>
                <td className="esrt-wrap">
                  {d.detail}
                  {d.lastAttemptAt ? (
                    <div className={Classes.TEXT_MUTED}>Last attempt {formatInstant(d.lastAttemptAt)}</div>
                  ) : null}
                </td>
              </tr>
            )}
          </DataTable>
          <p className={Classes.TEXT_MUTED}>Checked {formatInstant(health.checkedAt)}</p>
          <H2 id="testing-consumers-heading" className="testing-subheading">
            Event consumers
          </H2>
          <p className={Classes.TEXT_MUTED}>
            {health.stream
              ? `Stream ${health.stream}: ${health.streamMessages ?? 0} messages`
              : "In-process event bus (no NATS): the counts are this process's"}
          </p>
          <DataTable
            scrollClassName="esrt-table-scroll"
            region="Event consumers"
            className="esrt-table"
            labelledBy="testing-consumers-heading"
            columns={["Consumer", "Lag", "Unsettled", "Redelivered", "Worker"]}
            rows={health.consumers}
          >
            {(c) => (
              <tr key={c.name}>
                <th scope="row">
                  {c.name}
                  <div className={Classes.TEXT_MUTED}>{c.service}</div>
                </th>
                <td>{c.pending ?? "–"}</td>
                <td>{c.ackPending ?? "–"}</td>
                <td>{c.redelivered ?? "–"}</td>
                <td>{c.pending === null ? "Never started" : c.active ? "Consuming" : "Idle"}</td>
              </tr>
            )}
          </DataTable>
        </>
      )}
    </section>
  );
}

type RoundTripState = RoundTripFieldsFragment | null;

function RoundTrip() {
  const client = useApolloClient();
  const [start, starting] = useMutation(StartEventRoundTripDocument);
  const [trip, setTrip] = useState<RoundTripState>(null);
  const [startedAt, setStartedAt] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const running =
    trip !== null && !trip.complete && !trip.timedOut && Date.now() - startedAt < ROUND_TRIP_GIVE_UP_MS;

  useEffect(() => {
    if (!trip || trip.complete || trip.timedOut) return;
    const timer = setTimeout(async () => {
      try {
        const res = await client.query<EventRoundTripQuery>({
          query: EventRoundTripDocument,
          variables: { eventId: trip.eventId },
          fetchPolicy: "network-only",
        });
        const answer = res.data?.eventRoundTrip;
        if (answer?.__typename === "QueryEventRoundTripSuccess") setTrip(answer.data);
        else
          setProblem(answer?.__typename === "AppError" ? answer.message : "The round trip could not be read");
      } catch {
        if (Date.now() - startedAt > ROUND_TRIP_GIVE_UP_MS) setProblem("The round trip could not be read");
        else setTrip({ ...trip });
      }
    }, ROUND_TRIP_POLL_MS);
    return () => clearTimeout(timer);
  }, [client, trip, startedAt]);

  const handleStart = async () => {
    setProblem(null);
    try {
      const answer = (await start()).data?.startEventRoundTrip;
      if (answer?.__typename === "MutationStartEventRoundTripSuccess") {
        setStartedAt(Date.now());
        setTrip(answer.data);
        return;
      }
      setProblem(answer?.__typename === "AppError" ? answer.message : "The test event could not be sent");
    } catch {
      setProblem("The test event could not be sent");
    }
  };

  const silent = trip?.answers.filter((a) => !a.handledAt) ?? [];
  return (
    <section aria-labelledby="testing-round-trip-heading" className="testing-section">
      <div className="esrt-section-head">
        <H2 id="testing-round-trip-heading">Event round trip</H2>
        <Button
          icon={<Play />}
          intent={Intent.PRIMARY}
          text="Send a test event"
          loading={starting.loading || running}
          onClick={() => void handleStart()}
        />
      </div>
      <p className={Classes.TEXT_MUTED}>
        A test event goes through the outbox and the event bus to a consumer of every service; each answers
        when it has handled it.
      </p>
      {problem ? (
        <Callout intent={Intent.DANGER} compact role="alert">
          {problem}
        </Callout>
      ) : null}
      {trip ? (
        <>
          <div role="status" aria-live="polite" className="testing-trip-status">
            {trip.complete ? (
              <Callout intent={Intent.SUCCESS} compact>
                Every service handled the test event.
              </Callout>
            ) : trip.timedOut ? (
              <Callout intent={Intent.WARNING} compact>
                No answer from {silent.map((a) => a.consumer).join(", ")}.
              </Callout>
            ) : (
              <span>
                Waiting for {silent.length} of {trip.answers.length} consumers…
              </span>
            )}
          </div>
          <p className={Classes.TEXT_MUTED}>
            Committed {formatInstant(trip.committedAt)} ·{" "}
            {trip.publishedAt ? `published ${formatInstant(trip.publishedAt)}` : "waiting in the outbox"}
          </p>
          <DataTable
            scrollClassName="esrt-table-scroll"
            region="Round trip answers"
            className="esrt-table"
            label="Round trip answers"
            columns={["Service", "Handled at", "After commit"]}
            rows={trip.answers}
          >
            {(a) => (
              <tr key={a.consumer} data-consumer={a.consumer}>
                <th scope="row">
                  {a.service}
                  <div className={Classes.TEXT_MUTED}>{a.consumer}</div>
                </th>
                <td>{a.handledAt ? formatInstant(a.handledAt) : trip.timedOut ? "No answer" : "Waiting…"}</td>
                <td>{a.msAfterCommit === null ? "–" : `${a.msAfterCommit} ms`}</td>
              </tr>
            )}
          </DataTable>
        </>
      ) : null}
    </section>
  );
}

type DeadLetterPage = Extract<
  DeadLettersQuery["deadLetters"],
  { __typename: "QueryDeadLettersSuccess" }
>["data"];

function DeadLetters() {
  const client = useApolloClient();
  const pipeline = useQuery(EventPipelineDocument, { fetchPolicy: "network-only" });
  const letters = useQuery(DeadLettersDocument, {
    variables: { first: DEAD_LETTER_PAGE },
    fetchPolicy: "network-only",
  });
  const [retry] = useMutation(RetryDeadLetterDocument);
  const [retrying, setRetrying] = useState<number | null>(null);
  const [more, setMore] = useState<DeadLetterPage["nodes"]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  const answer = letters.data?.deadLetters;
  const page = answer?.__typename === "QueryDeadLettersSuccess" ? answer.data : null;
  const nodes = [...(page?.nodes ?? []), ...more];
  const nextCursor = more.length > 0 ? cursor : (page?.endCursor ?? null);
  const hasNext = more.length > 0 ? cursor !== null : Boolean(page?.hasNextPage);
  const figures = pipeline.data?.eventPipeline;

  const refresh = useCallback(() => {
    setMore([]);
    setCursor(null);
    void client
      .refetchQueries({ include: [EventPipelineDocument, SystemHealthDocument] })
      .catch(() => undefined);
    void letters.refetch().catch(() => undefined);
  }, [client, letters]);

  const handleMore = async () => {
    if (!nextCursor) return;
    setLoadingMore(true);
    try {
      const res = await client.query<DeadLettersQuery>({
        query: DeadLettersDocument,
        variables: { first: DEAD_LETTER_PAGE, after: nextCursor },
        fetchPolicy: "network-only",
      });
      const next = res.data?.deadLetters;
      if (next?.__typename === "QueryDeadLettersSuccess") {
        setMore((m) => [...m, ...next.data.nodes]);
        setCursor(next.data.hasNextPage ? next.data.endCursor : null);
      }
    } finally {
      setLoadingMore(false);
    }
  };

  const handleRetry = async (id: number) => {
    setRetrying(id);
    await runWithToast({
      run: async () => (await retry({ variables: { id } })).data?.retryDeadLetter,
      success: "MutationRetryDeadLetterSuccess",
      saved: (res) => ({
        title: res.data.outcome === "delivered" ? "Delivered again" : "Already handled",
        description:
          res.data.outcome === "delivered"
            ? `${res.data.consumer} handled the event`
            : `${res.data.consumer} had already handled the event; the dead letter is removed`,
      }),
      after: () => refresh(),
      failure: "Retry failed",
    });
    setRetrying(null);
  };

  return (
    <section aria-labelledby="testing-dead-heading" className="testing-section">
      <div className="esrt-section-head">
        <H2 id="testing-dead-heading">Outbox and dead letters</H2>
        <RefreshButton onClick={refresh} />
      </div>
      {figures ? (
        <dl className="esrt-counts">
          <div className="esrt-count">
            <dt>Outbox backlog</dt>
            <dd>{figures.outboxBacklog.toLocaleString("en-US")}</dd>
          </div>
          <div className="esrt-count esrt-count-dead">
            <dt>Dead letters</dt>
            <dd>{figures.deadLetters.toLocaleString("en-US")}</dd>
          </div>
        </dl>
      ) : null}
      {figures?.oldestUnpublishedAt ? (
        <p className={Classes.TEXT_MUTED}>
          Oldest unpublished event: {formatInstant(figures.oldestUnpublishedAt)}
        </p>
      ) : null}
      <KeysetList
        error={page ? undefined : letters.error}
        errorTitle="The dead letters could not be loaded"
        onRetry={refresh}
        loading={!page}
        loadingLabel="Loading the dead letters"
        rows={nodes}
        empty={<p>No dead letters: every event was handled.</p>}
        more={hasNext ? { text: "Load more", loading: loadingMore, onClick: () => void handleMore() } : null}
      >
        {(rows) => (
          <DataTable
            scrollClassName="esrt-table-scroll"
            region="Dead letters"
            className="esrt-table"
            label="Dead letters"
            columns={["Event", "Consumer", "Error", "Attempts", "Given up"]}
            actions="Action"
            rows={rows}
          >
            {(d) => (
              <tr key={d.id}>
                <th scope="row" className="esrt-url">
                  {d.type}
                  <div className={Classes.TEXT_MUTED}>{d.eventId}</div>
                </th>
                <td>{d.consumer}</td>
                <td className="esrt-wrap">{d.error}</td>
                <td>{d.attempts}</td>
                <td>{formatInstant(d.createdAt)}</td>
                <td>
                  <Button
                    size="small"
                    text="Retry"
                    aria-label={`Retry ${d.type} for ${d.consumer}`}
                    loading={retrying === d.id}
                    disabled={retrying !== null && retrying !== d.id}
                    onClick={() => void handleRetry(d.id)}
                  />
                </td>
              </tr>
            )}
          </DataTable>
        )}
      </KeysetList>
    </section>
  );
}

function describeCounts(c: DemoDataCountsFieldsFragment): string {
  return `${c.users} users (${c.clients} clients), ${c.appointments} appointments, ${c.documents} documents`;
}

function DemoData() {
  const { data, error, refetch } = useQuery(DemoDataDocument, { fetchPolicy: "network-only" });
  const [generate, generating] = useMutation(GenerateDemoDataDocument, {
    refetchQueries: [DemoDataDocument],
  });
  const [remove, removing] = useMutation(RemoveDemoDataDocument, { refetchQueries: [DemoDataDocument] });
  const [confirming, setConfirming] = useState(false);
  const status = data?.demoData;

  const handleGenerate = async () => {
    await runWithToast({
      run: async () => (await generate()).data?.generateDemoData,
      success: "MutationGenerateDemoDataSuccess",
      saved: (res) => ({ title: "Demo data generated", description: describeCounts(res.data) }),
      failure: "Demo data was not generated",
      fallback: null,
    });
  };

  const handleRemove = async () => {
    setConfirming(false);
    await runWithToast({
      run: async () => (await remove()).data?.removeDemoData,
      success: "MutationRemoveDemoDataSuccess",
      saved: (res) => ({ title: "Demo data removed", description: describeCounts(res.data) }),
      failure: "Demo data was not removed",
      fallback: null,
    });
  };

  return (
    <section aria-labelledby="testing-demo-heading" className="testing-section">
      <H2 id="testing-demo-heading">Demo data</H2>
      {error && !status ? (
        <LoadError title="The demo data could not be read" error={error} onRetry={() => void refetch()} />
      ) : !status ? (
        <Spinner size={24} aria-label="Loading the demo data" />
      ) : !status.available ? (
        <Callout compact>Demo data is not available in production.</Callout>
      ) : (
        <>
          <p>
            Five demo clients, each with a note, an upcoming appointment and two documents, and a demo
            prospect, user admin and main admin. The role switcher signs you in as the demo user of each role,
            to see the portal as that role sees it. Removing them removes exactly what was generated; real
            accounts are never touched.
          </p>
          <p role="status" aria-live="polite">
            {status.users === 0
              ? "No demo data."
              : `${status.users} demo users exist, ${status.clients} of them clients.`}
          </p>
          <p>
            <Link to={ROLE_SWITCHER_PATH}>Open the role switcher</Link>
          </p>
          <div className="testing-actions">
            <Button
              icon={<Play />}
              text="Generate demo data"
              intent={Intent.PRIMARY}
              disabled={status.clients > 0}
              loading={generating.loading}
              onClick={() => void handleGenerate()}
            />
            <Button
              icon={<Trash />}
              text="Remove demo data"
              intent={Intent.DANGER}
              disabled={status.clients === 0}
              loading={removing.loading}
              onClick={() => setConfirming(true)}
            />
          </div>
          <Alert
            isOpen={confirming}
            intent={Intent.DANGER}
            icon={<Trash />}
            confirmButtonText="Remove demo data"
            cancelButtonText="Cancel"
            onConfirm={() => void handleRemove()}
            onCancel={() => setConfirming(false)}
            canEscapeKeyCancel
          >
            <p>Remove the {status.users} demo users with their appointments, documents and notes?</p>
          </Alert>
        </>
      )}
    </section>
  );
}
