import "./dialogs.css";
import { Button, Callout, Dialog, DialogBody, DialogFooter, Intent } from "@blueprintjs/core";
import type { ReactNode } from "react";
import { useReturnFocus } from "./hooks";

/** Props of a confirmation dialog. */
export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmText: string;
  intent?: Intent;
  loading?: boolean;
  /** the server's message after a failed attempt */
  problem?: string | null;
  onConfirm(): void;
  onClose(): void;
}

/**
 * A question before an action: Enter or the confirm button goes ahead, Escape or Back does not;
 * focus returns to the button that opened it. Mount it only while it is open.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  useReturnFocus();
  const { title, loading = false, onClose } = props;
  return (
    <Dialog isOpen title={title} onClose={loading ? undefined : onClose} canOutsideClickClose={!loading}>
      <ConfirmForm {...props} />
    </Dialog>
  );
}

/** The body and buttons of a confirmation, for a dialog that goes on to show something else. */
export function ConfirmForm({
  title,
  children,
  confirmText,
  intent = Intent.PRIMARY,
  loading = false,
  problem,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <form
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        if (!loading) onConfirm();
      }}
    >
      <DialogBody>
        {children}
        {problem ? <ServerProblem message={problem} /> : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Back" onClick={onClose} disabled={loading} />
            <Button type="submit" intent={intent} text={confirmText} loading={loading} autoFocus />
          </>
        }
      />
    </form>
  );
}

/** Props of a server's refusal. */
export interface ServerProblemProps {
  message: string;
}

/** The server's refusal inside a dialog. */
export function ServerProblem({ message }: ServerProblemProps) {
  return (
    <Callout intent={Intent.DANGER} compact role="alert" className="ui-problem">
      {message}
    </Callout>
  );
}
