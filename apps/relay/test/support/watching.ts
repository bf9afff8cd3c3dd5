import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect } from "vitest";
import { eventually, OWNER_TOKEN } from "../harness";
import { ownerCall, type RelayProcess, spawnRelay, stopIfRunning } from "../process";

interface Message {
  readonly role: string;
  readonly text: string;
}

/** An owner API call that must answer 200; its JSON. */
export async function owner<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const { status, body: answer } = await ownerCall<T>(base, OWNER_TOKEN, {
    method,
    path,
    ...(body === undefined ? {} : { body }),
  });
  expect(status, `${method} ${path}: ${JSON.stringify(answer)}`).toBe(200);
  return answer;
}

export async function messagesOf(base: string, sessionId: string): Promise<Message[]> {
  return (await owner<{ messages: Message[] }>(base, "GET", `/v1/owner/sessions/${sessionId}`)).messages;
}

export async function relayMessages(base: string, sessionId: string): Promise<Message[]> {
  return (await messagesOf(base, sessionId)).filter((message) => message.role === "relay");
}

/**
 * The watcher subscribes from inside its own turn (the script agent's `!tool`), as a real agent
 * would; the first watch raises approval card (b), which the owner allows.
 */
export async function subscribeFromTurn(base: string, watcher: string, call: Record<string, unknown>) {
  await owner(base, "POST", `/v1/owner/sessions/${watcher}/messages`, {
    text: `!tool ${JSON.stringify({ action: "subscribe", ...call })}`,
  });
  const card = await poll(async () => {
    const { cards } = await owner<{ cards: { id: string; reason?: string }[] }>(
      base,
      "GET",
      "/v1/owner/cards?status=pending",
    );
    return cards[0];
  });
  await owner(base, "POST", `/v1/owner/cards/${card.id}`, { choice: "allow" });
  const reply = await poll(async () => {
    const messages = await messagesOf(base, watcher);
    return messages.find((message) => message.role === "assistant" && message.text.includes('"subscribe'));
  });
  expect(reply.text).toContain('"ok":true');
}

/** Polls (real time) until `check` returns a value. */
export const poll = <T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> =>
  eventually(check, timeoutMs);

/**
 * Real relay processes on PGlite data directories of their own, killed and removed after each
 * test: `start(dir)` starts one (again) on a directory `dataDir()` made.
 */
export function useRelayProcesses() {
  const processes: RelayProcess[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const process of processes.splice(0)) {
      stopIfRunning(process);
      await process.exited;
    }
    for (const dir of dirs.splice(0)) {
      await rm(dir, { recursive: true, force: true });
    }
  });
  return {
    async dataDir() {
      const dir = await mkdtemp(join(tmpdir(), "oar-watching-"));
      dirs.push(dir);
      return dir;
    },
    async start(dataDir: string) {
      const relay = spawnRelay({
        RELAY_NAME: "desk",
        RELAY_OWNER_TOKEN: OWNER_TOKEN,
        RELAY_DATA_DIR: dataDir,
      });
      processes.push(relay);
      return { relay, base: await relay.listening };
    },
  };
}
