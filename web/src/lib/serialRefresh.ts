/**
 * A refresh that never answers with data older than its last call. Apollo Client joins a request
 * that is already in flight for the same query (query deduplication), so a list refetched as each of
 * two uploads finishes could get, for the second, the answer to a request sent before the second
 * document existed. Here a call made while a refresh runs starts one more refresh once it ends;
 * any number of such calls start just that one.
 */
export function serialRefresh(run: () => Promise<unknown>): () => void {
  let running = false;
  let again = false;
  const start = (): void => {
    running = true;
    again = false;
    run()
      .catch(() => undefined)
      .finally(() => {
        running = false;
        if (again) start();
      });
  };
  return () => {
    if (running) again = true;
    else start();
  };
}
