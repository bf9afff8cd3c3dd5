import { FakeClock } from "@oar/core/testing";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import {
  COPILOT_TEST_TIMEOUT_MS,
  copilotProvider,
  copilotTurn,
  createCopilotTestbed,
  startWorker,
} from "./copilot-testbed";

const BYOK_VARIABLES = [
  "COPILOT_PROVIDER_BASE_URL",
  "COPILOT_PROVIDER_TYPE",
  "COPILOT_PROVIDER_API_KEY",
  "COPILOT_MODEL",
];

describe("copilot against the real CLI: not signed in, not startable", {
  timeout: COPILOT_TEST_TIMEOUT_MS,
}, () => {
  it("auth_required: the turn fails saying Copilot is not signed in, and the provider says so in its offer", async () => {
    const bed = await createCopilotTestbed();
    // No login in the fresh HOME, no BYOK provider, no token: the CLI's session/new asks to sign in.
    for (const name of [...BYOK_VARIABLES, "COPILOT_OFFLINE"]) {
      delete bed.env[name];
    }
    const provider = copilotProvider(bed);
    expect(provider.info.notConfigured).toBeUndefined();

    const outcome = await startWorker(provider, bed).runTurn(
      copilotTurn("Hello.", bed.cwd, { model: "gpt-5.4" }),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );

    const message =
      "Copilot is not signed in on this relay (Authentication required): sign in with the agent's own login on the relay's machine, or give it an API key through its environment.";
    expect(outcome).toEqual({ status: "error", error: message });
    expect(provider.info.notConfigured).toBe(message);
    expect(bed.livingProcesses()).toEqual([]);
  });

  it("an agent that exits at start fails the turn with its exit code and the end of its stderr", async () => {
    const bed = await createCopilotTestbed();
    // Offline without a model provider: the CLI refuses to start.
    delete bed.env.COPILOT_PROVIDER_BASE_URL;

    const outcome = await startWorker(copilotProvider(bed), bed).runTurn(
      copilotTurn("Hello.", bed.cwd),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );

    expect(outcome.status).toBe("error");
    expect(outcome.status === "error" && outcome.error).toMatch(
      /^Copilot could not start: `.+` exited with code 1\.\nLast lines of its stderr:\n.*Offline mode requires a local model provider/s,
    );
  });
});
