import { Button, Callout, type Intent, NonIdealState } from "@blueprintjs/core";
import { Error as ErrorIcon, Refresh } from "@blueprintjs/icons";
import type { ReactNode } from "react";

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

/** Props of {@link LoadErrorCallout}. */
export interface LoadErrorCalloutProps {
  /** what could not be loaded: "Documents could not be loaded" */
  title: string;
  intent: Intent;
  onRetry(): void;
  /** what went wrong, before "Try again" (none: the title says enough) */
  children?: ReactNode;
}

/** A query that failed, as a callout in the place of what it loads: the title, and "Try again". */
export function LoadErrorCallout({ title, intent, onRetry, children }: LoadErrorCalloutProps) {
  return (
    <Callout intent={intent} title={title}>
      {children}
      <Button variant="minimal" size="small" icon={<Refresh />} text="Try again" onClick={onRetry} />
    </Callout>
  );
}
