import { AnchorButton, Intent } from "@blueprintjs/core";
import { Share } from "@blueprintjs/icons";

/** Props of {@link ProAppButton}. */
export interface ProAppButtonProps {
  href: string;
  /** "Launch ESRT Pro", "Open ESRT Pro" */
  text: string;
  intent?: Intent;
  large?: boolean;
}

/** A button that opens ESRT Pro (or another outside address) in a new tab. */
export function ProAppButton({ href, text, intent = Intent.PRIMARY, large }: ProAppButtonProps) {
  return (
    <AnchorButton
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      intent={intent}
      large={large}
      endIcon={<Share />}
      text={text}
    />
  );
}
