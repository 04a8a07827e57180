import { Button, HTMLTable, NonIdealState, Spinner, Tag } from "@blueprintjs/core";
import { type ReactNode, useState } from "react";
import { DRAWER_LIST_MAX, DRAWER_LIST_STEP } from "../../../../../../schema/validation/adminUser";
import {
  useAdminUserAppointmentsQuery,
  useAdminUserDocumentsQuery,
  useAdminUserNotesQuery,
} from "../../../../generated/graphql";
import { LoadError, ScrollRegion } from "../../esrt/EsrtParts";
import { formatWhen } from "./userDrawer";

// The drawer's read-only tabs: the notes the user sent the team, their appointments and their
// documents, each loaded when its tab opens, the newest 50 first and 50 more at each "Show more".

/** Props of a history tab. */
export interface HistoryTabProps {
  userId: number;
}

/**
 * How many rows a tab shows, and the `first` to ask for: one more than shown, so the answer tells
 * whether there are more.
 */
function useShown(): { shown: number; first: number; more(): void } {
  const [shown, setShown] = useState(DRAWER_LIST_STEP);
  return {
    shown,
    first: Math.min(shown + 1, DRAWER_LIST_MAX),
    more: () => setShown((n) => Math.min(n + DRAWER_LIST_STEP, DRAWER_LIST_MAX - 1)),
  };
}

/** "Show more" under a tab's rows while the list holds more than it shows. */
function ShowMore(props: { total: number; shown: number; loading: boolean; what: string; onMore(): void }) {
  if (props.total <= props.shown) return null;
  return (
    <Button
      className="user-drawer-more"
      variant="minimal"
      size="small"
      loading={props.loading}
      onClick={props.onMore}
      text={`Show ${DRAWER_LIST_STEP} more ${props.what}`}
    />
  );
}

/** Loading, failure and empty states shared by the tabs. */
function TabState(props: {
  loading: boolean;
  error: Error | undefined;
  empty: boolean;
  what: string;
  emptyText: string;
  onRetry(): void;
  children: ReactNode;
}) {
  if (props.error)
    return (
      <LoadError
        title={`The ${props.what} could not be loaded`}
        error={props.error}
        onRetry={props.onRetry}
      />
    );
  if (props.loading) return <Spinner size={24} aria-label={`Loading the ${props.what}`} />;
  if (props.empty) return <NonIdealState title={props.emptyText} />;
  return <>{props.children}</>;
}

/** The notes the user sent the team from their console, newest first. */
export function NotesTab({ userId }: HistoryTabProps) {
  const list = useShown();
  const q = useAdminUserNotesQuery({
    variables: { id: userId, first: list.first },
    fetchPolicy: "cache-and-network",
  });
  const all = (q.data ?? q.previousData)?.adminUser?.noteHistory ?? [];
  const notes = all.slice(0, list.shown);
  return (
    <TabState
      loading={q.loading && !q.data && !q.previousData}
      error={q.error}
      empty={notes.length === 0}
      what="notes"
      emptyText="No notes sent to the team yet"
      onRetry={() => void q.refetch().catch(() => undefined)}
    >
      <ol className="user-drawer-notes">
        {notes.map((note) => (
          <li key={note.id}>
            <p className="user-drawer-note-meta">
              {formatWhen(note.createdAt)} · {note.wordCount} {note.wordCount === 1 ? "word" : "words"}
            </p>
            <p className="user-drawer-note-text">{note.notes}</p>
          </li>
        ))}
      </ol>
      <ShowMore total={all.length} shown={list.shown} loading={q.loading} what="notes" onMore={list.more} />
    </TabState>
  );
}

const APPOINTMENT_TYPE_LABELS: Record<string, string> = {
  phone: "Phone",
  video: "Video",
  inPerson: "In person",
};

/** The user's appointments, latest first. */
export function AppointmentsTab({ userId }: HistoryTabProps) {
  const list = useShown();
  const q = useAdminUserAppointmentsQuery({
    variables: { id: userId, first: list.first },
    fetchPolicy: "cache-and-network",
  });
  const all = (q.data ?? q.previousData)?.adminUser?.appointments ?? [];
  const rows = all.slice(0, list.shown);
  return (
    <TabState
      loading={q.loading && !q.data && !q.previousData}
      error={q.error}
      empty={rows.length === 0}
      what="appointments"
      emptyText="No appointments"
      onRetry={() => void q.refetch().catch(() => undefined)}
    >
      <ScrollRegion label="Appointments" className="user-drawer-scroll">
        <HTMLTable compact striped className="user-drawer-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((a) => (
              <tr key={a.id}>
                <td>{formatWhen(a.dateTime)}</td>
                <td>{APPOINTMENT_TYPE_LABELS[a.appointmentType] ?? a.appointmentType}</td>
                <td>
                  <Tag minimal round>
                    {a.status}
                  </Tag>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </ScrollRegion>
      <ShowMore
        total={all.length}
        shown={list.shown}
        loading={q.loading}
        what="appointments"
        onMore={list.more}
      />
    </TabState>
  );
}

/** The user's documents, newest first. */
export function DocumentsTab({ userId }: HistoryTabProps) {
  const list = useShown();
  const q = useAdminUserDocumentsQuery({
    variables: { id: userId, first: list.first },
    fetchPolicy: "cache-and-network",
  });
  const all = (q.data ?? q.previousData)?.adminUser?.documents ?? [];
  const rows = all.slice(0, list.shown);
  return (
    <TabState
      loading={q.loading && !q.data && !q.previousData}
      error={q.error}
      empty={rows.length === 0}
      what="documents"
      emptyText="No documents"
      onRetry={() => void q.refetch().catch(() => undefined)}
    >
      <ScrollRegion label="Documents" className="user-drawer-scroll">
        <HTMLTable compact striped className="user-drawer-table">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col">Uploaded</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id}>
                <td>
                  <span className="user-drawer-doc-title">{d.title}</span>
                  <span className="user-drawer-muted">{d.fileName}</span>
                </td>
                <td>
                  <Tag minimal round>
                    {d.status}
                  </Tag>
                </td>
                <td>{formatWhen(d.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </ScrollRegion>
      <ShowMore
        total={all.length}
        shown={list.shown}
        loading={q.loading}
        what="documents"
        onMore={list.more}
      />
    </TabState>
  );
}
