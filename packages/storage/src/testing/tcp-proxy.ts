import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy in front of the database, so a test can take the database away the ways a network
 * does: `cut` resets every connection and refuses new ones; `freeze` keeps connections open but
 * passes no byte either way (what a dead link or a hung server looks like); `restore` undoes
 * either, handing on what a freeze held back. `resetAfterStartup` resets each new connection at
 * the client's first message after its startup message: the link dies just as a client that has
 * connected sends its first query.
 */
export interface TcpProxy {
  readonly port: number;
  cut(): Promise<void>;
  freeze(): void;
  resetAfterStartup(on: boolean): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pipe {
  readonly client: Socket;
  readonly upstream: Socket;
  /** Bytes a freeze held back, in order, per direction. */
  readonly held: { toUpstream: Buffer[]; toClient: Buffer[] };
}

export async function startTcpProxy(target: {
  readonly host: string;
  readonly port: number;
}): Promise<TcpProxy> {
  const pipes = new Set<Pipe>();
  let frozen = false;
  let resetting = false;
  let server: Server | undefined;
  let port = 0;

  const forward = (pipe: Pipe, from: "client" | "upstream", chunk: Buffer) => {
    const to = from === "client" ? pipe.upstream : pipe.client;
    const held = from === "client" ? pipe.held.toUpstream : pipe.held.toClient;
    if (frozen) {
      held.push(chunk);
    } else {
      to.write(chunk);
    }
  };

  const accept = (client: Socket) => {
    const upstream = connect(target.port, target.host);
    // As the clients it stands between do (postgres.js, HTTP): a small write is not held for the peer's ACK.
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    const pipe: Pipe = { client, upstream, held: { toUpstream: [], toClient: [] } };
    pipes.add(pipe);
    const end = () => {
      pipes.delete(pipe);
      client.destroy();
      upstream.destroy();
    };
    const resetsAfterStartup = resetting;
    let clientChunks = 0;
    client.on("data", (chunk: Buffer) => {
      clientChunks += 1;
      if (resetsAfterStartup && clientChunks > 1) {
        pipes.delete(pipe);
        client.resetAndDestroy();
        upstream.destroy();
        return;
      }
      forward(pipe, "client", chunk);
    });
    upstream.on("data", (chunk: Buffer) => forward(pipe, "upstream", chunk));
    for (const socket of [client, upstream]) {
      socket.on("error", end);
      socket.on("close", end);
    }
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer(accept);
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => {
        const address = next.address();
        port = typeof address === "object" && address !== null ? address.port : port;
        server = next;
        resolve();
      });
    });

  const stopListening = () =>
    new Promise<void>((resolve) => {
      const current = server;
      server = undefined;
      if (!current) {
        resolve();
        return;
      }
      current.close(() => resolve());
    });

  await listen();
  return {
    port,
    async cut() {
      await Promise.all([
        stopListening(),
        ...[...pipes].map(async ({ client, upstream }) => {
          client.resetAndDestroy();
          upstream.destroy();
        }),
      ]);
      pipes.clear();
    },
    freeze() {
      frozen = true;
    },
    resetAfterStartup(on: boolean) {
      resetting = on;
    },
    async restore() {
      frozen = false;
      for (const pipe of pipes) {
        for (const chunk of pipe.held.toUpstream.splice(0)) {
          pipe.upstream.write(chunk);
        }
        for (const chunk of pipe.held.toClient.splice(0)) {
          pipe.client.write(chunk);
        }
      }
      if (!server) {
        await listen();
      }
    },
    async close() {
      for (const { client, upstream } of pipes) {
        client.destroy();
        upstream.destroy();
      }
      pipes.clear();
      await stopListening();
    },
  };
}
