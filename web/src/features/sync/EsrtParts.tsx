import {
  Button,
  Callout,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  InputGroup,
  Intent,
  NonIdealState,
  Tag,
} from "@blueprintjs/core";
import { Clipboard, Error as ErrorIcon, Refresh } from "@blueprintjs/icons";
import { useReturnFocus } from "@web/features/documents/DocumentParts";
import type { EsrtDeliveryStatus, EsrtHealth } from "@web/generated/graphql";
import { showToast } from "@web/lib/toast";
import { type ReactNode, useId, useRef } from "react";
import { DELIVERY_STATUS_TAGS, HEALTH_HINTS, HEALTH_TAGS } from "./esrtSync";

/** Props of a health tag. */
export interface HealthTagProps {
  health: EsrtHealth;
}

/** An endpoint's or the NATS channel's health as a tag; its meaning is the tag's title. */
export function HealthTag({ health }: HealthTagProps) {
  const look = HEALTH_TAGS[health];
  return (
    <Tag intent={look.intent} minimal round title={HEALTH_HINTS[health]}>
      {look.text}
    </Tag>
  );
}

/** Props of a delivery status tag. */
export interface DeliveryStatusTagProps {
  status: EsrtDeliveryStatus;
}

/** A delivery's status as a tag. */
export function DeliveryStatusTag({ status }: DeliveryStatusTagProps) {
  const look = DELIVERY_STATUS_TAGS[status];
  return (
    <Tag intent={look.intent} minimal round>
      {look.text}
    </Tag>
  );
}

/** Props of a failed query's state. */
export interface LoadErrorProps {
  title: string;
  error: Error;
  onRetry(): void;
}

/** A query that failed: what could not be loaded, the server's message, and "Try again". */
export function LoadError({ title, error, onRetry }: LoadErrorProps) {
  return (
    <NonIdealState
      icon={<ErrorIcon />}
      title={title}
      description={error.message}
      action={<Button icon={<Refresh />} text="Try again" onClick={onRetry} />}
    />
  );
}

/**
 * Copies `value` to the clipboard and says so; where the browser refuses, selects `input` so the
 * person can copy it by hand.
 */
export async function copyToClipboard(
  value: string,
  input: HTMLInputElement | null,
  what: string,
): Promise<void> {
  try {
    await navigator.clipboard.writeText(value);
    showToast({ title: `${what} copied to the clipboard`, intent: Intent.SUCCESS });
  } catch {
    input?.focus();
    input?.select();
    showToast({
      title: "The browser did not allow copying",
      description: `${what} is selected: copy it with Ctrl+C (⌘C).`,
      intent: Intent.WARNING,
    });
  }
}

/** Props of a secret shown once. */
export interface OneTimeSecretProps {
  /** the field's label: "Signing secret", "API key" */
  label: string;
  /** the same within a sentence: "signing secret", "API key" */
  noun: string;
  value: string;
  children?: ReactNode;
}

/**
 * A secret the server shows this once: read-only in a monospace field with a copy button, and the
 * warning that it will not be shown again.
 */
export function OneTimeSecret({ label, noun, value, children }: OneTimeSecretProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="esrt-secret">
      <Callout intent={Intent.WARNING} compact title="Copy it now">
        This {noun} is shown only this once and cannot be shown again. Store it where the Pro app reads its
        settings.
      </Callout>
      <label htmlFor={id} className={Classes.LABEL}>
        {label}
      </label>
      <InputGroup
        id={id}
        inputRef={input}
        readOnly
        value={value}
        className="esrt-secret-value"
        autoFocus
        onFocus={(e) => e.currentTarget.select()}
        rightElement={
          <Button
            variant="minimal"
            icon={<Clipboard />}
            aria-label={`Copy the ${noun}`}
            title="Copy"
            onClick={() => void copyToClipboard(value, input.current, label)}
          />
        }
      />
      {children}
    </div>
  );
}

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

/** Props of a scrolling region. */
export interface ScrollRegionProps {
  /** what it holds, read by screen readers */
  label: string;
  className: string;
  children: ReactNode;
}

/**
 * A box whose content may overflow (a wide table at 375 px, a long payload) and that holds nothing
 * focusable: it takes focus itself so the keyboard can scroll it (WCAG 2.1.1).
 */
export function ScrollRegion({ label, className, children }: ScrollRegionProps) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region with nothing focusable inside must take focus to be scrolled by keyboard
    <section className={className} aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}

/** The server's refusal inside a dialog. */
export function ServerProblem({ message }: { message: string }) {
  return (
    <Callout intent={Intent.DANGER} compact role="alert" className="esrt-problem">
      {message}
    </Callout>
  );
}
