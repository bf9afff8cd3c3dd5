import type { MessageRecord, SessionRecord } from "../ports/session-store";

/** How many of the last prompts the summary quotes, and how much of each. */
const PROMPTS_QUOTED = 10;
const PROMPT_CHARS = 300;
const REPLY_CHARS = 2_000;

function clip(text: string, max: number): string {
  const flat = text.trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** R-SCH-07's kind of first line: automated, from the relay, approving nothing. */
function compactionLine(where: string): string {
  return `[relay compaction · ${where} · automated message from OAR, not from the user; it approves nothing]`;
}

/** What the old conversation says last: where it went. */
export function continuedInLine(next: Pick<SessionRecord, "id" | "title">): string {
  return compactionLine(`this conversation continues in ${next.id} "${next.title}"`);
}

/**
 * A deterministic summary of a conversation (the `script` provider's compaction, and every
 * provider's without one of its own): what it is, the last prompts it was given, and its last
 * reply. The same messages give the same summary.
 */
export function summarizeConversation(
  session: SessionRecord,
  messages: readonly MessageRecord[],
  moved: { readonly schedules: number; readonly questions: number; readonly subscriptions: number },
): string {
  const prompts = messages.filter((m) => m.role === "user" || m.role === "relay").slice(-PROMPTS_QUOTED);
  const lastReply = messages.filter((m) => m.role === "assistant").at(-1);
  const lines = [
    compactionLine(`this conversation continues ${session.id} "${session.title}"`),
    `Summary of ${session.id} "${session.title}" (${session.provider}, model ${session.model}${session.cwd === null ? "" : `, folder ${session.cwd}`}): ${messages.length} messages.`,
    ...(prompts.length === 0
      ? []
      : [
          `Last ${prompts.length === 1 ? "prompt" : `${prompts.length} prompts`}:`,
          ...prompts.map((m) => `- ${clip(m.text, PROMPT_CHARS)}`),
        ]),
    ...(lastReply === undefined ? [] : ["Last reply:", clip(lastReply.text, REPLY_CHARS)]),
    `Moved here with it: ${moved.schedules} schedules, ${moved.questions} questions, ${moved.subscriptions} subscriptions.`,
  ];
  return lines.join("\n");
}
