import type { Clock, IdGenerator, Logger } from "@oar/core";
import type { ClusterLink } from "./cluster-link";
import type { EngineObserver } from "./engine-observer";
import type { EngineStores } from "./engine-stores";
import type { FolderResolver } from "./folder-resolver";
import type { RunnerProcess } from "./lease-store";
import type { PeerLink } from "./peer-link";
import type { Provider, ProviderSource } from "./provider";
import type { RetentionOptions } from "./retention-options";
import type { TokenSecrets } from "./token-store";

export interface RelayIdentity {
  readonly name: string;
  readonly version: string;
  /** e.g. "linux-x64" (relay_info, R-RINFO-01). */
  readonly platform: string;
}

export interface EngineDeps {
  readonly stores: EngineStores;
  /** The built-in providers; those of `providerSources` join them as the owner's settings make them. */
  readonly providers: readonly Provider[];
  /** Providers the owner configures in `settings.providers` (command CLIs, Claude Code). */
  readonly providerSources?: readonly ProviderSource[];
  /**
   * This relay's base URL as its own agents reach it (`http://127.0.0.1:8787`): CLI agents get it
   * with an agent token (OAR_RELAY_URL, the Claude MCP config). Absent, they get no relay access.
   */
  readonly relayUrl?: string | (() => string | undefined);
  /** Where background tasks' output files go (DESIGN §3: under the data dir). */
  readonly taskOutputDir?: string;
  /** The environment background tasks start from (the relay's, without its own secrets); default the relay's own. */
  readonly childEnv?: Readonly<Record<string, string | undefined>>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly relay: RelayIdentity;
  readonly logger?: Logger;
  /** Told of turns ended, calls answered, deliveries sent and schedules fired (the app's metrics); default none. */
  readonly observer?: EngineObserver;
  /** Folders sessions may use (DESIGN §7); the first is the default cwd. Absent: any folder. */
  readonly allowedRoots?: readonly string[];
  /** Follows symlinks in folders before they are checked against the roots; default: none followed. */
  readonly folders?: FolderResolver;
  /** Link that opens a session in the console, when the relay has one (R-WST-06). */
  readonly openUrl?: (sessionId: string) => string;
  /**
   * Approval cards (DESIGN GAP-04) gate the calls on this relay: first create_session, writes in
   * ask/plan, update_session of another session, anti-loop. On unless set to false (tests of
   * other things); off, update_session of another session is refused instead.
   */
  readonly approvalCards?: boolean;
  /**
   * Other relay processes use the same stores (Postgres, DESIGN §9): turns are recovered by
   * lease, and waits look for changes made elsewhere. Default false: the embedded database is
   * locked to one process, so at start every turn left running is known to be orphaned.
   */
  readonly sharedStore?: boolean;
  /**
   * This relay process (host and pid) and how it tells whether another pid of its host runs: with
   * `sharedStore`, the turns of a relay process of this host that is gone end at once (at start,
   * or at the next heartbeat) instead of when its lease expires. Absent: only expiry ends them.
   */
  readonly runnerProcess?: RunnerProcess;
  /**
   * How this process reaches the other processes sharing its stores (DESIGN §9): stop, Kill,
   * archive and read_task_output reach the process where the turn or task runs. Default none.
   */
  readonly cluster?: ClusterLink;
  /** How tokens are made and hashed; default the platform's Web Crypto. */
  readonly secrets?: TokenSecrets;
  /** The network to paired relays; absent, every paired relay is unreachable (and says so). */
  readonly peerLink?: PeerLink;
  /** How often the events of subscriptions on paired relays are fetched (§28); default 3 s of the clock. */
  readonly peerPollMs?: number;
  /**
   * Old rows are pruned on the clock's timer with these options (DESIGN §9). Absent, no timer
   * prunes (tests of other things keep every row); `Engine.pruneNow` still runs a pass.
   */
  readonly retention?: RetentionOptions;
}
