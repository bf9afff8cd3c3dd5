import { startTcpProxy, type TcpProxy } from "@oar/storage/testing";
import { afterEach } from "vitest";
import type { RelayOverrides } from "../../src/compose";
import { createTestRelay, type TestRelay } from "../harness";
import { TEST_POSTGRES_URL, throughPort, useScratchPostgres } from "./postgres";

/**
 * A relay on the file's scratch Postgres database reached through a proxy the test can cut and
 * restore. After each test the link is restored first, then the relay closed: closing right
 * after an outage waits for the stores' in-flight work (up to their deadlines).
 */
export function useRelayThroughProxy(): (
  overrides?: RelayOverrides,
) => Promise<{ readonly relay: TestRelay; readonly proxy: TcpProxy }> {
  const database = useScratchPostgres();
  let proxy: TcpProxy | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await proxy?.restore();
    await close?.();
    await proxy?.close();
  }, 30_000);
  return async (overrides) => {
    const target = new URL(TEST_POSTGRES_URL ?? "");
    const started = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    proxy = started;
    const relay = await createTestRelay({
      databaseUrl: throughPort(database().url, started.port),
      ...(overrides === undefined ? {} : { overrides }),
      keepOpen: true,
    });
    close = () => relay.relay.close();
    return { relay, proxy: started };
  };
}
