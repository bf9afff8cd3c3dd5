import { createServer } from "node:net";

/**
 * A loopback port nothing listens on now. A process that must come back on the same port after a
 * kill (a cluster member, the balancer's view of it) needs one fixed before it starts; port 0
 * would give it another each time.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
