import type { TurnIO } from "@oar/engine";
import type { Mode } from "@oar/schema";
import { askUnlessStopped } from "../shared/ask-unless-stopped";
import type { PermissionDenial } from "./claude-events";
import {
  ALLOW,
  DENY,
  deniedLine,
  distinctTools,
  isAllowed,
  permissionQuestion,
  refusedAnywayLine,
  refusedInPlanModeLine,
} from "./permission-cards";
import type { TurnReply } from "./turn-reply";

export interface DenialsInput {
  readonly denials: readonly PermissionDenial[];
  readonly mode: Mode;
  readonly allowedTools: readonly string[];
  /** Tools already decided in this turn: the owner is asked about a tool once per turn. */
  readonly asked: Set<string>;
  readonly reply: TurnReply;
  readonly signal: AbortSignal;
}

/**
 * Asks the owner about each tool the CLI was refused, one card per tool. Resolves with the
 * tools the owner allowed, or "stopped" when the turn was stopped while a card was open.
 * Plan mode changes nothing, so nothing is asked there; a tool refused although allowed
 * (a path outside the working folders, a deny rule) is only reported.
 */
export async function decideDenials(io: TurnIO, input: DenialsInput): Promise<string[] | "stopped"> {
  const allowed: string[] = [];
  for (const denial of distinctTools(input.denials)) {
    if (input.asked.has(denial.toolName)) {
      continue;
    }
    input.asked.add(denial.toolName);
    if (input.allowedTools.includes(denial.toolName)) {
      input.reply.note(refusedAnywayLine(denial));
    } else if (input.mode === "plan") {
      input.reply.note(refusedInPlanModeLine(denial));
    } else {
      const answer = await askOrStop(io, permissionQuestion(denial), input.signal);
      if (answer === "stopped") {
        return answer;
      }
      if (answer) {
        allowed.push(denial.toolName);
      } else {
        input.reply.note(deniedLine(denial));
      }
    }
  }
  return allowed;
}

/** The owner's choice; "stopped" when the turn is stopped or the worker closed while the card is open. */
async function askOrStop(io: TurnIO, text: string, signal: AbortSignal): Promise<boolean | "stopped"> {
  const answer = await askUnlessStopped(io, { text, options: [ALLOW, DENY] }, signal);
  return answer === "stopped" ? answer : isAllowed(answer);
}
