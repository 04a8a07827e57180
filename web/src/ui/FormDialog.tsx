import "./dialogs.css";
import { Button, Dialog, DialogBody, DialogFooter, Intent } from "@blueprintjs/core";
import type { FormEvent, ReactNode } from "react";
import { ServerProblem } from "./ConfirmDialog";

/** Props of {@link BusyDialog}. */
export interface BusyDialogProps {
  title: ReactNode;
  /** while something is being sent, the dialog cannot be closed */
  busy: boolean;
  onClose(): void;
  className?: string;
  children: ReactNode;
}

/** A dialog of the admin pages that holds a form: a click outside never closes it, nor anything while busy. */
export function BusyDialog({ title, busy, onClose, className, children }: BusyDialogProps) {
  return (
    <Dialog
      isOpen
      title={title}
      onClose={busy ? undefined : onClose}
      canOutsideClickClose={false}
      className={className}
    >
      {children}
    </Dialog>
  );
}

/** Props of {@link DialogForm}. */
export interface DialogFormProps {
  /** the form's accessible name */
  label: string;
  /** the submit button's text */
  submitText: string;
  intent?: Intent;
  /** the text of the button that leaves ("Back") */
  backText?: string;
  busy: boolean;
  /** the server's message after a failed attempt */
  problem: string | null;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  onBack(): void;
  children: ReactNode;
}

/**
 * The form inside a dialog: its fields, the server's refusal under them, and the footer's leave and
 * submit buttons (leaving waits while the form is being sent).
 */
export function DialogForm(props: DialogFormProps) {
  const { busy } = props;
  return (
    <form
      aria-label={props.label}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit(event);
      }}
    >
      <DialogBody>
        {props.children}
        {props.problem ? <ServerProblem message={props.problem} /> : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={props.backText ?? "Back"} onClick={props.onBack} disabled={busy} />
            <Button
              type="submit"
              intent={props.intent ?? Intent.PRIMARY}
              text={props.submitText}
              loading={busy}
            />
          </>
        }
      />
    </form>
  );
}

/** A {@link BusyDialog} that holds one {@link DialogForm}, titled with the form's label; Back closes it. */
export function FormDialog({ onClose, ...form }: Omit<DialogFormProps, "onBack"> & { onClose(): void }) {
  return (
    <BusyDialog title={form.label} busy={form.busy} onClose={onClose}>
      <DialogForm {...form} onBack={onClose} />
    </BusyDialog>
  );
}
