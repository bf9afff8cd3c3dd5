import type { Clock } from "@oar/core";
import type { Mode } from "@oar/schema";
import type { JsonValue } from "./json";

export interface ProviderModel {
  readonly id: string;
  readonly default?: boolean;
}

/** What a provider offers, as relay_info shows it (R-RINFO-01) and model checks use it (R-MDL-*). */
export interface ProviderInfo {
  readonly id: string;
  readonly label: string;
  /** `null` while the provider has no list yet: models then pass unchecked, with a modelNote (R-MDL-09). */
  readonly models: readonly ProviderModel[] | null;
  readonly efforts: readonly string[];
  /** Copilot-style ids use dots (`claude-opus-5.5`, R-MDL-05). */
  readonly dottedModelIds?: boolean;
  /** The agent runs outside the relay (`external`): no worker, it cannot take prompts (DESIGN §5). */
  readonly drivenFromOutside?: boolean;
  /** Whether usage is tracked; untracked providers say so in `usage` (R-USAGE-03). */
  readonly usageTracked?: boolean;
}

/** The session a worker runs for, as it is when the worker starts. */
export interface WorkerSession {
  readonly id: string;
  readonly title: string;
  readonly model: string;
  readonly effort: string | null;
  readonly mode: Mode;
  readonly cwd: string | null;
  readonly providerState: JsonValue;
}

export interface TurnInput {
  readonly turnId: string;
  readonly prompt: string;
  readonly model: string;
  readonly effort: string | null;
  readonly mode: Mode;
  readonly cwd: string | null;
}

export interface QuestionAnswer {
  readonly answer?: string;
  readonly choices?: readonly string[];
}

/** What a turn may do while it runs: the relay side of the worker. */
export interface TurnIO {
  /** Aborted when the turn is stopped (R-STOP-01) or the worker is killed. */
  readonly signal: AbortSignal;
  readonly clock: Clock;
  /** Streams reply text; read_session shows it as `inFlight` until the turn ends. */
  appendText(text: string): void;
  /** Raises a blocking question card (`ask_user`); the turn is `waiting` until it is answered. */
  askUser(question: { readonly text: string; readonly options: readonly string[] }): Promise<QuestionAnswer>;
  /** Calls relay_tool as this session (the `!tool` directive, an MCP call of a CLI agent). */
  callTool(input: unknown): Promise<unknown>;
}

export type TurnOutcome =
  | { readonly status: "done"; readonly reply: string }
  | { readonly status: "error"; readonly error: string; readonly reply?: string }
  | { readonly status: "stopped"; readonly reply?: string };

/** Runs one turn at a time for one session; the relay never runs two turns of a worker at once. */
export interface Worker {
  runTurn(turn: TurnInput, io: TurnIO): Promise<TurnOutcome>;
  /** Frees the worker (Kill session, relay shutdown); a running turn is aborted first. */
  close(): Promise<void>;
}

/** A provider (DESIGN §5): its offer, and a worker per session unless driven from outside. */
export interface Provider {
  readonly info: ProviderInfo;
  /** `null` for a provider whose agent runs outside the relay. */
  startWorker(session: WorkerSession): Worker | null;
}
