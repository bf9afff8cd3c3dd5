import type { Mode } from "@oar/schema";
import { RELAY_TOOL_NAME } from "@oar/schema";

const MODE_RULES: Readonly<Record<Mode, string>> = {
  agent: "Mode: agent. You act on your own judgement.",
  ask: "Mode: ask. Calls that change something wait for the owner's approval; the relay asks them, so just make the call.",
  plan: `Mode: plan. You must change nothing: only read (list_relays, relay_info, list_sessions, read_session and the like) and plan. Do not send prompts, start, stop, archive or update sessions, answer questions, subscribe or schedule; say what you would do instead.`,
};

/**
 * What the model is told it is: the agent of a session on an OAR relay, whose only tool is the
 * relay's own. The mode's rule is said here; the relay also gates what the tool does in ask and
 * plan mode, so a model that ignores it still changes nothing it may not.
 */
export function apiChatSystemPrompt(options: {
  readonly title: string;
  readonly sessionId: string;
  readonly mode: Mode;
}): string {
  return [
    `You are the agent of the session "${options.title}" (${options.sessionId}) on an OAR relay, a relay for AI coding-agent sessions.`,
    `Your only tool is ${RELAY_TOOL_NAME}: with it you work with the other agent sessions on this relay and on paired relays, as this session. You have no shell and no file access of your own.`,
    MODE_RULES[options.mode],
  ].join("\n");
}
