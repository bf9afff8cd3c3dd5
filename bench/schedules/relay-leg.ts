import { openBenchDatabase } from "../lib/bench-database";
import { inParallel, type OwnerApi, ownerClient } from "../lib/owner-api";
import { estimate, histogramSince, readHistogram } from "../lib/relay-metrics";
import { startRelayTarget } from "../lib/relay-target";
import { type Firings, tally, waitUntil } from "./figures";

const OWNER_TOKEN = "bench-schedules-owner-token";
/** R-SCHEND-03: a conversation holds at most 20 active schedules that fire in it. */
const PER_SESSION = 20;
/** The relay's own measure of each firing's lateness (its /metrics). */
const LATENESS_HISTOGRAM = "oar_relay_schedule_lateness_seconds";
/** A firing's message begins with its schedule's id (R-SCH-07). */
const SCHEDULE_MESSAGE_RE = /^\[relay schedule (\S+) /;

export interface LegOptions {
  /** Offsets of the instants from the leg's start, increasing. */
  readonly offsets: readonly number[];
  /** How long after the last instant a firing still counts (later: a miss). */
  readonly graceMs: number;
  /** Relay processes behind a balancer (Postgres only); absent, the one process as always. */
  readonly processes?: number;
  /**
   * Lead time per schedule before the first instant, for making them all over HTTP (default 15 ms;
   * about 5 ms a call here). A knee step of thousands lowers it, or it would wait minutes.
   */
  readonly leadMsPerSchedule?: number;
}

/** Thrown when the relay answers `schedule` with a refusal: the leg cannot be measured. */
class Unsupported extends Error {}

/** How a leg reads what the relay did: how many schedules have fired so far, then the figures. */
interface Readout {
  fired(): Promise<number>;
  figures(name: string, due: ReadonlyMap<string, number>): Promise<Firings[]>;
  close(): Promise<void>;
}

/**
 * The relay as `oar-relay start` runs it, on the scratch Postgres database (`databaseUrl`) or, without
 * one, on PGlite in `dataDir`: `script` sessions, each of whose agents schedules its share of the
 * instants in its own conversation over `/v1/tool`. The figures are read as `postgresReadout` and
 * `ownerApiReadout` say.
 */
export async function relayLeg(
  databaseUrl: string | undefined,
  dataDir: string,
  options: LegOptions,
): Promise<Firings[]> {
  const sessionCount = Math.ceil(options.offsets.length / PER_SESSION);
  const label = databaseUrl === undefined ? "relay on PGlite" : "relay on Postgres";
  const relay = await startRelayTarget(
    {
      ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
      RELAY_OWNER_TOKEN: OWNER_TOKEN,
      RELAY_DATA_DIR: dataDir,
      RELAY_ALLOWED_ROOTS: dataDir,
      RELAY_NAME: "bench",
    },
    { ...(options.processes === undefined ? {} : { processes: options.processes }), dir: dataDir },
  );
  const name =
    databaseUrl === undefined
      ? "relay on PGlite (embedded)"
      : options.processes === undefined
        ? `${label} (${sessionCount} script sessions × ≤ ${PER_SESSION} schedules)`
        : `${label}, ${relay.label} (${sessionCount} script sessions × ≤ ${PER_SESSION} schedules)`;
  const relayLateness = () => readHistogram(relay.metricsBases(), OWNER_TOKEN, LATENESS_HISTOGRAM);
  try {
    const latenessBefore = await relayLateness();
    const owner = ownerClient(relay.base, OWNER_TOKEN);
    const sessions: { id: string; token: string }[] = [];
    await inParallel(sessionCount, async (k) => {
      const created = await owner.post("/v1/owner/sessions", { provider: "script", title: `schedules ${k}` });
      const id = created.id as string;
      const { token } = (await owner.post(`/v1/owner/sessions/${id}/token`, {})) as { token: string };
      sessions[k] = { id, token };
    });
    const readout =
      databaseUrl === undefined
        ? ownerApiReadout(
            owner,
            sessions.map((session) => session.id),
          )
        : await postgresReadout(databaseUrl);
    try {
      // Ahead enough for every call to be made before the first instant (about 5 ms a call here).
      const start = Date.now() + 5000 + options.offsets.length * (options.leadMsPerSchedule ?? 15);
      const due = new Map<string, number>();
      const schedule = async (i: number) => {
        // Round robin: a session's firings are 50 instants apart, as schedules of unrelated work would be.
        const session = sessions[i % sessions.length];
        const at = start + (options.offsets[i] ?? 0);
        const response = await fetch(`${relay.base}/v1/tool`, {
          method: "POST",
          headers: { authorization: `Bearer ${session?.token}`, "content-type": "application/json" },
          body: JSON.stringify({
            action: "schedule",
            title: `b-${i}`,
            at: new Date(at).toISOString(),
            text: `bench firing ${i}`,
          }),
        });
        const result = JSON.parse(await response.text()) as {
          ok: boolean;
          schedule_id?: string;
          code?: string;
          error?: string;
        };
        if (!result.ok || result.schedule_id === undefined) {
          throw new Unsupported(
            result.code === "REMOTE_RELAY_UNSUPPORTED"
              ? `this relay has no schedule action (REMOTE_RELAY_UNSUPPORTED: ${result.error})`
              : `schedule refused: ${result.code}: ${result.error}`,
          );
        }
        due.set(result.schedule_id, at);
      };
      try {
        await inParallel(options.offsets.length, schedule);
      } catch (error) {
        if (error instanceof Unsupported) {
          return [{ name, notMeasured: error.message, lateness: [], duplicates: 0, misses: 0 }];
        }
        throw error;
      }
      if (Date.now() > start) {
        console.error(`· ${label}: the schedules were made ${Date.now() - start} ms after the first instant`);
      }

      const last = start + (options.offsets.at(-1) ?? 0);
      // Until every schedule has fired and 5 s more (for a second firing to show), or the grace ends;
      // nothing is read before then, so the reads add no load while the schedules fire.
      await waitUntil(
        async () => Date.now() > last + 5000 && (await readout.fired()) >= due.size,
        last + options.graceMs,
      );
      const figures = await readout.figures(name, due);
      // Beside them, the relay's own histogram, when every process serves one (a relay from before /metrics has none).
      const latenessAfter = latenessBefore === undefined ? undefined : await relayLateness();
      if (latenessAfter === undefined) {
        return figures;
      }
      const measured = estimate(histogramSince(latenessAfter, latenessBefore));
      return [
        ...figures,
        {
          name: "the same firings by the relay's own measure, slot → committed (its /metrics; p50/p99 estimated within buckets)",
          estimate: measured,
          lateness: [],
          duplicates: 0,
          misses: 0,
        },
      ];
    } finally {
      await readout.close();
    }
  } finally {
    await relay.stop();
  }
}

/**
 * On Postgres, the database itself (`lib/bench-database.ts`): each firing's row (`created_at` is the
 * relay's clock when it fired) and the messages it queued. The second figures check the first by
 * Postgres' own clock: a trigger of the bench's notes when each firing row is inserted.
 */
async function postgresReadout(databaseUrl: string): Promise<Readout> {
  // The relay has applied its migrations before it listens: the tables are there.
  const database = await openBenchDatabase(databaseUrl);
  await database
    .query(`
    create table bench_firing_inserted (firing_id text, at timestamptz not null default clock_timestamp());
    create function bench_firing_inserted() returns trigger language plpgsql as $$
      begin insert into bench_firing_inserted (firing_id) values (new.id); return null; end $$;
    create trigger bench_firing_inserted after insert on schedule_firings
      for each row execute function bench_firing_inserted();`)
    .catch(async (error: unknown) => {
      await database.close();
      throw error;
    });
  return {
    async fired() {
      const [row] = await database.query<{ fired: number }>(
        "select count(distinct schedule_id)::int as fired from schedule_firings where status = 'fired'",
      );
      return row?.fired ?? 0;
    },
    async figures(name, due) {
      const firings = await database.query<{ schedule_id: string; at: number; inserted: number }>(
        `select f.schedule_id, extract(epoch from f.created_at)::float8 * 1000 as at,
             extract(epoch from i.at)::float8 * 1000 as inserted
           from schedule_firings f join bench_firing_inserted i on i.firing_id = f.id
           where f.status = 'fired' order by f.created_at`,
      );
      // Both counts: a firing row per schedule, and a message per schedule (by its prefix, R-SCH-07).
      const messages = await database.query<{ schedule_id: string; count: number }>(
        "select substring(text from '^\\[relay schedule (\\S+) ') as schedule_id, count(*)::int as count from messages where text like '[relay schedule %' group by 1",
      );
      const firstFiring = new Map<string, { at: number; inserted: number }>();
      const firingCount = new Map<string, number>();
      for (const firing of firings) {
        if (!firstFiring.has(firing.schedule_id)) {
          firstFiring.set(firing.schedule_id, firing);
        }
        firingCount.set(firing.schedule_id, (firingCount.get(firing.schedule_id) ?? 0) + 1);
      }
      const messageCount = new Map(messages.map((row) => [row.schedule_id, row.count]));
      const lateness: number[] = [];
      const insertedLateness: number[] = [];
      let duplicates = 0;
      let misses = 0;
      for (const [id, at] of due) {
        const fired = firstFiring.get(id);
        if (fired === undefined || !messageCount.has(id)) {
          misses++;
          continue;
        }
        lateness.push(fired.at - at);
        insertedLateness.push(fired.inserted - at);
        if ((firingCount.get(id) ?? 0) > 1 || (messageCount.get(id) ?? 0) > 1) {
          duplicates++;
        }
      }
      return [
        { name, lateness, duplicates, misses },
        {
          name: "the same firings by Postgres' clock at the row's insert",
          lateness: insertedLateness,
          duplicates,
          misses,
        },
      ];
    },
    close: () => database.close(),
  };
}

/**
 * On PGlite, which only the relay process can open while it runs, the owner API: each session's
 * messages (`GET /v1/owner/sessions/:id`) that begin `[relay schedule <id> `. A firing writes its
 * message in the same transaction as its firing row, `createdAt` the relay's clock when it fired.
 */
function ownerApiReadout(owner: OwnerApi, sessionIds: readonly string[]): Readout {
  const messageTimes = async () => {
    const times = new Map<string, number[]>();
    for (const id of sessionIds) {
      const detail = await owner.get(`/v1/owner/sessions/${id}`);
      for (const message of detail.messages as { text: string; createdAt: number }[]) {
        const scheduleId = SCHEDULE_MESSAGE_RE.exec(message.text)?.[1];
        if (scheduleId !== undefined) {
          times.set(scheduleId, [...(times.get(scheduleId) ?? []), message.createdAt]);
        }
      }
    }
    return times;
  };
  return {
    fired: async () => (await messageTimes()).size,
    figures: async (name, due) => [tally(name, due, await messageTimes())],
    close: async () => {},
  };
}
