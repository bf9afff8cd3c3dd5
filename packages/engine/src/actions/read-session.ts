import { toIso } from "@oar/core";
import { type CallOf, type GroupMember, LIMITS, type SessionMessage } from "@oar/schema";
import type { MessageRecord, SessionRecord } from "../ports/session-store";
import { readableSince, taskSummary, taskViewContext } from "../tasks/task-views";
import type { ActionContext, ActionSuccess } from "./context";
import { groupNamer } from "./groups";
import { repositoryOf } from "./session-entry";
import { refuseUnknownSession, sessionState } from "./sessions";
import { plural } from "./summary";
import { pendingQuestionView } from "./waiting";

/** Who sent a prompt from another agent, as the `↗ from` badge names it (R-UI-05). */
function sentBy(message: MessageRecord): string | undefined {
  const from = message.provenance;
  if (!from) {
    return undefined;
  }
  const model = from.model === null ? "" : ` · ${from.model}`;
  return `relay "${from.relay}" · session "${from.title}" (${from.session})${model}`;
}

function messageView(message: MessageRecord): SessionMessage {
  const from = sentBy(message);
  return {
    id: message.id,
    // Relay events and system notes are the relay's own messages, not the agent's or the user's.
    role: message.role === "user" || message.role === "assistant" ? message.role : "relay",
    text: message.text,
    at: toIso(message.createdAt),
    ...(from === undefined ? {} : { from }),
  };
}

async function groupWithMembers(ctx: ActionContext, session: SessionRecord) {
  const group = await groupNamer(ctx.deps).ref(session);
  if (!group) {
    return undefined;
  }
  const listed = await ctx.deps.stores.sessions.listSessions({
    scope: "all",
    groupId: group.id,
    limit: LIMITS.groupMembersMax + 1,
  });
  const members: GroupMember[] = listed
    .filter((member) => member.id !== session.id)
    .slice(0, LIMITS.groupMembersMax)
    .map((member) => ({
      id: member.id,
      title: member.title,
      role: member.group?.role ?? "member",
      state: sessionState(member, ctx.runtime),
      ...(member.archivedAt !== null ? { archived: true } : {}),
    }));
  return { ...group, members };
}

async function inFlightView(ctx: ActionContext, sessionId: string) {
  const running = ctx.runtime.inFlight(sessionId);
  if (!running) {
    return null;
  }
  const turn = await ctx.deps.stores.sessions.getTurn(running.turnId);
  return {
    text: running.text,
    ...(turn?.promptMessageId ? { message_id: turn.promptMessageId } : {}),
  };
}

/**
 * §12: the last `last` messages, what is happening now (`state`, `inFlight`, `pendingQuestions`
 * with their `kind`), the group's other members (≤ 50) and the owner's `mayCreateSessions`.
 * A conversation may read itself (an external agent reads its own messages this way).
 */
export async function readSession(ctx: ActionContext, call: CallOf<"read_session">): Promise<ActionSuccess> {
  // One read for the session and what it shows (issue 29); an archived one is read too.
  const read = await ctx.deps.stores.reads.readSession({
    id: call.session,
    last: call.last,
    tasksEndedSince: readableSince(ctx.deps),
  });
  if (read === null) {
    refuseUnknownSession(ctx, call.session);
  }
  // R-LQ-04: `inboxQuestions` are the non-blocking questions about it, whoever asked them.
  const { session, messages, inboxQuestions: asked, tasks } = read;
  const [inFlight, questions, group, view] = await Promise.all([
    inFlightView(ctx, session.id),
    // A blocking question lives only while a turn runs: an idle session has none to read.
    session.state === "running_turn" ? ctx.runtime.pendingQuestions(session.id) : Promise.resolve([]),
    groupWithMembers(ctx, session),
    taskViewContext(ctx.deps, ctx.runtime),
  ]);
  return {
    session: session.id,
    details: plural(messages.length, "message"),
    fields: {
      session: session.id,
      title: session.title,
      provider: session.provider,
      model: session.model,
      state: sessionState(session, ctx.runtime),
      cwd: session.cwd,
      ...repositoryOf(session),
      ...(session.archivedAt !== null ? { archived: true } : {}),
      inFlight,
      pendingQuestions: [
        ...questions.map(pendingQuestionView),
        ...asked
          .filter((q) => q.keptOnRelay === null)
          .map((q) => ({
            question_id: q.id,
            kind: "ask" as const,
            text: q.text,
            ...(q.options.length > 0 ? { options: [...q.options] } : {}),
            ...(q.recommendation === null ? {} : { recommendation: q.recommendation }),
            askedAt: toIso(q.createdAt),
          })),
      ],
      messages: messages.map(messageView),
      tasks: tasks.map((task) => taskSummary(task, view)),
      ...(group ? { group } : {}),
      ...(session.mayCreateSessions ? { mayCreateSessions: true } : {}),
    },
  };
}
