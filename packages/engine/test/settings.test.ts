import { RelayError } from "@oar/core";
import { describe, expect, it } from "vitest";
import { patchSettings, readSettings } from "../src/settings/settings";
import { createMemorySettingsStore } from "../src/testing";

describe("owner settings (DESIGN §4, GAP-02, R-WST-02)", () => {
  it("starts with agent sessions enabled and a 600 s longest wait", async () => {
    const settings = await readSettings(createMemorySettingsStore());
    expect(settings.agentSessions).toEqual({ enabled: true, longestWaitSeconds: 600 });
    expect(settings.acceptPromptsFromOtherRelays).toBe(true);
  });

  it("merges a patch into what is stored and keeps it", async () => {
    const store = createMemorySettingsStore();
    await patchSettings(store, { agentSessions: { longestWaitSeconds: 120 } });
    const after = await patchSettings(store, { acceptPromptsFromOtherRelays: false });
    expect(after.agentSessions).toEqual({ enabled: true, longestWaitSeconds: 120 });
    expect(after.acceptPromptsFromOtherRelays).toBe(false);
    expect(await readSettings(store)).toEqual(after);
  });

  it("a refused patch changes nothing and is refused as the check refused it", async () => {
    const store = createMemorySettingsStore();
    const refusal = new RelayError("REMOTE_RELAY_INVALID_INPUT", "no provider takes this");
    const refuse = () => {
      throw refusal;
    };
    const patch = { maxTurnSeconds: 600, providers: { odd: { command: "x" } } };
    await expect(patchSettings(store, patch, refuse)).rejects.toBe(refusal);
    expect(await store.listSettings()).toEqual({});
    await patchSettings(store, { quietAfterMinutes: 30 });
    const before = await store.listSettings();
    await expect(patchSettings(store, patch, refuse)).rejects.toBe(refusal);
    expect(await store.listSettings()).toEqual(before);
  });

  it("parses one stored value once: reads of it share one settings object until it changes", async () => {
    const store = createMemorySettingsStore();
    await patchSettings(store, { maxTurnSeconds: 600 });
    const first = await readSettings(store);
    expect(await readSettings(store)).toBe(first);
    await patchSettings(store, { maxTurnSeconds: 900 });
    const changed = await readSettings(store);
    expect(changed).not.toBe(first);
    expect(changed.maxTurnSeconds).toBe(900);
  });
});
