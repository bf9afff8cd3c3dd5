import { RelayError } from "@oar/core";
import type { Provider, Worker } from "../ports/provider";
import type { SessionRecord } from "../ports/session-store";
import { errorMessage } from "../shared/error-message";
import type { RuntimeContext } from "./runtime-context";

/** The sessions' workers: started on a session's first turn and kept for the next ones. */
export interface WorkerPool {
  /** The session's worker, started now if it has none; throws RelayError when none can run. */
  acquire(session: SessionRecord): Worker;
  /** Forgets the session's worker and closes it; the next turn starts a new one. */
  close(sessionId: string): Promise<void>;
  closeAll(): Promise<void>;
}

export function findProvider(providers: readonly Provider[], id: string): Provider | undefined {
  return providers.find((provider) => provider.info.id === id);
}

export function drivenFromOutsideError(sessionId: string, provider: string): RelayError {
  return new RelayError(
    "REMOTE_RELAY_INVALID_INPUT",
    `Session ${sessionId} is driven from outside the relay (${provider} provider): it takes no prompts. ` +
      "Its agent is an MCP client that calls relay_tool itself; read its messages with read_session.",
    { context: { session: sessionId, provider } },
  );
}

export function createWorkerPool(ctx: RuntimeContext): WorkerPool {
  const workers = new Map<string, { readonly provider: Provider; readonly worker: Worker }>();

  const closeWorker = async (sessionId: string, worker: Worker) => {
    try {
      await worker.close();
    } catch (error) {
      ctx.logger.warn("A worker failed to close.", { session: sessionId, error: errorMessage(error) });
    }
  };

  return {
    acquire(session) {
      const provider = findProvider(ctx.providers, session.provider);
      const current = workers.get(session.id);
      if (current && current.provider === provider) {
        return current.worker;
      }
      if (current) {
        // The session moved to another provider, or the owner changed its definition: the old
        // worker has nothing left to do.
        workers.delete(session.id);
        void closeWorker(session.id, current.worker);
      }
      if (!provider) {
        throw new RelayError(
          "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
          `Provider "${session.provider}" is not available on this relay, so session ${session.id} cannot run a turn.`,
          { context: { session: session.id, provider: session.provider } },
        );
      }
      if (provider.info.notConfigured !== undefined) {
        throw new RelayError("REMOTE_RELAY_PROVIDER_UNAVAILABLE", provider.info.notConfigured, {
          context: { session: session.id, provider: session.provider },
        });
      }
      const worker = provider.startWorker({
        id: session.id,
        title: session.title,
        model: session.model,
        effort: session.effort,
        mode: session.mode,
        cwd: session.cwd,
        repo: session.repo,
        branch: session.branch,
        providerState: session.providerState,
      });
      if (!worker) {
        throw drivenFromOutsideError(session.id, session.provider);
      }
      workers.set(session.id, { provider, worker });
      return worker;
    },

    async close(sessionId) {
      const current = workers.get(sessionId);
      workers.delete(sessionId);
      if (current) {
        await closeWorker(sessionId, current.worker);
      }
    },

    async closeAll() {
      const all = [...workers.entries()];
      workers.clear();
      await Promise.all(all.map(([sessionId, { worker }]) => closeWorker(sessionId, worker)));
    },
  };
}
