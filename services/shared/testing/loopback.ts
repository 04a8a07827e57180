import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** An HTTP server a test or benchmark started on a free loopback port. */
export interface LoopbackServer {
  server: Server;
  /** http://127.0.0.1:{port} */
  url: string;
  port: number;
  /** ends the open connections and closes the server */
  close(): Promise<void>;
}

/**
 * Serves `handler` (an Express app, for one) over HTTP on 127.0.0.1 at a free port.
 * @throws when the server cannot listen.
 */
export async function listenOnLoopback(handler: RequestListener): Promise<LoopbackServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
