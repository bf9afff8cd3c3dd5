import { groupBy } from "@oar/core";
import { type SubscriptionRecord, watches } from "@oar/scheduler";
import type { TaskSummary } from "@oar/schema";
import { ENDED_SCHEDULES_SHOWN_MS } from "../actions/schedules/list-schedules";
import type { SessionListItem, SessionRecord } from "../ports/session-store";
import { CLOSED_QUESTIONS_SHOWN_MS, inboxItem, questionTitles } from "../questions/question-views";
import { scheduleEntry, sessionTitles } from "../schedules/schedule-views";
import { readableTasks, taskSummary, taskViewContext } from "../tasks/task-views";
import type { OwnerSessionDetail, OwnerSessionView } from "./owner-api";
import { noSuchSession, type OwnerContext } from "./owner-context";
import { watcherSubscriptions } from "./owner-subscriptions";
import { recentToolCalls } from "./tool-call-views";

/** R-UI-03: `via agent · "title"`, where title names the conversation whose agent started it. */
export function viaAgentBadge(session: SessionRecord): string | null {
  return session.viaAgent === null ? null : `via agent · "${session.viaAgent}"`;
}

/** Who watches whom now: the `watched` badge (R-UI-07) and `watching N sessions` (R-UI-06). */
export interface WatchingBadges {
  watched(sessionId: string): boolean;
  /** How many distinct live sessions the conversation watches. */
  watching(sessionId: string): number;
}

/** A subscription to all of this relay's sessions (a mirror watches another relay's). */
const allHere = (subscription: SubscriptionRecord) =>
  subscription.scope === "all" && subscription.relay === null;

const NO_BADGES: WatchingBadges = { watched: () => false, watching: () => 0 };

/**
 * The badges of the sessions `ids` only, counting live (not archived) sessions: who watches them
 * (their `list` subscriptions and every `all` one) and what each of them watches (its own
 * subscriptions). Reading every subscription against every session made each owner call cost
 * seconds once a relay held 20,000 subscriptions.
 */
export async function watchingBadges(ctx: OwnerContext, ids: readonly string[]): Promise<WatchingBadges> {
  if (ids.length === 0) {
    return NO_BADGES;
  }
  const { stores } = ctx.deps;
  const [watchingThem, theirs] = await Promise.all([
    stores.subscriptions.listSubscriptionsWatching(ids),
    stores.subscriptions.listActiveSubscriptionsOf(ids),
  ]);
  if (watchingThem.length === 0 && theirs.length === 0) {
    return NO_BADGES;
  }
  const named = new Set(ids);
  for (const subscription of theirs) {
    for (const id of [...subscription.sessions, ...subscription.exclude]) {
      named.add(id);
    }
  }
  const live = new Set(
    (await stores.sessions.getSessions([...named]))
      .filter((session) => session.archivedAt === null)
      .map((session) => session.id),
  );
  const watchesAll = theirs.some(allHere);
  const liveCount = watchesAll ? (await stores.sessions.listSessions({ scope: "active" })).length : 0;

  const watched = watchedAmong(ids, watchingThem, live);
  const held = groupBy(theirs, (subscription) => subscription.watcher);
  const counts = new Map(
    [...held].map(([watcher, own]) => [watcher, watchingCount(watcher, own, live, liveCount)] as const),
  );
  return { watched: (id) => watched.has(id), watching: (id) => counts.get(id) ?? 0 };
}

/**
 * Which of the live sessions `ids` a subscription watches, in one pass over the subscriptions: a
 * `list` one watches those it names, an `all` one every session but its watcher and those it
 * excludes — so a session is watched by an `all` one unless every one of them misses it.
 */
function watchedAmong(
  ids: readonly string[],
  subscriptions: readonly SubscriptionRecord[],
  live: ReadonlySet<string>,
): Set<string> {
  const shown = new Set(ids);
  const watched = new Set<string>();
  const all = subscriptions.filter(allHere);
  const missedByAll = new Map<string, number>();
  for (const subscription of all) {
    for (const id of new Set([subscription.watcher, ...subscription.exclude])) {
      missedByAll.set(id, (missedByAll.get(id) ?? 0) + 1);
    }
  }
  for (const subscription of subscriptions) {
    if (subscription.scope === "list") {
      for (const id of subscription.sessions) {
        if (shown.has(id) && watches(subscription, id)) {
          watched.add(id);
        }
      }
    }
  }
  for (const id of ids) {
    if (all.length > (missedByAll.get(id) ?? 0)) {
      watched.add(id);
    }
  }
  return new Set([...watched].filter((id) => live.has(id)));
}

/**
 * How many distinct live sessions `watcher`'s subscriptions watch. With an `all` one, every live
 * session but itself and those each of its `all` ones excludes and none of the others names;
 * otherwise the live sessions they name. `live` knows every session they name or exclude.
 */
function watchingCount(
  watcher: string,
  held: readonly SubscriptionRecord[],
  live: ReadonlySet<string>,
  liveCount: number,
): number {
  const watchedBy = (id: string) => live.has(id) && held.some((subscription) => watches(subscription, id));
  const all = held.filter(allHere);
  if (all.length === 0) {
    return new Set(held.flatMap((subscription) => subscription.sessions).filter(watchedBy)).size;
  }
  const unwatched = new Set(
    all.flatMap((subscription) => subscription.exclude).filter((id) => live.has(id) && !watchedBy(id)),
  );
  unwatched.delete(watcher);
  return liveCount - unwatched.size - (live.has(watcher) ? 1 : 0);
}

export function sessionView(item: SessionListItem, badges: WatchingBadges): OwnerSessionView {
  return {
    ...item,
    viaAgentBadge: viaAgentBadge(item),
    watched: badges.watched(item.id),
    watching: badges.watching(item.id),
  };
}

/** The session's tasks as an agent's read_session shows them: running, or ended within the hour. */
async function ownerTasks(ctx: OwnerContext, id: string): Promise<TaskSummary[]> {
  const [tasks, view] = await Promise.all([
    readableTasks(ctx.deps, [id]),
    taskViewContext(ctx.deps, ctx.runtime),
  ]);
  return (tasks.get(id) ?? []).map((task) => taskSummary(task, view));
}

/**
 * GET /v1/owner/sessions/:id. The session, its messages and its turns are one read of the store:
 * read in parts, a turn another process ended between them showed `done` without its reply.
 */
export async function sessionDetail(ctx: OwnerContext, id: string): Promise<OwnerSessionDetail> {
  const history = await ctx.deps.stores.reads.readSessionHistory(id);
  if (history === null) {
    throw noSuchSession(id);
  }
  const { session, messages, turns } = history;
  return {
    ...sessionView({ ...session, messageCount: messages.length }, await watchingBadges(ctx, [id])),
    messages,
    turns,
    inFlight: ctx.runtime.inFlight(id),
    pendingQuestions: await ctx.runtime.pendingQuestions(id),
    tasks: await ownerTasks(ctx, id),
    ...(await conversationWork(ctx, id)),
    subscriptions: await watcherSubscriptions(ctx, id),
    toolCalls: await recentToolCalls(ctx, id),
  };
}

/** What a conversation holds besides its messages: its schedules and its non-blocking questions. */
async function conversationWork(ctx: OwnerContext, id: string) {
  const { stores, clock } = ctx.deps;
  const now = clock.now();
  const [schedules, questions] = await Promise.all([
    stores.schedules.listSchedulesOf(id, { endedSince: now - ENDED_SCHEDULES_SHOWN_MS }),
    stores.questions.listInboxQuestions({
      askingSession: id,
      sessionId: id,
      closedSince: now - CLOSED_QUESTIONS_SHOWN_MS,
    }),
  ]);
  const [scheduleTitles, questionTitleMap] = await Promise.all([
    sessionTitles(stores, schedules),
    questionTitles(stores, questions),
  ]);
  return {
    schedules: schedules.map((s) => scheduleEntry(s, scheduleTitles)),
    inboxQuestions: questions.map((q) => inboxItem(q, questionTitleMap)),
  };
}
