/** Why a running turn was cut short; the first reason given wins. */
export type StopReason =
  | { readonly kind: "stop" }
  | { readonly kind: "kill" }
  | { readonly kind: "timeout"; readonly seconds: number }
  | { readonly kind: "shutdown" }
  /** This process lost its lease: another one recovered the turn, so nothing is written here. */
  | { readonly kind: "lease_lost" };

/** A turn running in this process: its in-flight text and the switch that stops it. */
export interface RunningTurn {
  readonly turnId: string;
  readonly sessionId: string;
  /** The model the turn runs with; "" until its session is read. */
  readonly model: string;
  readonly signal: AbortSignal;
  /** The reply streamed so far (read_session's `inFlight`). */
  readonly text: string;
  readonly stopReason: StopReason | null;
  append(text: string): void;
  setModel(model: string): void;
  stop(reason: StopReason): void;
  /** Resolves once the turn's end is written (or, at shutdown, given up). */
  readonly settled: Promise<void>;
}

export interface RunningTurns {
  begin(input: { readonly turnId: string; readonly sessionId: string }): RunningTurn;
  /** Drops the turn from the in-flight buffers and resolves its `settled`. */
  end(turn: RunningTurn): void;
  ofSession(sessionId: string): RunningTurn | undefined;
  byTurn(turnId: string): RunningTurn | undefined;
  all(): RunningTurn[];
}

export function createRunningTurns(): RunningTurns {
  const bySession = new Map<string, RunningTurn>();
  const settlers = new Map<RunningTurn, () => void>();

  return {
    begin({ turnId, sessionId }) {
      const controller = new AbortController();
      let model = "";
      let text = "";
      let stopReason: StopReason | null = null;
      let settle: () => void = () => {};
      const settled = new Promise<void>((resolve) => {
        settle = resolve;
      });
      const turn: RunningTurn = {
        turnId,
        sessionId,
        get model() {
          return model;
        },
        signal: controller.signal,
        get text() {
          return text;
        },
        get stopReason() {
          return stopReason;
        },
        append(piece) {
          // Text a worker streams after its turn was cut short is not part of the turn any more.
          if (stopReason === null) {
            text += piece;
          }
        },
        setModel(next) {
          model = next;
        },
        stop(reason) {
          if (stopReason === null) {
            stopReason = reason;
            controller.abort(reason);
          }
        },
        settled,
      };
      bySession.set(sessionId, turn);
      settlers.set(turn, settle);
      return turn;
    },
    end(turn) {
      if (bySession.get(turn.sessionId) === turn) {
        bySession.delete(turn.sessionId);
      }
      settlers.get(turn)?.();
      settlers.delete(turn);
    },
    ofSession(sessionId) {
      return bySession.get(sessionId);
    },
    byTurn(turnId) {
      return [...bySession.values()].find((turn) => turn.turnId === turnId);
    },
    all() {
      return [...bySession.values()];
    },
  };
}
