import type { TypedDocumentNode } from "@apollo/client";
import { useQuery } from "@apollo/client/react";
import { Tag } from "@blueprintjs/core";
import { DRAWER_LIST_MAX, DRAWER_LIST_STEP } from "@schema/validation/adminUser";
import {
  AdminUserAppointmentsDocument,
  AdminUserDocumentsDocument,
  AdminUserNotesDocument,
} from "@web/generated/graphql";
import { DataTable } from "@web/ui/DataTable";
import { HistoryList, useShownRows } from "@web/ui/HistoryList";
import type { ReactNode } from "react";
import { formatWhen } from "./userDrawer";

// The drawer's read-only tabs: the notes the user sent the team, their appointments and their
// documents, each loaded when its tab opens, the newest 50 first and 50 more at each "Show more".

/** Props of a history tab. */
export interface HistoryTabProps {
  userId: number;
}

/** Props of {@link DrawerHistory}. */
interface DrawerHistoryProps<TData, T> {
  userId: number;
  /** the tab's query, by the user's id and how many rows to ask for */
  query: TypedDocumentNode<TData, { id: number; first: number }>;
  /** the rows out of the query's data */
  pick(data: TData | undefined): readonly T[] | null | undefined;
  what: string;
  emptyText: string;
  children(shown: readonly T[]): ReactNode;
}

/** A history tab: its query, loaded when the tab opens, through the states of {@link HistoryList}. */
function DrawerHistory<TData, T>({
  userId,
  query,
  pick,
  what,
  emptyText,
  children,
}: DrawerHistoryProps<TData, T>) {
  const list = useShownRows(DRAWER_LIST_STEP, DRAWER_LIST_MAX);
  const q = useQuery(query, {
    variables: { id: userId, first: list.first },
    fetchPolicy: "cache-and-network",
  });
  return (
    <HistoryList
      query={q}
      list={list}
      className="user-drawer-more"
      rows={pick((q.data ?? q.previousData) as TData | undefined) ?? []}
      what={what}
      emptyText={emptyText}
    >
      {children}
    </HistoryList>
  );
}

/** The notes the user sent the team from their console, newest first. */
export function NotesTab({ userId }: HistoryTabProps) {
  return (
    <DrawerHistory
      userId={userId}
      query={AdminUserNotesDocument}
      pick={(data) => data?.adminUser?.noteHistory}
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
    </DrawerHistory>
  );
}

const APPOINTMENT_TYPE_LABELS: Record<string, string> = {
  phone: "Phone",
  video: "Video",
  inPerson: "In person",
};

/** The user's appointments, latest first. */
export function AppointmentsTab({ userId }: HistoryTabProps) {
  return (
    <DrawerHistory
      userId={userId}
      query={AdminUserAppointmentsDocument}
      pick={(data) => data?.adminUser?.appointments}
      what="appointments"
      emptyText="No appointments"
    >
      {(rows) => (
        <DataTable
          scrollClassName="user-drawer-scroll"
          region="Appointments"
          className="user-drawer-table"
          striped
          columns={["When", "Type", "Status"]}
          rows={rows}
        >
          {(a) => (
            <tr key={a.id}>
              <td>{formatWhen(a.dateTime)}</td>
              <td>{APPOINTMENT_TYPE_LABELS[a.appointmentType] ?? a.appointmentType}</td>
              <td>
                <Tag minimal round>
                  {a.status}
                </Tag>
              </td>
            </tr>
          )}
        </DataTable>
      )}
    </DrawerHistory>
  );
}

/** The user's documents, newest first. */
export function DocumentsTab({ userId }: HistoryTabProps) {
  return (
    <DrawerHistory
      userId={userId}
      query={AdminUserDocumentsDocument}
      pick={(data) => data?.adminUser?.documents}
      what="documents"
      emptyText="No documents"
    >
      {(rows) => (
        <DataTable
          scrollClassName="user-drawer-scroll"
          region="Documents"
          className="user-drawer-table"
          striped
          columns={["Title", "Status", "Uploaded"]}
          rows={rows}
        >
          {(d) => (
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
          )}
        </DataTable>
      )}
    </DrawerHistory>
  );
}
