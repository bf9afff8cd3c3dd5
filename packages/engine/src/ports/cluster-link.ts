/**
 * What one relay process asks another of its cluster (DESIGN §9): whatever must happen where the
 * work runs. Each request names the lease of the process it is meant for, so that a process that
 * is not that one (an address reused, a wrong RELAY_CLUSTER_URL) refuses it instead of answering
 * for work it does not run.
 */
export type ClusterRequest =
  /** Stop the session's turn and end its tasks run there (stop, R-STOP-01). */
  | { readonly op: "stop_turn"; readonly sessionId: string }
  /** Close the session's worker there and end its tasks (Kill, archive, delete). */
  | { readonly op: "kill_worker"; readonly sessionId: string }
  /** End the session's tasks run there. */
  | { readonly op: "end_tasks"; readonly sessionId: string }
  /** The end of a task's output file, which is on that process's host (read_task_output). */
  | { readonly op: "read_output"; readonly taskId: string; readonly maxBytes: number }
  /** A blocking question of a turn running there was answered here: the turn goes on with the stored answer. */
  | { readonly op: "question_answered"; readonly questionId: string }
  /** End the processes a gone relay process of that host left (their environment names `instance`). */
  | { readonly op: "reap"; readonly instance: string };

export interface ClusterReplies {
  readonly stop_turn: { readonly stopped: boolean };
  readonly kill_worker: Record<string, never>;
  readonly end_tasks: Record<string, never>;
  /** `null` when the file is not there. */
  readonly read_output: {
    readonly end: { readonly text: string; readonly complete: boolean; readonly size: number } | null;
  };
  readonly question_answered: { readonly delivered: boolean };
  readonly reap: { readonly ended: number };
}

export type ClusterReply<R extends ClusterRequest> = ClusterReplies[R["op"]];

/** Another process of the cluster, as its runner lease names it. */
export interface ClusterTarget {
  readonly lease: string;
  readonly address: string;
}

/**
 * How this process reaches the others (the app: HTTP with the cluster's secret). Throws when the
 * target cannot be reached or refuses; the caller says what that leaves undone.
 */
export interface ClusterLink {
  send<R extends ClusterRequest>(target: ClusterTarget, request: R): Promise<ClusterReply<R>>;
}
