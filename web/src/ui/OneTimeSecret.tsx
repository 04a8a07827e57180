import "./dialogs.css";
import { Button, Callout, Classes, DialogBody, DialogFooter, InputGroup, Intent } from "@blueprintjs/core";
import { Clipboard } from "@blueprintjs/icons";
import { showToast } from "@web/lib/toast";
import { type ReactNode, useId, useRef } from "react";

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
    <div className="ui-secret">
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
        className="ui-secret-value"
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

/** Props of {@link OneTimeSecretStep}. */
export interface OneTimeSecretStepProps extends OneTimeSecretProps {
  onClose(): void;
}

/** The last step of a dialog that made a secret: the secret shown once, and "I have stored it". */
export function OneTimeSecretStep({ onClose, ...secret }: OneTimeSecretStepProps) {
  return (
    <>
      <DialogBody>
        <OneTimeSecret {...secret} />
      </DialogBody>
      <DialogFooter actions={<Button intent={Intent.PRIMARY} text="I have stored it" onClick={onClose} />} />
    </>
  );
}
