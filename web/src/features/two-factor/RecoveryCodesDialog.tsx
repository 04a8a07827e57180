import { AnchorButton, Button, Callout, Dialog, DialogBody, DialogFooter, Intent } from "@blueprintjs/core";
import { Clipboard, Download } from "@blueprintjs/icons";
import { useBranding } from "@web/data/rest";
import { useReturnFocus } from "@web/ui/hooks";
import { copyToClipboard } from "@web/ui/OneTimeSecret";
import { useMemo } from "react";
import { recoveryCodesText, textFileHref } from "./twoFactor";

/** Props of {@link RecoveryCodesDialog}. */
export interface RecoveryCodesDialogProps {
  codes: readonly string[];
  /** the account they belong to, named in the downloaded file */
  account: string;
  /** the text of the button that closes it */
  doneText?: string;
  onClose(): void;
}

/**
 * Recovery codes the server shows this once (after the first second factor, or a regeneration):
 * listed, to copy or download as a text file; only "I have saved them" closes it, so that a stray
 * Escape or click does not lose them.
 */
export function RecoveryCodesDialog({
  codes,
  account,
  doneText = "I have saved them",
  onClose,
}: RecoveryCodesDialogProps) {
  useReturnFocus();
  const { title } = useBranding();
  const text = useMemo(
    () => recoveryCodesText({ codes, portal: `${title} Portal`, account, at: new Date() }),
    [codes, title, account],
  );
  return (
    <Dialog
      isOpen
      title="Save your recovery codes"
      isCloseButtonShown={false}
      canEscapeKeyClose={false}
      canOutsideClickClose={false}
      className="two-factor-codes-dialog"
    >
      <DialogBody>
        <Callout intent={Intent.WARNING} compact title="Shown only this once">
          Each code signs you in once when your authenticator app or passkey is not at hand. Keep them
          somewhere safe, such as a password manager.
        </Callout>
        <ol aria-label="Recovery codes" className="two-factor-codes">
          {codes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ol>
        <div className="portal-actions">
          <Button
            icon={<Clipboard />}
            text="Copy"
            onClick={() => void copyToClipboard(codes.join("\n"), null, "The recovery codes")}
          />
          <AnchorButton
            icon={<Download />}
            text="Download as text"
            href={textFileHref(text)}
            download="recovery-codes.txt"
          />
        </div>
      </DialogBody>
      <DialogFooter
        actions={<Button intent={Intent.PRIMARY} text={doneText} autoFocus onClick={onClose} />}
      />
    </Dialog>
  );
}
