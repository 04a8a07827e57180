import { useMutation, useQuery } from "@apollo/client/react";
import { Button, DialogBody, DialogFooter, FormGroup, HTMLSelect, Intent } from "@blueprintjs/core";
import { useAnswerProblem } from "@web/features/sync/esrtSync";
import {
  GrantableUserTypesDocument,
  StartUserBulkJobDocument,
  type UserBulkAction,
  type UserFilter,
  type UserType,
} from "@web/generated/graphql";
import { ServerProblem } from "@web/ui/ConfirmDialog";
import { useReturnFocus } from "@web/ui/hooks";
import { JobProgress } from "@web/ui/jobs/JobProgress";
import {
  BULK_ACTION_LABELS,
  BULK_VALUES,
  confirmQuestion,
  USER_TYPE_LABELS,
  usersCount,
} from "@web/ui/jobs/userJobs";
import { useCallback, useId, useState } from "react";
import "@web/ui/jobs/userJobs.css";
import { BusyDialog } from "@web/ui/FormDialog";

/** Which users a bulk action is for: rows chosen by id, or every user matching the page's filter. */
export type BulkSelection =
  | { kind: "ids"; ids: number[] }
  | { kind: "filter"; filter: UserFilter; total: number };

/** Props of the bulk actions dialog (the user management page opens it from "Bulk actions"). */
export interface BulkActionsDialogProps {
  isOpen: boolean;
  selection: BulkSelection;
  onClose(): void;
  onDone(): void;
}

const ACTIONS = Object.keys(BULK_ACTION_LABELS) as UserBulkAction[];

type Step = { kind: "choose" } | { kind: "confirm" } | { kind: "running"; jobId: number };

/**
 * A change to many users at once: choose the action and its value, confirm with the count, then a
 * progress bar while the job runs and its result, with each skipped or failed user and why.
 */
export function BulkActionsDialog(props: BulkActionsDialogProps) {
  if (!props.isOpen) return null;
  return <BulkActionsFlow {...props} />;
}

function BulkActionsFlow({ selection, onClose, onDone }: BulkActionsDialogProps) {
  useReturnFocus();
  const ids = { action: useId(), value: useId() };
  const count = selection.kind === "ids" ? selection.ids.length : selection.total;
  const types = useQuery(GrantableUserTypesDocument, { fetchPolicy: "cache-first" });
  const [start, state] = useMutation(StartUserBulkJobDocument);
  const [action, setAction] = useState<UserBulkAction>("setStatus");
  const [value, setValue] = useState<string>("inactive");
  const [step, setStep] = useState<Step>({ kind: "choose" });
  const { problem, setProblem, run } = useAnswerProblem();
  const [finished, setFinished] = useState(false);

  const values: readonly string[] =
    action === "resendVerification"
      ? []
      : action === "setType"
        ? (types.data?.grantableUserTypes ?? [])
        : BULK_VALUES[action];

  const handleAction = (next: UserBulkAction) => {
    setAction(next);
    const first =
      next === "resendVerification"
        ? ""
        : next === "setType"
          ? (types.data?.grantableUserTypes[0] ?? "")
          : BULK_VALUES[next][0];
    setValue(first ?? "");
  };

  const handleStart = async () => {
    setProblem(null);
    const failure = "The change could not be started";
    await run(
      failure,
      async () =>
        (
          await start({
            variables: {
              ...(selection.kind === "ids" ? { ids: selection.ids } : { filter: selection.filter }),
              action,
              value: action === "resendVerification" ? null : value,
            },
          })
        ).data?.startUserBulkJob,
      (data) => {
        setStep({ kind: "running", jobId: data.id });
      },
    );
  };

  const handleFinished = useCallback(() => {
    setFinished(true);
    onDone();
  }, [onDone]);

  const valueLabel = (v: string) => (action === "setType" ? USER_TYPE_LABELS[v as UserType] : v);
  const question = confirmQuestion(action, action === "setType" ? value : value, count);
  const running = step.kind === "running" && !finished;

  return (
    <BusyDialog title="Bulk actions" busy={state.loading} onClose={onClose} className="user-dialog-wide">
      {step.kind === "choose" ? (
        <form
          aria-label="Choose a bulk action"
          onSubmit={(e) => {
            e.preventDefault();
            setStep({ kind: "confirm" });
          }}
        >
          <DialogBody>
            <p>
              {selection.kind === "ids"
                ? `${usersCount(count)} selected.`
                : `Every user matching the current filter: ${usersCount(count)} now (the users matching when the change starts).`}
            </p>
            <FormGroup label="Action" labelFor={ids.action}>
              <HTMLSelect
                id={ids.action}
                fill
                value={action}
                onChange={(e) => handleAction(e.currentTarget.value as UserBulkAction)}
                autoFocus
              >
                {ACTIONS.map((a) => (
                  <option key={a} value={a}>
                    {BULK_ACTION_LABELS[a]}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
            {values.length > 0 ? (
              <FormGroup
                label="New value"
                labelFor={ids.value}
                helperText={action === "setType" ? "Only the types you may grant are offered." : undefined}
              >
                <HTMLSelect
                  id={ids.value}
                  fill
                  value={value}
                  onChange={(e) => setValue(e.currentTarget.value)}
                >
                  {values.map((v) => (
                    <option key={v} value={v}>
                      {valueLabel(v)}
                    </option>
                  ))}
                </HTMLSelect>
              </FormGroup>
            ) : null}
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text="Cancel" onClick={onClose} />
                <Button
                  type="submit"
                  intent={Intent.PRIMARY}
                  text="Continue"
                  disabled={count === 0 || (values.length > 0 && !value)}
                />
              </>
            }
          />
        </form>
      ) : step.kind === "confirm" ? (
        <form
          aria-label="Confirm the bulk action"
          onSubmit={(e) => {
            e.preventDefault();
            if (!state.loading) void handleStart();
          }}
        >
          <DialogBody>
            <p>
              <strong>{question}</strong>
            </p>
            <p>
              Each user is changed on their own, with an audit entry; users you may not change are skipped and
              listed with the reason.
            </p>
            {problem ? <ServerProblem message={problem} /> : null}
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text="Back" onClick={() => setStep({ kind: "choose" })} disabled={state.loading} />
                <Button
                  type="submit"
                  intent={Intent.PRIMARY}
                  text="Apply"
                  loading={state.loading}
                  autoFocus
                />
              </>
            }
          />
        </form>
      ) : (
        <>
          <DialogBody>
            <p>{question.replace(/\?$/, ".")}</p>
            <JobProgress jobId={step.jobId} title={BULK_ACTION_LABELS[action]} onFinished={handleFinished} />
          </DialogBody>
          <DialogFooter
            actions={
              <Button
                intent={Intent.PRIMARY}
                text={running ? "Close (the change goes on)" : "Done"}
                onClick={onClose}
              />
            }
          />
        </>
      )}
    </BusyDialog>
  );
}
