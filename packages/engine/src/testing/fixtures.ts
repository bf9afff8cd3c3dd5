import { T0 } from "@oar/permissions/testing";
import type { NewMessage, NewSession, NewTurn } from "../ports/session-store";
import type { NewTask } from "../ports/task-store";

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

/** A shell task `npm test` of the session's turn trn_1, with its output file under /data/tasks. */
export function newTask(id: string, sessionId: string, overrides: Partial<NewTask> = {}): NewTask {
  return {
    id,
    sessionId,
    turnId: "trn_1",
    kind: "shell",
    name: id,
    description: `npm test (${id})`,
    command: "npm test",
    outputPath: `/data/tasks/${id}.log`,
    runner: null,
    pid: null,
    host: null,
    startedAt: T0,
    ...overrides,
  };
}
