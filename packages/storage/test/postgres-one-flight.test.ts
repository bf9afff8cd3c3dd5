import { once } from "node:events";
import { type AddressInfo, createServer, type Server, Socket } from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POSTGRES_URL, postgresDatabase } from "./databases";

/** The message types of one direction of a Postgres link, in the order they pass. */
class MessageTypes {
  private buffer = Buffer.alloc(0);
  constructor(
    private readonly log: string[],
    private readonly side: "client" | "server",
    private skipUntyped: boolean,
  ) {}

  push(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      // The client's startup message has no type byte: its length comes first.
      const typed = !this.skipUntyped;
      const header = typed ? 5 : 4;
      if (this.buffer.length < header) {
        return;
      }
      const length = this.buffer.readUInt32BE(typed ? 1 : 0) + (typed ? 1 : 0);
      if (this.buffer.length < length) {
        return;
      }
      if (typed) {
        this.log.push(`${this.side}:${String.fromCharCode(this.buffer[0] ?? 0)}`);
      }
      this.skipUntyped = false;
      this.buffer = this.buffer.subarray(length);
    }
  }
}

/** A pass-through to Postgres that notes every message's type, both ways, as it passes. */
async function startRecorder(target: URL): Promise<{ server: Server; port: number; log: string[] }> {
  const log: string[] = [];
  const server = createServer((client) => {
    const upstream = new Socket().connect(Number(target.port || 5432), target.hostname);
    const fromClient = new MessageTypes(log, "client", true);
    const fromServer = new MessageTypes(log, "server", false);
    client.on("data", (chunk) => {
      fromClient.push(chunk);
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      fromServer.push(chunk);
      client.write(chunk);
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, port: (server.address() as AddressInfo).port, log };
}

// patches/postgres@3.4.9.patch: drizzle sends every query unprepared; postgres.js described each
// one first (Parse, Describe, Flush), waited for the parameter types, then sent Bind and Execute:
// two round trips a statement, and none of a transaction's side-by-side statements pipelined. And
// a transaction waited for BEGIN's answer before sending its first statement.
describe.skipIf(!postgresDatabase.available)("postgres.js sends an unprepared query in one flight", () => {
  let scratch: Awaited<ReturnType<typeof postgresDatabase.create>>;
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  let sql: postgres.Sql;

  beforeAll(async () => {
    scratch = await postgresDatabase.create();
    recorder = await startRecorder(new URL(POSTGRES_URL ?? ""));
    const url = new URL(scratch.config.driver === "postgres" ? scratch.config.url : "");
    url.hostname = "127.0.0.1";
    url.port = String(recorder.port);
    sql = postgres(url.toString(), { max: 1, fetch_types: false, onnotice: () => {} });
    await sql`select 1`;
  }, 60_000);
  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    recorder?.server.close();
    await scratch?.dispose();
  });

  it("binds plain values before the server has described them, and reads them back unchanged", async () => {
    recorder.log.length = 0;
    const values = ["héllo ✓", 42, 2.5, 9007199254740993n, true, null] as const;
    const [row] = await sql.unsafe(
      "select $1::text as s, $2::int as i, $3::float8 as f, ($4::int8)::text as b, $5::bool as t, $6::text as n",
      // bigint is not in postgres.js's parameter types, though it sends one as its digits.
      [...values] as never[],
      { prepare: false },
    );
    expect(row).toEqual({ s: "héllo ✓", i: 42, f: 2.5, b: "9007199254740993", t: true, n: null });
    const bind = recorder.log.indexOf("client:B");
    const described = recorder.log.indexOf("server:t");
    expect(bind).toBeGreaterThanOrEqual(0);
    expect(described).toBeGreaterThan(bind);
  });

  it("sends the next query before the first has answered (pipelined on one connection)", async () => {
    recorder.log.length = 0;
    const [first, second] = await Promise.all([
      sql.unsafe("select $1::text as v", ["one"], { prepare: false }),
      sql.unsafe("select $1::text as v", ["two"], { prepare: false }),
    ]);
    expect([first[0]?.v, second[0]?.v]).toEqual(["one", "two"]);
    const parses = recorder.log.flatMap((entry, i) => (entry === "client:P" ? [i] : []));
    expect(parses).toHaveLength(2);
    expect(recorder.log.indexOf("server:Z")).toBeGreaterThan(parses[1] ?? Number.POSITIVE_INFINITY);
  });

  it("sends a transaction's first statements behind BEGIN, before BEGIN has answered", async () => {
    recorder.log.length = 0;
    const rows = await sql.begin((tx) =>
      Promise.all([
        tx.unsafe("select 1 as one"),
        tx.unsafe("select $1::text as v", ["two"], { prepare: false }),
      ]),
    );
    expect(rows.map((result) => result[0])).toEqual([{ one: 1 }, { v: "two" }]);
    // BEGIN goes as a simple query (Q), the first statement after it as one too, the second as
    // Parse; all three leave before the server's first ReadyForQuery (BEGIN's).
    const firstReady = recorder.log.indexOf("server:Z");
    expect(recorder.log.slice(0, 3)).toEqual(["client:Q", "client:Q", "client:P"]);
    expect(firstReady).toBeGreaterThan(recorder.log.indexOf("client:P"));
  });

  it("still rolls back a pipelined transaction whose statement fails, and the connection serves on", async () => {
    await sql.unsafe("create table if not exists one_flight_rows (v text)");
    await expect(
      sql.begin((tx) =>
        Promise.all([
          tx.unsafe("insert into one_flight_rows values ($1)", ["kept?"], { prepare: false }),
          tx.unsafe("select 1 / $1::int", [0], { prepare: false }),
        ]),
      ),
    ).rejects.toThrow(/division by zero/);
    expect(await sql.unsafe("select count(*)::int as n from one_flight_rows")).toEqual([{ n: 0 }]);
    await sql.begin((tx) =>
      tx.unsafe("insert into one_flight_rows values ($1)", ["kept"], { prepare: false }),
    );
    expect(await sql.unsafe("select v from one_flight_rows")).toEqual([{ v: "kept" }]);
  });

  it("still describes first a query whose values need the server's types (an object as json)", async () => {
    recorder.log.length = 0;
    const [row] = await sql.unsafe("select $1::jsonb as j", [{ a: 1 } as never], { prepare: false });
    expect(row?.j).toEqual({ a: 1 });
    expect(recorder.log.indexOf("server:t")).toBeLessThan(recorder.log.indexOf("client:B"));
  });

  it("opens its sockets with TCP_NODELAY (no Nagle wait for the server's delayed ACK)", async () => {
    const calls: boolean[] = [];
    class RecordingSocket extends Socket {
      override setNoDelay(noDelay?: boolean): this {
        calls.push(noDelay ?? true);
        return super.setNoDelay(noDelay);
      }
    }
    const url = new URL(scratch.config.driver === "postgres" ? scratch.config.url : "");
    // postgres.js takes a connected socket from `socket` (untyped there) and runs its startup on it.
    const options = {
      max: 1,
      fetch_types: false,
      onnotice: () => {},
      socket: () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = new RecordingSocket();
          socket.once("error", reject);
          socket.connect(Number(url.port || 5432), url.hostname, () => resolve(socket));
        }),
    };
    const client = postgres(url.toString(), options);
    try {
      expect(await client`select 1 as one`).toEqual([{ one: 1 }]);
      expect(calls).toEqual([true]);
    } finally {
      await client.end({ timeout: 5 });
    }
  });
});
