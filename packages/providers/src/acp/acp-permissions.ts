import type * as acp from "@agentclientprotocol/sdk";
import type { QuestionAnswer, TurnIO } from "@oar/engine";
import type { Mode } from "@oar/schema";
import { shortInput } from "../claude/transcript";
import { askUnlessStopped } from "../shared/ask-unless-stopped";
import { isRelayToolCall } from "./acp-transcript";

export interface PermissionContext {
  /** The agent's name in the card's words: `Copilot asked to use …`. */
  readonly agentName: string;
  readonly mode: Mode;
  readonly io: TurnIO;
  /** Aborted when the turn is stopped: an open card then answers `cancelled`. */
  readonly signal: AbortSignal;
  /** Says in the transcript and the reply what was not run. */
  readonly note: (line: string) => void;
}

/** The answer to a permission request nobody decided (a stop, no turn to ask in). */
export const CANCELLED: acp.RequestPermissionResponse = { outcome: { outcome: "cancelled" } };

const selected = (option: acp.PermissionOption): acp.RequestPermissionResponse => ({
  outcome: { outcome: "selected", optionId: option.optionId },
});

const firstOfKind = (options: readonly acp.PermissionOption[], kinds: readonly string[]) =>
  kinds.map((kind) => options.find((option) => option.kind === kind)).find((option) => option !== undefined);

function toolOf(request: acp.RequestPermissionRequest): string {
  const call = request.toolCall;
  const title = call.title?.trim() || call.kind || "a tool";
  const input = call.rawInput === undefined ? "" : shortInput(call.rawInput);
  return input === "" || title.includes(input) ? title : `${title} (${input})`;
}

export function permissionQuestionText(agentName: string, request: acp.RequestPermissionRequest): string {
  return `${agentName} asked to use ${toolOf(request)}. Allow it?`;
}

/** The option the owner chose, by its name (as the card showed it) or its id. */
function chosenOption(
  options: readonly acp.PermissionOption[],
  answer: QuestionAnswer,
): acp.PermissionOption | undefined {
  const said = [answer.answer, ...(answer.choices ?? [])]
    .filter((text): text is string => typeof text === "string")
    .map((text) => text.trim().toLowerCase());
  return options.find(
    (option) =>
      said.includes(option.name.trim().toLowerCase()) || said.includes(option.optionId.toLowerCase()),
  );
}

/**
 * Answers the agent's `session/request_permission` (DESIGN §5): the relay's own tool is allowed
 * without a card (the relay checks each call itself); in plan mode nothing is run; otherwise the
 * owner decides on a blocking question card showing the agent's own options.
 */
export async function decidePermission(
  ctx: PermissionContext,
  request: acp.RequestPermissionRequest,
): Promise<acp.RequestPermissionResponse> {
  const { options } = request;
  const allowOnce = firstOfKind(options, ["allow_once", "allow_always"]);
  const rejectOnce = firstOfKind(options, ["reject_once", "reject_always"]);
  if (isRelayToolCall(request.toolCall) && allowOnce !== undefined) {
    return selected(allowOnce);
  }
  if (ctx.mode === "plan") {
    ctx.note(`Not run in plan mode: ${toolOf(request)}.`);
    return rejectOnce === undefined ? CANCELLED : selected(rejectOnce);
  }
  const answer = await askUnlessStopped(
    ctx.io,
    { text: permissionQuestionText(ctx.agentName, request), options: options.map((option) => option.name) },
    ctx.signal,
  );
  if (answer === "stopped") {
    return CANCELLED;
  }
  const option = chosenOption(options, answer) ?? rejectOnce;
  if (option === undefined) {
    return CANCELLED;
  }
  if (option.kind.startsWith("reject")) {
    ctx.note(`Denied by the owner: ${toolOf(request)}.`);
  }
  return selected(option);
}
