import { Button, Classes, Intent, NonIdealState } from "@blueprintjs/core";
import { Error as ErrorIcon, Refresh } from "@blueprintjs/icons";
import { lastRequestId } from "@web/data/requestId";
import { Component, type ErrorInfo, type ReactNode } from "react";
import { errorScreenText, isChunkLoadError, requestIdLine } from "./errorScreen";

/** Props of an error boundary. */
export interface ErrorBoundaryProps {
  children: ReactNode;
  /** how the boundary is named in the console log ("root", or the route's path) */
  name: string;
}

interface ErrorBoundaryState {
  error: unknown;
  requestId: string | undefined;
  failed: boolean;
}

/**
 * Catches what its children throw while rendering, so the portal never goes blank: a page whose code
 * failed to load (a chunk gone after a deploy) offers "Reload"; any other error says so with the last
 * request id the client saw (or "No request id"), and "Reload" too. One wraps the whole app, one each
 * lazily loaded page (web/src/features/shell/RouteElement.tsx), keyed by route so it resets on navigation.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: undefined, requestId: undefined, failed: false };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error, requestId: lastRequestId(), failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`The ${this.props.name} error boundary caught:`, error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return <ErrorScreen error={this.state.error} requestId={this.state.requestId} />;
  }
}

/** Props of the error screen. */
export interface ErrorScreenProps {
  error: unknown;
  requestId: string | undefined;
}

/** The screen an error boundary shows in place of what failed. */
export function ErrorScreen({ error, requestId }: ErrorScreenProps) {
  const { title, description } = errorScreenText(error);
  const chunk = isChunkLoadError(error);
  const handleReload = () => window.location.reload();
  return (
    <div className="portal-page portal-error-screen" role="alert">
      <NonIdealState
        icon={chunk ? <Refresh size={48} /> : <ErrorIcon size={48} />}
        title={title}
        description={
          <>
            <p>{description}</p>
            {chunk ? null : <p className={Classes.TEXT_MUTED}>{requestIdLine(requestId)}</p>}
          </>
        }
        action={<Button intent={Intent.PRIMARY} icon={<Refresh />} text="Reload" onClick={handleReload} />}
      />
    </div>
  );
}
