import { T0 } from "@oar/permissions/testing";
import type { NewMessage, NewSession, NewTurn } from "../ports/session-store";

/** Input builders shared by the contract suites: the fields a test does not care about are filled in. */
export function newSession(id: string, overrides: Partial<NewSession> = {}): NewSession {
  return { id, title: `Session ${id}`, provider: "script", model: "script-1", createdAt: T0, ...overrides };
}

export function newMessage(id: string, sessionId: string, overrides: Partial<NewMessage> = {}): NewMessage {
  return { id, sessionId, role: "user", text: `text of ${id}`, createdAt: T0, ...overrides };
}

export function newTurn(id: string, sessionId: string, overrides: Partial<NewTurn> = {}): NewTurn {
  return { id, sessionId, origin: { kind: "owner" }, queuedAt: T0, ...overrides };
}
