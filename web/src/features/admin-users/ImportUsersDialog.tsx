import { Button, Callout, DialogBody, DialogFooter, FileInput, FormGroup, Intent } from "@blueprintjs/core";
import { IMPORT_MAX_BYTES } from "@schema/validation/userAdmin";
import { useRestSend } from "@web/data/rest";
import { serverMessage } from "@web/lib/apiErrors";
import { ServerProblem } from "@web/ui/ConfirmDialog";
import { useReturnFocus } from "@web/ui/hooks";
import { JobProgress } from "@web/ui/jobs/JobProgress";
import { IMPORT_HEADER, type ImportReport } from "@web/ui/jobs/userJobs";
import { useCallback, useId, useState } from "react";
import "@web/ui/jobs/userJobs.css";
import { DataTable } from "@web/ui/DataTable";
import { BusyDialog } from "@web/ui/FormDialog";

/** Props of the import dialog (the user management page opens it from "Import"). */
export interface ImportUsersDialogProps {
  isOpen: boolean;
  onClose(): void;
  onDone(): void;
}

/** POST /api/admin/users/import: the report, and the job of a real run. @throws the API's error. */
function usePostImport(): (csv: string, dryRun: boolean) => Promise<ImportReport> {
  const send = useRestSend();
  return async (csv, dryRun) =>
    (await send({ method: "POST", path: "/api/admin/users/import", body: { csv, dryRun } })) as ImportReport;
}

/**
 * Imports clients from a CSV file: choose it, read the dry run's report (every rejected row with its
 * field and the registration's message), then create the accepted rows as clients and send each an
 * invitation, with progress and the result.
 */
export function ImportUsersDialog(props: ImportUsersDialogProps) {
  if (!props.isOpen) return null;
  return <ImportFlow {...props} />;
}

function ImportFlow({ onClose, onDone }: Omit<ImportUsersDialogProps, "isOpen">) {
  useReturnFocus();
  const postImport = usePostImport();
  const fileId = useId();
  const [file, setFile] = useState<{ name: string; csv: string } | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [jobId, setJobId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [finished, setFinished] = useState(false);

  const check = async (csv: string) => {
    setBusy(true);
    setProblem(null);
    setReport(null);
    try {
      setReport(await postImport(csv, true));
    } catch (caught) {
      setProblem(serverMessage(caught, "The file could not be checked"));
    } finally {
      setBusy(false);
    }
  };

  const handleFile = async (event: React.FormEvent<HTMLInputElement>) => {
    const chosen = event.currentTarget.files?.[0];
    if (!chosen) return;
    setReport(null);
    if (chosen.size > IMPORT_MAX_BYTES) {
      setFile(null);
      setProblem("The file is larger than 2 MB. Please split it into smaller files.");
      return;
    }
    const csv = await chosen.text();
    setFile({ name: chosen.name, csv });
    await check(csv);
  };

  const handleImport = async () => {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const done = await postImport(file.csv, false);
      setReport(done);
      if (done.job) setJobId(done.job.id);
      else setProblem("No row could be imported; correct the file and choose it again.");
    } catch (caught) {
      setProblem(serverMessage(caught, "The import could not be started"));
    } finally {
      setBusy(false);
    }
  };

  const handleFinished = useCallback(() => {
    setFinished(true);
    onDone();
  }, [onDone]);

  const accepted = report?.acceptedRows ?? 0;
  return (
    <BusyDialog title="Import clients" busy={busy} onClose={onClose} className="user-dialog-wide">
      <DialogBody>
        {jobId === null ? (
          <>
            <p>
              A CSV file whose first row is <code>{IMPORT_HEADER}</code>, at most 5,000 rows and 2 MB. Each
              accepted row becomes a client who receives an invitation to set a password.
            </p>
            <FormGroup label="CSV file" labelFor={fileId}>
              <FileInput
                fill
                text={file?.name ?? "Choose a file…"}
                hasSelection={file !== null}
                buttonText="Browse"
                inputProps={{ id: fileId, accept: ".csv,text/csv", "aria-label": "CSV file" }}
                onInputChange={(e) => void handleFile(e)}
                disabled={busy}
              />
            </FormGroup>
          </>
        ) : null}
        {problem ? <ServerProblem message={problem} /> : null}
        {report && jobId === null ? <ImportReportView report={report} /> : null}
        {jobId !== null ? <JobProgress jobId={jobId} title="Import" onFinished={handleFinished} /> : null}
      </DialogBody>
      <DialogFooter
        actions={
          jobId === null ? (
            <>
              <Button text="Cancel" onClick={onClose} disabled={busy} />
              <Button
                intent={Intent.PRIMARY}
                text={`Import ${accepted.toLocaleString("en-US")} ${accepted === 1 ? "client" : "clients"} and send invitations`}
                disabled={!report || accepted === 0}
                loading={busy}
                onClick={() => void handleImport()}
              />
            </>
          ) : (
            <Button
              intent={Intent.PRIMARY}
              text={finished ? "Done" : "Close (the import goes on)"}
              onClick={onClose}
            />
          )
        }
      />
    </BusyDialog>
  );
}

/** The dry run's report: the counts, then each rejected row's problems. */
function ImportReportView({ report }: { report: ImportReport }) {
  return (
    <div className="user-import-summary">
      <Callout
        role="status"
        intent={report.rejectedRows > 0 ? Intent.WARNING : Intent.SUCCESS}
        title={`${report.acceptedRows.toLocaleString("en-US")} of ${report.totalRows.toLocaleString("en-US")} rows can be imported`}
      >
        {report.rejectedRows > 0
          ? `${report.rejectedRows.toLocaleString("en-US")} rows have errors and will be left out. Nothing has been created yet.`
          : "Every row is valid. Nothing has been created yet."}
      </Callout>
      {report.errors.length > 0 ? (
        <DataTable
          scrollClassName="user-job-table"
          region="Rows with errors"
          caption={<caption className="user-job-subtitle">Rows with errors</caption>}
          columns={["Row", "Field", "Message"]}
          rows={report.errors}
        >
          {(e) => (
            <tr key={`${e.row}-${e.field}-${e.message}`}>
              <td>{e.row}</td>
              <td>{e.field}</td>
              <td>{e.message}</td>
            </tr>
          )}
        </DataTable>
      ) : null}
    </div>
  );
}
