import type { Clock } from "@oar/core";
import type { Mode } from "@oar/schema";
import type { JsonObject, JsonValue } from "./json";

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
  /**
   * Why the provider cannot run turns now (`claude-api` without an API key): sessions on it are
   * refused with REMOTE_RELAY_PROVIDER_UNAVAILABLE saying this, and `usage` says not configured.
   */
  readonly notConfigured?: string;
  /** A monthly spending cap in USD (`claude-api`): past it, prompts are refused (R-BILL-04/06). */
  readonly monthlyCapUsd?: number;
  /**
   * `repository`: a session works on its own clone of a repository (`claude-cloud`, R-CRE-07):
   * create_session takes `repo`/`branch` and no `cwd`, update_session no `cwd` (R-UPD-24).
   */
  readonly worksOn?: "repository";
  /**
   * Which of update_session's provider settings take effect on the next turns (R-UPD-07/08);
   * without it, none does and the result's note says so.
   */
  readonly sessionSettings?: ProviderSessionSettings;
  /**
   * How the provider works out the cost it reports, when that is an estimate and not a bill
   * (Claude Code prices the tokens from its own table): `usage` names the cost figures as
   * estimated and gives this text. Without it the reported cost is taken as exact.
   */
  readonly costEstimate?: string;
}

/** R-UPD-07/08: what `auto_compact_window` and `thinking_enabled` do on a provider's sessions. */
export interface ProviderSessionSettings {
  /** The window takes effect; `zeroMeansTokens`: what `0` stands for (DeepSeek: 400,000). */
  readonly window: boolean | { readonly zeroMeansTokens: number };
  /** `true` when thinking can be turned on and off; else why it does not take effect. */
  readonly thinking: true | string;
}

/** The session a worker runs for, as it is when the worker starts. */
export interface WorkerSession {
  readonly id: string;
  readonly title: string;
  readonly model: string;
  readonly effort: string | null;
  readonly mode: Mode;
  readonly cwd: string | null;
  /** A repository session's `owner/name` or URL and branch (R-CRE-07); `null` for a folder session. */
  readonly repo?: string | null;
  readonly branch?: string | null;
  readonly providerState: JsonValue;
}

export interface TurnInput {
  readonly turnId: string;
  readonly prompt: string;
  readonly model: string;
  readonly effort: string | null;
  readonly mode: Mode;
  readonly cwd: string | null;
  /** The session's provider settings as update_session keeps them (`auto_compact_window`, …). */
  readonly settings?: JsonObject;
}

/** How a worker's own agent reaches this relay as its session (DESIGN §5: OAR_RELAY_URL, OAR_AGENT_TOKEN). */
export interface AgentAccess {
  /** The relay's base URL, e.g. `http://127.0.0.1:8787`; `/mcp` and `/v1/tool` hang off it. */
  readonly url: string;
  readonly sessionId: string;
  /** An agent token of this session, made for this worker. */
  readonly token: string;
}

/** Cost and tokens of one turn, as the provider's agent reported them (§10 usage). */
export interface TurnUsage {
  /** What this report adds, in USD: not a running total (the month adds the reports up). */
  readonly costUsd?: number;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}

/** A background task a turn starts (§13): a shell command or a background agent. */
export type TaskSpec =
  | {
      readonly kind: "shell";
      /** What the agent calls it (`!wait-task NAME`); unique among the session's running tasks. */
      readonly name: string;
      /** Run with `sh -c` in the session's cwd, in its own process group; output to a file. */
      readonly command: string;
      readonly description?: string;
    }
  | {
      readonly kind: "subagent";
      readonly name: string;
      /** A background agent of the built-in script: it finishes after this long on the relay's clock. */
      readonly ms: number;
      readonly description?: string;
    };

/** How a background task ended. */
export interface TaskEnd {
  readonly taskId: string;
  readonly status: "finished" | "failed" | "stopped";
  readonly exitCode: number | null;
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
  /** The relay's URL and an agent token of this session; `null` when the relay has no URL to give. */
  agentAccess(): Promise<AgentAccess | null>;
  /** Keeps what the provider needs for the session's next turns (a CLI's session id to resume). */
  saveProviderState(state: JsonValue): Promise<void>;
  /** Counts a turn's cost and tokens toward the provider's usage (§10). */
  reportUsage(usage: TurnUsage): Promise<void>;
  /** Starts a background task of the session; it outlives the turn. Resolves with its id. */
  startTask(task: TaskSpec): Promise<string>;
  /** Waits for the session's task of that name to end (or the turn to be stopped: rejects then). */
  waitTask(name: string): Promise<TaskEnd>;
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

/**
 * Providers the owner configures in `settings.providers` (DESIGN §4): command CLIs, Claude Code's
 * API key. The engine asks every source, in order, about each entry.
 */
export interface ProviderSource {
  /**
   * `undefined` when this source does not handle provider `id`; else the entry's problems, each
   * naming its field (`providers.lint.command: …`); empty when the entry is good.
   */
  check(id: string, entry: unknown): readonly string[] | undefined;
  /** The providers these entries make (those of this source), in the order relay_info shows. */
  providers(entries: Readonly<Record<string, unknown>>): readonly Provider[];
}

/** A provider (DESIGN §5): its offer, and a worker per session unless driven from outside. */
export interface Provider {
  readonly info: ProviderInfo;
  /** `null` for a provider whose agent runs outside the relay. */
  startWorker(session: WorkerSession): Worker | null;
  /**
   * Removes what the provider keeps on disk for a session (a repository session's clone), once
   * the session is archived or deleted and its worker closed.
   */
  discardSession?(sessionId: string): Promise<void>;
  /** Hands what it keeps for a session on to the session that continues it (compaction). */
  moveSessionFiles?(from: string, to: string): Promise<void>;
}
