import {
  type AgentTestbed,
  COPILOT_BYOK_MODEL,
  copilotTestEnv,
  createAgentTestbed,
} from "@oar/providers/testing";

export {
  bodyOf,
  conversationOf,
  pinnedCopilotBinary,
  processesWithEnv,
  toolResultsOf,
} from "@oar/providers/testing";

/** The model the testbed's BYOK configuration names (COPILOT_MODEL): Copilot's default on the relay. */
export const BYOK_MODEL = COPILOT_BYOK_MODEL;

/** The relay's children's environment for the real Copilot CLI; `work` is the sessions' folder. */
export interface CopilotTestbed extends AgentTestbed {
  readonly work: string;
}

/** A fake Messages API and a throwaway home for the real Copilot CLI (as packages/providers' tests run it). */
export async function createCopilotTestbed(): Promise<CopilotTestbed> {
  const bed = await createAgentTestbed({ path: process.env.PATH, apiEnv: copilotTestEnv });
  return { ...bed, work: bed.cwd };
}
