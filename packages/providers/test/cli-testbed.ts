import { onTestFinished } from "vitest";
import { type AgentTestbed, createAgentTestbed, type FakeAnthropic } from "../src/testing";

export type CliTestbed = AgentTestbed;

/** A testbed for a real agent CLI (see `createAgentTestbed`), removed when the test finishes. */
export async function createCliTestbed(
  apiEnv: (fake: FakeAnthropic) => Record<string, string>,
): Promise<CliTestbed> {
  const bed = await createAgentTestbed({ path: process.env.PATH, apiEnv });
  onTestFinished(() => bed.dispose());
  return bed;
}
