import type { QuestionAnswer } from "@oar/engine";
import type { PermissionDenial } from "./claude-events";
import { shortInput } from "./transcript";

export const ALLOW = "Allow";
export const DENY = "Deny";

export function permissionQuestion(denial: PermissionDenial): string {
  return `Claude Code asked to use ${denial.toolName} (${shortInput(denial.input)}). Allow it for this session?`;
}

export function isAllowed(answer: QuestionAnswer): boolean {
  const said = [answer.answer, ...(answer.choices ?? [])];
  return said.some((text) => text?.trim().toLowerCase() === ALLOW.toLowerCase());
}

export const deniedLine = (denial: PermissionDenial) =>
  `Denied by the owner: ${denial.toolName} (${shortInput(denial.input)}).`;

export const refusedInPlanModeLine = (denial: PermissionDenial) =>
  `Not run in plan mode: ${denial.toolName} (${shortInput(denial.input)}).`;

export const refusedAnywayLine = (denial: PermissionDenial) =>
  `Claude Code refused ${denial.toolName} (${shortInput(denial.input)}) although the owner allowed the tool.`;

export const goOnPrompt = (tools: readonly string[]) => `The owner allowed ${tools.join(", ")}; go on.`;

/** One denial per tool: the owner allows or denies a tool, not each of its calls. */
export function distinctTools(denials: readonly PermissionDenial[]): PermissionDenial[] {
  const seen = new Set<string>();
  return denials.filter((denial) => !seen.has(denial.toolName) && seen.add(denial.toolName));
}
