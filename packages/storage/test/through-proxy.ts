import { afterAll, beforeAll } from "vitest";
import { openStorage, type Storage } from "../src";
import { startTcpProxy, type TcpProxy } from "../src/testing";
import { POSTGRES_URL, postgresDatabase } from "./databases";

/** The same database, reached through the proxy's port. */
function throughPort(url: string, port: number): string {
  const through = new URL(url);
  through.hostname = "127.0.0.1";
  through.port = String(port);
  return through.toString();
}

/**
 * A scratch Postgres database of the test file's own, opened through a TCP proxy the test can cut
 * and restore (call inside a describe): a link that dies, freezes or comes back.
 */
export function useStorageThroughProxy(): { proxy(): TcpProxy; storage(): Storage } {
  let scratch: Awaited<ReturnType<typeof postgresDatabase.create>> | undefined;
  let proxy: TcpProxy | undefined;
  let storage: Storage | undefined;
  beforeAll(async () => {
    scratch = await postgresDatabase.create();
    const target = new URL(POSTGRES_URL ?? "");
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = scratch.config.driver === "postgres" ? scratch.config.url : "";
    storage = await openStorage({ driver: "postgres", url: throughPort(url, proxy.port) });
  }, 60_000);
  afterAll(async () => {
    await storage?.close();
    await proxy?.close();
    await scratch?.dispose();
  });
  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) {
      throw new Error("The storage through the proxy is only open inside the test file's tests.");
    }
    return value;
  };
  return { proxy: () => opened(proxy), storage: () => opened(storage) };
}
