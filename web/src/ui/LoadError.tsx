import { Button, NonIdealState } from "@blueprintjs/core";
import { Error as ErrorIcon, Refresh } from "@blueprintjs/icons";

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
