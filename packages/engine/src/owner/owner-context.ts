import { RelayError } from "@oar/core";
import type { EngineLive } from "../live/engine-live";
import type { EngineDeps } from "../ports/engine-deps";
import type { Provider } from "../ports/provider";
import type { SessionRecord } from "../ports/session-store";
import type { SessionRuntime } from "../runtime/session-runtime";

/** What every owner verb works with. */
export interface OwnerContext {
  readonly deps: EngineDeps;
  readonly runtime: SessionRuntime;
  readonly live: EngineLive;
}

/**
 * Runs `work` with the stores bound to one transaction: the verb's writes land together or not
 * at all (DESIGN §7). `work` reads and writes through the context it is given.
 */
export function ownerChange<T>(ctx: OwnerContext, work: (tx: OwnerContext) => Promise<T>): Promise<T> {
  return ctx.deps.stores.transaction((stores) => work({ ...ctx, deps: { ...ctx.deps, stores } }));
}

export async function requireSession(ctx: OwnerContext, id: string): Promise<SessionRecord> {
  const session = await ctx.deps.stores.sessions.getSession(id);
  if (!session) {
    throw noSuchSession(id);
  }
  return session;
}

/** What the owner's verbs answer for a session this relay does not have (or deleted). */
export function noSuchSession(id: string): RelayError {
  return new RelayError("REMOTE_RELAY_NOT_FOUND", `No session ${id} on this relay.`);
}

/** The provider a session runs on; a provider removed from the relay's configuration is unavailable. */
export function providerOf(ctx: OwnerContext, session: SessionRecord): Provider {
  const provider = ctx.deps.providers.find((p) => p.info.id === session.provider);
  if (!provider) {
    throw new RelayError(
      "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
      `Session ${session.id} runs on provider "${session.provider}", which this relay no longer offers.`,
    );
  }
  return provider;
}
