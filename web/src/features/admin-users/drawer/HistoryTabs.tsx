import { useQuery } from "@apollo/client/react";
import { Button, HTMLTable, NonIdealState, Spinner, Tag } from "@blueprintjs/core";
import { DRAWER_LIST_MAX, DRAWER_LIST_STEP } from "@schema/validation/adminUser";
import {
  AdminUserAppointmentsDocument,
  AdminUserDocumentsDocument,
  AdminUserNotesDocument,
} from "@web/generated/graphql";
import { LoadError } from "@web/ui/LoadError";
import { ScrollRegion } from "@web/ui/ScrollRegion";
import { type ReactNode, useState } from "react";
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

/** What a tab's query gives {@link HistoryList}. */
interface TabQuery {
  loading: boolean;
  error?: Error;
  data?: unknown;
  previousData?: unknown;
  refetch(): Promise<unknown>;
}

/**
 * A tab's list with its states: the failure with "Try again", a spinner for the first load, the
 * empty text, then the rows shown and "Show more" while the answer holds more than they.
 */
function HistoryList<T>(props: {
  query: TabQuery;
  list: ReturnType<typeof useShown>;
  /** the rows answered (one more than shown when there are more) */
  rows: readonly T[];
  what: string;
  emptyText: string;
  children(shown: readonly T[]): ReactNode;
}) {
  const { query, list, rows, what } = props;
  if (query.error)
    return (
      <LoadError
        title={`The ${what} could not be loaded`}
        error={query.error}
        onRetry={() => void query.refetch().catch(() => undefined)}
      />
    );
  if (query.loading && !query.data && !query.previousData)
    return <Spinner size={24} aria-label={`Loading the ${what}`} />;
  if (rows.length === 0) return <NonIdealState title={props.emptyText} />;
  return (
    <>
      {props.children(rows.slice(0, list.shown))}
      {rows.length > list.shown ? (
        <Button
          className="user-drawer-more"
          variant="minimal"
          size="small"
          loading={query.loading}
          onClick={list.more}
          text={`Show ${DRAWER_LIST_STEP} more ${what}`}
        />
      ) : null}
    </>
  );
}

/** The notes the user sent the team from their console, newest first. */
export function NotesTab({ userId }: HistoryTabProps) {
  const list = useShown();
  const q = useQuery(AdminUserNotesDocument, {
    variables: { id: userId, first: list.first },
    fetchPolicy: "cache-and-network",
  });
  return (
    <HistoryList
      query={q}
      list={list}
      rows={(q.data ?? q.previousData)?.adminUser?.noteHistory ?? []}
      what="notes"
      emptyText="No notes sent to the team yet"
    >
      {(notes) => (
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
      )}
    </HistoryList>
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
  const q = useQuery(AdminUserAppointmentsDocument, {
    variables: { id: userId, first: list.first },
    fetchPolicy: "cache-and-network",
  });
  return (
    <HistoryList
      query={q}
      list={list}
      rows={(q.data ?? q.previousData)?.adminUser?.appointments ?? []}
      what="appointments"
      emptyText="No appointments"
    >
      {(rows) => (
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
      )}
    </HistoryList>
  );
}

/** The user's documents, newest first. */
export function DocumentsTab({ userId }: HistoryTabProps) {
  const list = useShown();
  const q = useQuery(AdminUserDocumentsDocument, {
    variables: { id: userId, first: list.first },
    fetchPolicy: "cache-and-network",
  });
  return (
    <HistoryList
      query={q}
      list={list}
      rows={(q.data ?? q.previousData)?.adminUser?.documents ?? []}
      what="documents"
      emptyText="No documents"
    >
      {(rows) => (
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
      )}
    </HistoryList>
  );
}
