import type { Clock, IdGenerator, Logger } from "@oar/core";
import type { EngineObserver } from "../ports/engine-observer";
import type { EngineStores } from "../ports/engine-stores";
import type { RunnerProcess } from "../ports/lease-store";
import type { AgentAccess, Provider, TurnUsage } from "../ports/provider";
import type { TurnRunner } from "../ports/session-store";
import type { TaskHost } from "../tasks/task-host";
import type { OutageWaits } from "./outage-waits";

/** What every part of the runtime works with: the options, resolved. */
export interface RuntimeContext {
  readonly stores: EngineStores;
  /** This relay's name (a prompt's provenance names it when one of its own agents sent it). */
  readonly relayName: string;
  readonly providers: readonly Provider[];
  /** Brings `providers` up to date with the owner's settings (command CLIs they define). */
  readonly refreshProviders: () => Promise<void>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly observer: EngineObserver;
  readonly callTool: (sessionId: string, input: unknown) => Promise<unknown>;
  /** The relay's URL and an agent token of the session, for a CLI agent to call relay_tool itself. */
  readonly agentAccess: (sessionId: string) => Promise<AgentAccess | null>;
  /** Counts a turn's cost and tokens toward its provider's usage (§10). */
  readonly reportUsage: (sessionId: string, provider: string, usage: TurnUsage) => Promise<void>;
  /** The sessions' background tasks run by this process (§13). */
  readonly tasks: TaskHost;
  readonly maxTurnSeconds: () => Promise<number>;
  /** Other relay processes use the same stores (DESIGN §9): recover by lease, poll for their changes. */
  readonly sharedStore: boolean;
  /** This process as its runner lease names it; undefined: other runners' leases end only by expiry. */
  readonly runnerProcess: RunnerProcess | undefined;
  /** How the other processes of the cluster reach this one; undefined until it listens. */
  readonly address: () => string | undefined;
  /** The lease turns are claimed under now (undefined while this process seeks a new one). */
  readonly runner: () => TurnRunner | undefined;
  /** Where writes that must land wait out an outage: woken as soon as the database answers again. */
  readonly outages: OutageWaits;
  /** After close() nothing is written any more: the stores' owner closes them next. */
  readonly isClosed: () => boolean;
}
