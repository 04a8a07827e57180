import type { OperationVariables, TypedDocumentNode } from "@apollo/client";
import { useMutation } from "@apollo/client/react";
import { Button, Callout, Intent } from "@blueprintjs/core";
import { DataConnection } from "@blueprintjs/icons";
import { useState } from "react";

/** What a "Test connection" found: whether it connected, in the portal's words, and how fast. */
export interface ConnectionTestResult {
  ok: boolean;
  message: string;
  latencyMs: number | null;
}

/** A test mutation's typed answer: its success member with the result, or an `AppError`. */
interface TestAnswer {
  __typename?: string;
  data?: ConnectionTestResult;
  message?: string;
}

const COULD_NOT_RUN = "The test could not run";

/**
 * The "Test connection" of a settings page: `run` sends the page's test mutation and keeps what it
 * found, a failure in the server's words (or "The test could not run") when the answer is an error
 * or the request fails; `clear` forgets it when what it tested changes.
 */
export function useConnectionTest<TResult, TVars, A extends TestAnswer, K extends string>(props: {
  /** the page's test mutation */
  mutation: TypedDocumentNode<TResult, TVars>;
  /** the mutation's field out of its data */
  answerOf(data: TResult): A | null | undefined;
  /** the `__typename` of the success member */
  success: K;
}) {
  const [result, setResult] = useState<ConnectionTestResult | null>(null);
  const [test, testing] = useMutation<TResult, OperationVariables>(props.mutation);
  const run = async (variables: TVars) => {
    setResult(null);
    try {
      const { data } = await test({ variables: variables as Record<string, unknown> });
      const answer = data ? props.answerOf(data as TResult) : undefined;
      if (answer?.__typename === props.success && answer.data) setResult(answer.data);
      else
        setResult({
          ok: false,
          message: answer?.__typename === "AppError" ? (answer.message ?? COULD_NOT_RUN) : COULD_NOT_RUN,
          latencyMs: null,
        });
    } catch {
      setResult({ ok: false, message: COULD_NOT_RUN, latencyMs: null });
    }
  };
  return { result, testing: testing.loading, run, clear: () => setResult(null) };
}

/** Props of {@link ConnectionTest}. */
export interface ConnectionTestProps {
  result: ConnectionTestResult | null;
  testing: boolean;
  onTest(): void;
  /** the class of the status region under the button */
  className: string;
}

/**
 * The "Test connection" button and, under it in a status region (so it is announced), what the test
 * found: "Connection works" or "Connection failed", with the message and the time it took.
 */
export function ConnectionTest({ result, testing, onTest, className }: ConnectionTestProps) {
  return (
    <>
      <Button icon={<DataConnection />} text="Test connection" loading={testing} onClick={onTest} />
      <div role="status" className={className}>
        {result && (
          <Callout
            intent={result.ok ? Intent.SUCCESS : Intent.DANGER}
            compact
            title={result.ok ? "Connection works" : "Connection failed"}
          >
            {result.message}
            {result.latencyMs !== null ? ` (${result.latencyMs} ms)` : ""}
          </Callout>
        )}
      </div>
    </>
  );
}
