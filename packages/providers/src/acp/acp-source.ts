import { basename } from "node:path";
import { type Clock, systemClock } from "@oar/core";
import type { ProviderSource } from "@oar/engine";
import { fillPlaceholders } from "../command/placeholders";
import { DEFAULT_KILL_GRACE_MS } from "../command/process-group";
import { type AcpAgentDefinition, isAcpEntry, parseAcpDefinition } from "./acp-definition";
import { createAcpProvider } from "./acp-provider";

export interface AcpSourceOptions {
  /** The environment agents start from (the definition's `env` on top): the relay's, without its secrets. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly killGraceMs?: number;
  /** How long a cancelled prompt may take to end before the agent is killed; default 3000 ms. */
  readonly cancelGraceMs?: number;
  /** How long an agent may sit idle between turns before it is ended; default 10 minutes. */
  readonly idleMs?: number;
  /** The relay's clock, for the idle time; default the system's. */
  readonly clock?: Clock;
}

export const DEFAULT_CANCEL_GRACE_MS = 3_000;
export const DEFAULT_ACP_IDLE_MS = 10 * 60_000;

/** The ACP agents of `settings.providers` (DESIGN §5): every entry with an `acp` key. */
export function acpProviderSource(options: AcpSourceOptions): ProviderSource {
  return {
    check(id, entry) {
      if (!isAcpEntry(entry)) {
        return undefined;
      }
      const parsed = parseAcpDefinition(id, entry);
      return parsed.ok ? [] : parsed.error;
    },
    providers(entries) {
      return Object.entries(entries).flatMap(([id, entry]) => {
        if (!isAcpEntry(entry)) {
          return [];
        }
        const parsed = parseAcpDefinition(id, entry);
        return parsed.ok ? [definedAcpProvider(id, parsed.value, options)] : [];
      });
    },
  };
}

function definedAcpProvider(id: string, definition: AcpAgentDefinition, options: AcpSourceOptions) {
  const [program, ...args] = definition.acp;
  const label = definition.label ?? `ACP: ${basename(program)}`;
  const models = definition.models?.map((model, index) =>
    index === 0 ? { id: model, default: true } : { id: model },
  );
  return createAcpProvider({
    info: { id, label, models: models ?? null, efforts: [], usageTracked: true },
    modelsFromAgent: models === undefined,
    agent: {
      providerId: id,
      agentName: definition.label ?? basename(program),
      argv: (values) => [program, ...fillPlaceholders(args, values)],
      env: { ...options.env, ...definition.env },
      ...(definition.timeoutSeconds === undefined ? {} : { timeoutSeconds: definition.timeoutSeconds }),
      ...agentTiming(options),
    },
  });
}

/** The grace periods, idle time and clock of an agent, the defaults where the options give none. */
export function agentTiming(options: {
  readonly killGraceMs?: number;
  readonly cancelGraceMs?: number;
  readonly idleMs?: number;
  readonly clock?: Clock;
}): { killGraceMs: number; cancelGraceMs: number; idleMs: number; clock: Clock } {
  return {
    killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    cancelGraceMs: options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS,
    idleMs: options.idleMs ?? DEFAULT_ACP_IDLE_MS,
    clock: options.clock ?? systemClock,
  };
}
