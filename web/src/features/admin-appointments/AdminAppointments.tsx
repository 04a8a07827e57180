import { useQuery } from "@apollo/client/react";
import "@web/features/appointments/appointments.css";
import "./adminAppointments.css";
import {
  Button,
  ButtonGroup,
  Callout,
  Classes,
  FormGroup,
  H1,
  HTMLTable,
  InputGroup,
  Intent,
  NonIdealState,
  SegmentedControl,
  Spinner,
  Tag,
} from "@blueprintjs/core";
import { ChevronDown, ChevronLeft, ChevronRight, ChevronUp, Search } from "@blueprintjs/icons";
import type { AppointmentStatusName } from "@schema/validation/appointment";
import { APPOINTMENT_TYPE_LABELS, pacificLabel } from "@web/features/appointments/booking";
import { STATUS_TAGS } from "@web/features/appointments/MyAppointmentsList";
import { type AdminAppointmentFieldsFragment, AdminAppointmentsDocument } from "@web/generated/graphql";
import { CellText } from "@web/ui/CellText";
import { DateRangeFields } from "@web/ui/DateRangeFields";
import { FilterBar, SelectField } from "@web/ui/FilterFields";
import { useMemo, useState } from "react";
import { type AppointmentAction, AppointmentActionDialog } from "./AppointmentDialogs";
import {
  businessToday,
  bySlot,
  countByStatus,
  currentMonday,
  dateRangeProblem,
  isChangeable,
  LIST_LIMIT,
  matchingClient,
  mondayOf,
  pacificDate,
  type SortColumn,
  slotLabels,
  sortedForTable,
  sortKey,
  workWeek,
} from "./adminAppointments";

type View = "table" | "week";

/**
 * Appointment Administration (spec §2, manage:appointments): every appointment in a sortable table
 * with date, status and client filters, or a Monday-to-Friday week in Pacific time; confirm, cancel
 * with a reason, and reschedule, each after a confirmation dialog.
 */
export function AdminAppointmentsPage() {
  return <AdminAppointments />;
}

function AdminAppointments() {
  const [view, setView] = useState<View>("table");
  const [action, setAction] = useState<AppointmentAction | null>(null);
  return (
    <section className="portal-page admin-appointments">
      <div className="admin-appointments-head">
        <H1>Appointment Administration</H1>
        <SegmentedControl
          aria-label="View"
          options={[
            { label: "Table", value: "table" },
            { label: "Week", value: "week" },
          ]}
          value={view}
          onValueChange={(v) => setView(v as View)}
        />
      </div>
      {view === "table" ? <AppointmentsTable onAction={setAction} /> : <WeekCalendar onAction={setAction} />}
      <AppointmentActionDialog action={action} onClose={() => setAction(null)} />
    </section>
  );
}

interface ViewProps {
  onAction(action: AppointmentAction): void;
}

function ActionButtons({
  appointment,
  onAction,
}: { appointment: AdminAppointmentFieldsFragment } & ViewProps) {
  if (!isChangeable(appointment)) return null;
  return (
    <ButtonGroup variant="minimal" size="small">
      {appointment.status === "pending" && (
        <Button
          intent={Intent.SUCCESS}
          text="Confirm"
          onClick={() => onAction({ kind: "confirm", appointment })}
        />
      )}
      <Button text="Reschedule" onClick={() => onAction({ kind: "reschedule", appointment })} />
      <Button
        intent={Intent.DANGER}
        text="Cancel"
        onClick={() => onAction({ kind: "cancel", appointment })}
      />
    </ButtonGroup>
  );
}

function StatusTag({ status }: { status: AppointmentStatusName }) {
  const tag = STATUS_TAGS[status];
  return (
    <Tag intent={tag.intent} minimal round>
      {tag.text}
    </Tag>
  );
}

function QueryState({ loading, error, empty }: { loading: boolean; error?: Error; empty: boolean }) {
  if (error)
    return (
      <Callout intent={Intent.DANGER} title="Appointments could not be loaded">
        {error.message}
      </Callout>
    );
  if (loading) return <Spinner aria-label="Loading appointments" />;
  if (empty)
    return <NonIdealState title="No appointments" description="No appointment matches these filters." />;
  return null;
}

function AppointmentsTable({ onAction }: ViewProps) {
  const [from, setFrom] = useState(businessToday());
  const [to, setTo] = useState("");
  const [status, setStatus] = useState<AppointmentStatusName | "">("");
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<{ column: SortColumn; descending: boolean }>({
    column: "dateTime",
    descending: false,
  });
  const rangeProblem = dateRangeProblem(from, to);
  const { data, loading, error } = useQuery(AdminAppointmentsDocument, {
    variables: {
      from: from || undefined,
      to: to || undefined,
      status: status || undefined,
      sort: sortKey(sort.column, sort.descending),
    },
    skip: rangeProblem !== null,
    fetchPolicy: "cache-and-network",
  });
  const all = rangeProblem ? [] : (data?.adminAppointments ?? []);
  const shown = useMemo(
    () => sortedForTable(matchingClient(all, search), sort.column, sort.descending),
    [all, search, sort],
  );
  const counts = countByStatus(shown);

  const header = (column: SortColumn, label: string) => {
    const active = sort.column === column;
    return (
      <th aria-sort={active ? (sort.descending ? "descending" : "ascending") : "none"}>
        <Button
          variant="minimal"
          size="small"
          text={label}
          endIcon={active ? sort.descending ? <ChevronDown /> : <ChevronUp /> : undefined}
          onClick={() => setSort({ column, descending: active ? !sort.descending : false })}
        />
      </th>
    );
  };

  return (
    <>
      <FilterBar className="admin-appointments-filters" label="Filter appointments">
        <DateRangeFields
          ids={{ from: "appointments-from", to: "appointments-to" }}
          from={from}
          to={to}
          problem={rangeProblem}
          inline
          onChange={(key, value) => (key === "from" ? setFrom : setTo)(value)}
        />
        <SelectField
          label="Status"
          id="appointments-status"
          inline
          value={status}
          onChange={(value) => setStatus(value as AppointmentStatusName | "")}
          options={[
            { value: "", label: "All" },
            { value: "pending", label: "Pending" },
            { value: "confirmed", label: "Confirmed" },
            { value: "cancelled", label: "Cancelled" },
          ]}
        />
        <FormGroup label="Client" labelFor="appointments-client" inline>
          <InputGroup
            id="appointments-client"
            leftIcon={<Search />}
            placeholder="Name or email"
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
        </FormGroup>
      </FilterBar>
      <div className="admin-appointments-counts" aria-live="polite">
        <Tag minimal>{shown.length} shown</Tag>
        {(["pending", "confirmed", "cancelled"] as const).map((s) => (
          <Tag key={s} minimal intent={STATUS_TAGS[s].intent}>
            {counts[s]} {STATUS_TAGS[s].text.toLowerCase()}
          </Tag>
        ))}
      </div>
      {all.length >= LIST_LIMIT && (
        <Callout intent={Intent.WARNING} compact>
          Only the first {LIST_LIMIT} appointments are listed. Narrow the dates or the status to see the rest.
        </Callout>
      )}
      <QueryState
        loading={loading && !data && !rangeProblem}
        error={data ? undefined : error}
        empty={shown.length === 0 && !rangeProblem}
      />
      {shown.length > 0 && (
        <HTMLTable striped interactive compact className="admin-appointments-table" aria-label="Appointments">
          <thead>
            <tr>
              {header("dateTime", "Date and time (Pacific)")}
              {header("client", "Client")}
              <th>Type</th>
              {header("status", "Status")}
              <th>Notes</th>
              {header("createdAt", "Booked")}
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((a) => (
              <tr key={a.id} data-appointment-id={a.id}>
                <td>{pacificLabel(a.dateTime)}</td>
                <td>
                  {a.clientFirstName} {a.clientLastName}
                  <CellText width="wide" className={Classes.TEXT_MUTED}>
                    {a.clientEmail}
                  </CellText>
                </td>
                <td>{APPOINTMENT_TYPE_LABELS[a.appointmentType]}</td>
                <td>
                  <StatusTag status={a.status} />
                  {a.cancelReason && <div className={Classes.TEXT_MUTED}>{a.cancelReason}</div>}
                </td>
                <td className="admin-appointments-notes">{a.notes}</td>
                <td>{pacificDate(a.createdAt)}</td>
                <td>
                  <ActionButtons appointment={a} onAction={onAction} />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </>
  );
}

function WeekCalendar({ onAction }: ViewProps) {
  const [monday, setMonday] = useState(() => currentMonday());
  const [selected, setSelected] = useState<number | null>(null);
  const days = workWeek(monday);
  const { data, loading, error } = useQuery(AdminAppointmentsDocument, {
    variables: { from: days[0]?.date, to: days[4]?.date },
    fetchPolicy: "cache-and-network",
  });
  const appointments = data?.adminAppointments ?? [];
  const slots = useMemo(() => bySlot(appointments), [appointments]);
  const chosen = appointments.find((a) => a.id === selected) ?? null;
  const labels = slotLabels();

  return (
    <>
      <div className="admin-appointments-week-nav">
        <ButtonGroup>
          <Button
            icon={<ChevronLeft />}
            aria-label="Previous week"
            onClick={() => setMonday(mondayOf(monday, -1))}
          />
          <Button text="This week" onClick={() => setMonday(currentMonday())} />
          <Button
            icon={<ChevronRight />}
            aria-label="Next week"
            onClick={() => setMonday(mondayOf(monday, 1))}
          />
        </ButtonGroup>
        <strong>
          Week of {days[0]?.label} – {days[4]?.label}
        </strong>
        {loading && <Spinner size={16} />}
      </div>
      {error && !data && <QueryState loading={false} error={error} empty={false} />}
      <HTMLTable bordered compact className="admin-appointments-week" aria-label="Week calendar">
        <thead>
          <tr>
            <th>Pacific time</th>
            {days.map((d) => (
              <th key={d.date}>{d.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {labels.map((label, row) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              {days.map((d) => {
                const start = d.slots[row] ?? "";
                const here = slots.get(new Date(start).getTime()) ?? [];
                return (
                  <td key={d.date}>
                    {here.map((a) => (
                      <Button
                        key={a.id}
                        size="small"
                        variant={a.status === "cancelled" ? "minimal" : "solid"}
                        intent={STATUS_TAGS[a.status].intent}
                        className={a.status === "cancelled" ? "admin-appointments-cancelled" : undefined}
                        text={`${a.clientFirstName} ${a.clientLastName}`.trim() || a.clientEmail}
                        title={`${STATUS_TAGS[a.status].text}: ${APPOINTMENT_TYPE_LABELS[a.appointmentType]}`}
                        active={a.id === selected}
                        onClick={() => setSelected(a.id)}
                      />
                    ))}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {chosen && (
        <Callout
          className="admin-appointments-selected"
          title={`${chosen.clientFirstName} ${chosen.clientLastName}`}
        >
          <p>
            {pacificLabel(chosen.dateTime)} · {APPOINTMENT_TYPE_LABELS[chosen.appointmentType]} ·{" "}
            <StatusTag status={chosen.status} /> · {chosen.clientEmail}
          </p>
          {chosen.notes && <p>Notes: {chosen.notes}</p>}
          <ActionButtons appointment={chosen} onAction={onAction} />
        </Callout>
      )}
    </>
  );
}
