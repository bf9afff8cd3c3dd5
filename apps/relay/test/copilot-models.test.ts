import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createTestRelay } from "./harness";

// The CLIs pinned by @oar/providers (npm's `copilot` and `claude` commands): with them on the
// relay's PATH, `copilot` and the Claude providers are offered with their real model lists.
const PINNED_BIN = join(import.meta.dirname, "../../../packages/providers/node_modules/.bin");

interface ToolAnswer {
  readonly ok: boolean;
  readonly code?: string;
  readonly error?: string;
  readonly remoteCode?: string;
  readonly suggestions?: readonly string[];
  readonly session?: string;
  readonly sessions?: readonly { readonly id: string; readonly provider: string; readonly model: string }[];
}

/** Model checks against the relay's real Copilot provider (its pinned CLI's list), before anything runs. */
describe("Copilot's model ids on a relay (R-MDL-05…07)", () => {
  async function relayWithCopilot() {
    const t = await createTestRelay({
      overrides: { approvalCards: false, childEnv: { PATH: `${PINNED_BIN}:${process.env.PATH ?? ""}` } },
    });
    const caller = await t.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", { title: "Lead" });
    const token = await t.agentToken(caller.id);
    const call = async (body: Record<string, unknown>) =>
      (await (await t.tool(token, { relay: "this", ...body })).json()) as ToolAnswer;
    const sessions = async () => (await call({ action: "list_sessions" })).sessions ?? [];
    return { t, call, sessions };
  }

  it("R-MDL-05: a dashed id gets Copilot's dotted one as the suggestion, and nothing is created", async () => {
    const { call, sessions } = await relayWithCopilot();
    const before = await sessions();

    const answer = await call({
      action: "create_session",
      provider: "copilot",
      model: "gpt-5-4",
      text: "hi",
    });

    expect(answer).toMatchObject({ ok: false, code: "REMOTE_RELAY_UNKNOWN_MODEL" });
    expect(answer.suggestions?.[0]).toBe("gpt-5.4");
    expect(answer.error).toContain("did you mean 'gpt-5.4'?");
    expect(await sessions()).toEqual(before);
  });

  it("R-MDL-06: Claude's id for a new Copilot session → CLAUDE_PROVIDER_REQUIRED with the closest Copilot id; nothing created", async () => {
    const { call, sessions } = await relayWithCopilot();
    const before = await sessions();

    const answer = await call({
      action: "create_session",
      provider: "copilot",
      model: "claude-opus-5-5",
      text: "hi",
    });

    expect(answer).toMatchObject({ ok: false, remoteCode: "CLAUDE_PROVIDER_REQUIRED" });
    expect(answer.suggestions?.[0]).toBe("claude-opus-5.5");
    expect(await sessions()).toEqual(before);
  });

  it("R-MDL-06/07: Claude's id sent to a Copilot session → COPILOT_MODEL_UNAVAILABLE; the session stays on Copilot and its model", async () => {
    const { t, call, sessions } = await relayWithCopilot();
    const { id } = await t.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
      provider: "copilot",
      model: "gpt-5.4",
      title: "Copilot",
    });

    const sent = await call({
      action: "send",
      session: id,
      model: "claude-opus-5-5",
      text: "hi",
      wait_seconds: 0,
    });
    const updated = await call({ action: "update_session", session: id, model: "sonnet" });

    expect(sent).toMatchObject({ ok: false, remoteCode: "COPILOT_MODEL_UNAVAILABLE" });
    expect(updated).toMatchObject({ ok: false, remoteCode: "COPILOT_MODEL_UNAVAILABLE" });
    expect((await sessions()).find((session) => session.id === id)).toMatchObject({
      provider: "copilot",
      model: "gpt-5.4",
    });
    const detail = await t.ownerJson<{ turns: unknown[] }>("GET", `/v1/owner/sessions/${id}`);
    expect(detail.turns).toEqual([]);
  });
});
