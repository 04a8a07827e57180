// The one promise timeout of the portal: health and readiness checks, first connections, storage and
// SMTP probes. The work itself is left behind when the time runs out (a late failure of it is not
// an unhandled rejection); the timer is cleared as soon as either side settles.

/**
 * Settles with `work` (a promise, or a function started at once) if it settles within `ms`, else
 * rejects with `onTimeout`: an error it makes, or, for a name, Error "{name} did not answer within
 * {ms} ms".
 * @throws the work's error, or the timeout's.
 */
export async function withTimeout<T>(
  work: Promise<T> | (() => Promise<T>),
  ms: number,
  onTimeout: string | (() => Error),
): Promise<T> {
  const running = typeof work === "function" ? Promise.resolve().then(work) : work;
  running.catch(() => undefined); // a late failure after the deadline is not unhandled
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          typeof onTimeout === "string"
            ? new Error(`${onTimeout} did not answer within ${ms} ms`)
            : onTimeout(),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([running, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
