import { setTimeout as sleep } from "node:timers/promises";
import { isTransient } from "./calls";
import { type Agent, busySessions, pause, type Soak, text, tokenOf } from "./cast";
import type { ScheduleRecord, TaskRecord } from "./journal";
import { promptAndFollow } from "./prompting";
import { backgroundTaskId } from "./turn-script";

/** Events each watcher's subscriptions name: a turn's end and its errors. */
export const WATCHED_EVENTS = ["turn_end", "error"] as const;
/** R-SUB-05: a conversation holds 20 subscriptions. */
const MOST_SUBSCRIPTIONS = 20;
/** Reads of a task's output a client makes before it takes the answer as final. */
const READ_ATTEMPTS = 4;
/** A one-time schedule is due at least this long before the load ends, so it fires under load. */
const LAST_ONE_TIME_MS = 5_000;

async function schedule(
  soak: Soak,
  by: string,
  token: string,
  args: { session?: string; at?: number; everyMinutes?: number; kind: string },
): Promise<void> {
  const marker = soak.scripts.marker(args.kind);
  const at = args.at === undefined ? null : new Date(args.at).toISOString();
  const made = await soak.calls.tool(token, {
    action: "schedule",
    title: marker,
    text: soak.scripts.marked(marker),
    ...(at === null ? {} : { at }),
    ...(args.everyMinutes === undefined ? {} : { every_minutes: args.everyMinutes }),
    ...(args.session === undefined ? {} : { session: args.session }),
  });
  const id = text(made.body, "schedule_id");
  if (made.ok && id !== null) {
    soak.journal.schedules.push({
      id,
      marker,
      session: args.session ?? by,
      by,
      at,
      everyMinutes: args.everyMinutes ?? null,
      madeAt: Date.now(),
      unscheduledAt: null,
    });
  }
}

/**
 * Schedules: `repeating` ones firing every minute in sessions of the owner (each made by the
 * session's own agent, for itself), then one-time ones 10–40 s ahead, most made by a session for
 * itself, some by an agent for a session it created (those count toward its anti-loop guard).
 */
export async function scheduleLane(soak: Soak, repeating: number): Promise<void> {
  const { random } = soak;
  for (let i = 0; i < repeating && i < soak.ownerSessions.length; i++) {
    const session = soak.ownerSessions[i] ?? "";
    const token = await tokenOf(soak, session);
    if (token !== null) {
      await schedule(soak, session, token, { everyMinutes: 1, kind: "r" });
    }
  }
  while (Date.now() < soak.loadEnd) {
    const at = Date.now() + random.int(10_000, 40_000);
    if (at < soak.loadEnd - LAST_ONE_TIME_MS) {
      const agent = random.pick(soak.agents);
      if (random.bool(0.25) && agent.targets.length > 0) {
        await schedule(soak, agent.id, agent.token, { session: random.pick(agent.targets), at, kind: "s" });
      } else {
        const session = random.pick(busySessions(soak));
        const token = await tokenOf(soak, session);
        if (token !== null) {
          await schedule(soak, session, token, { at, kind: "s" });
        }
      }
    }
    await pause(soak, random.int(4_000, 9_000));
  }
}

function tokenOfMaker(soak: Soak, record: ScheduleRecord): string | undefined {
  return soak.agents.find((agent) => agent.id === record.by)?.token ?? soak.tokens.get(record.by);
}

/** Ends the repeating schedules (each by the conversation that made it), trying each a few times. */
export async function unscheduleRepeating(soak: Soak): Promise<void> {
  for (const record of soak.journal.schedules) {
    const token = tokenOfMaker(soak, record);
    for (let attempt = 0; record.everyMinutes !== null && token !== undefined && attempt < 5; attempt++) {
      const ended = await soak.calls.tool(token, { action: "unschedule", schedule_id: record.id });
      if (ended.ok) {
        record.unscheduledAt = Date.now();
        break;
      }
      await sleep(1_000);
    }
  }
}

/** Agents ask the owner questions that do not block them (`ask`); the owner's Inbox answers them. */
export async function questionLane(soak: Soak): Promise<void> {
  const { random } = soak;
  while (Date.now() < soak.loadEnd) {
    const agent = random.pick(soak.agents);
    const marker = soak.scripts.marker("q");
    const asked = await soak.calls.tool(agent.token, {
      action: "ask",
      question: `${marker}: ship it?`,
      options: ["yes", "no"],
    });
    const id = text(asked.body, "question_id");
    if (asked.ok && id !== null) {
      soak.journal.questions.push({ id, asker: agent.id, marker, at: Date.now() });
    }
    await pause(soak, random.int(3_000, 8_000));
  }
}

/**
 * Watchers subscribe to more busy sessions as the run goes (each watcher to each session once,
 * up to its 20 subscriptions).
 */
export async function watcherLane(soak: Soak): Promise<void> {
  const { random } = soak;
  while (Date.now() < soak.loadEnd) {
    await pause(soak, random.int(8_000, 20_000));
    const watcher = random.pick(soak.watchers);
    const unwatched = busySessions(soak).filter((session) => !watcher.watching.has(session));
    if (Date.now() >= soak.loadEnd || watcher.subscriptions >= MOST_SUBSCRIPTIONS || unwatched.length === 0) {
      continue;
    }
    await subscribe(soak, watcher, [random.pick(unwatched)]);
  }
}

export async function subscribe(
  soak: Soak,
  watcher: Soak["watchers"][number],
  sessions: readonly string[],
): Promise<boolean> {
  const made = await soak.calls.tool(watcher.token, {
    action: "subscribe",
    sessions,
    events: WATCHED_EVENTS,
  });
  const subscription = made.body?.subscription as { id?: string } | undefined;
  if (!made.ok || typeof subscription?.id !== "string") {
    return false;
  }
  watcher.subscriptions += 1;
  for (const session of sessions) {
    watcher.watching.add(session);
  }
  soak.journal.subscriptions.push({ id: subscription.id, watcher: watcher.id, sessions, at: Date.now() });
  return true;
}

function another(soak: Soak, not: Agent): Agent {
  const others = soak.agents.filter((agent) => agent !== not);
  return others.length === 0 ? not : soak.random.pick(others);
}

/**
 * A background task's life: an agent's turn in a task host starts it; a few seconds later
 * another agent reads its output (read_task_output) and a third stops it (`stop`), each call
 * served by whichever process the balancer picks, not necessarily the one running the task.
 */
export async function taskLane(soak: Soak, host: string): Promise<void> {
  const { random } = soak;
  while (Date.now() < soak.loadEnd) {
    const starter = random.pick(soak.agents);
    const marker = soak.scripts.marker("t");
    const record = soak.journal.prompt({ marker, by: "agent", what: "task", at: Date.now(), session: host });
    const body = await promptAndFollow(
      soak,
      starter.token,
      { action: "send", session: host, text: soak.scripts.withBackgroundTask(marker) },
      record,
    );
    const reply = (body?.reply as { text?: string } | undefined)?.text ?? "";
    const taskId = backgroundTaskId(reply);
    if (taskId !== null) {
      const task: TaskRecord = { host, marker, taskId, startedAt: Date.now(), reads: [], stop: null };
      soak.journal.tasks.push(task);
      await sleep(random.int(3_000, 8_000));
      const reader = another(soak, starter);
      for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
        const read = await soak.calls.tool(reader.token, {
          action: "read_task_output",
          relay: "this",
          session: host,
          task_id: taskId,
          lines: 5,
        });
        const tail = Array.isArray(read.body?.tail) ? (read.body?.tail as string[]) : [];
        const status = (read.body?.task as { status?: string } | undefined)?.status ?? null;
        const notes = read.body?.notes ?? read.body?.note;
        task.reads.push({
          at: Date.now(),
          servedBy: read.servedBy,
          ok: read.ok,
          http: read.status,
          code: read.code,
          ticks: tail.filter((line) => line.includes(`${marker} tick`)).length,
          status,
          note: notes === undefined ? null : JSON.stringify(notes).slice(0, 200),
        });
        // R-RTO-05: a note may ask to repeat the call in a few seconds (the task's process is
        // being called on, or is down); an agent would, so the client does.
        const repeat = read.ok && typeof notes !== "undefined" && JSON.stringify(notes).includes("repeat");
        if (!isTransient(read) && !repeat) {
          break;
        }
        await sleep(3_000);
      }
      const stopper = another(soak, reader);
      for (let attempt = 0; attempt < 3 && task.stop === null; attempt++) {
        const stopped = await soak.calls.tool(stopper.token, {
          action: "stop",
          relay: "this",
          session: host,
        });
        if (stopped.ok) {
          task.stop = {
            at: Date.now(),
            servedBy: stopped.servedBy,
            stopRequested: stopped.body?.stopRequested === true,
          };
        } else {
          await sleep(1_000);
        }
      }
    }
    await pause(soak, random.int(3_000, 8_000));
  }
}
