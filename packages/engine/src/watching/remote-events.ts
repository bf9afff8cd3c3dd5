import { type Clock, type IdGenerator, isRelayError, type Logger, type TimerId, toIso } from "@oar/core";
import { releaseOf, type SubscriptionRecord } from "@oar/scheduler";
import { LIMITS, type OutboxEvent, type RelayEvent } from "@oar/schema";
import type { EngineStores } from "../ports/engine-stores";
import type { PeerLink } from "../ports/peer-link";
import type { PeerRecord } from "../ports/peer-store";
import { errorMessage } from "../shared/error-message";
import { CLOSE_GRACE_MS, settleWithin } from "../shared/settle-within";

/** R-PAIR-03: this relay fetches a paired relay's events every few seconds. */
export const PEER_EVENTS_POLL_MS = 3_000;
/** How long one poll of a paired relay may take before it counts as not answering. */
export const PEER_EVENTS_TIMEOUT_MS = 10_000;
/** The lease one process holds on polling one paired relay; longer than a poll can last. */
const POLL_LEASE_MS = 60_000;
const LEASE_PREFIX = "peer-events:";

export interface RemoteEventsDeps {
  readonly stores: EngineStores;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly peerLink: PeerLink | undefined;
  /** This relay's own name: the origin of the unsubscribe it sends for a mirror that ended here. */
  readonly relayName: string;
  /** Default PEER_EVENTS_POLL_MS. */
  readonly pollMs?: number;
  /** Called after events were appended (the dispatcher routes them). */
  readonly appended: () => void;
}

/**
 * §28 on the watching relay: every few seconds, for each paired relay with active mirrors, one
 * process (the holder of that relay's lease, DESIGN §9) fetches each mirror's events after its
 * cursor and appends them to the outbox — id `<relay>:<their subscription>:<their event id>`, so a
 * refetch after a crash stores nothing twice (DESIGN §3) — with the cursor in the same
 * transaction. The dispatcher then delivers them like this relay's own, the relay's name in
 * their lines (R-PAIR-03), the mirror's digest and quiet hours applied (R-PAIR-06/07). A poll
 * that fails appends one `link_lost`; the poll that answers again appends what was missed, then
 * one `link_restored` with how many were replayed and how many of them are held (R-PAIR-04/07).
 * A subscription that ended there (410) ends its mirror as `archived`; a mirror that ended here
 * (once, its watcher archived) is unsubscribed there, every poll until that relay confirms.
 */
export interface RemoteEventsPoller {
  start(): void;
  /** One poll of every paired relay with mirrors, now (tests; the timer calls it too). */
  pollNow(): Promise<void>;
  /** Resolves when no poll runs. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

function linkEvent(
  kind: "link_lost" | "link_restored",
  id: string,
  peer: PeerRecord,
  mirror: SubscriptionRecord,
  at: number,
  counts?: { readonly replayed: number; readonly held: number },
): OutboxEvent {
  const base = {
    id,
    at: toIso(at),
    relay: peer.name,
    subscription_id: mirror.id,
    session: null,
    title: null,
  };
  return kind === "link_lost"
    ? { ...base, kind }
    : { ...base, kind, replayed: counts?.replayed ?? 0, held: counts?.held ?? 0 };
}

/**
 * The other relay's event as this relay's outbox keeps it: its own id, the relay's name, the
 * mirror, and `replayed` when it was fetched after the link was lost (R-PAIR-04).
 */
function imported(
  peer: PeerRecord,
  mirror: SubscriptionRecord,
  event: RelayEvent,
  replayed: boolean,
): OutboxEvent {
  return {
    ...event,
    ...(replayed ? { replayed: true as const } : {}),
    id: `${peer.name}:${mirror.remoteId}:${event.id}`,
    relay: peer.name,
    subscription_id: mirror.id,
  } as OutboxEvent;
}

export function createRemoteEventsPoller(deps: RemoteEventsDeps): RemoteEventsPoller {
  const { stores, clock } = deps;
  const pollMs = deps.pollMs ?? PEER_EVENTS_POLL_MS;
  const owner = deps.ids.next("runner");
  let timer: TimerId | null = null;
  let running: Promise<void> | null = null;
  let closed = false;

  /** Appends a link line for the mirror and records the link's state, in one transaction. */
  const noteLink = async (
    peer: PeerRecord,
    mirror: SubscriptionRecord,
    kind: "link_lost" | "link_restored",
    counts?: { readonly replayed: number; readonly held: number },
  ) => {
    const now = clock.now();
    const id = `${peer.name}:${mirror.id}:${kind}:${now}`;
    await stores.transaction(async (tx) => {
      await tx.events.appendEvent({
        id,
        sessionId: null,
        subscriptionId: mirror.id,
        event: linkEvent(kind, id, peer, mirror, now, counts),
        at: now,
      });
      await tx.subscriptions.setMirrorState(mirror.id, { linkLostAt: kind === "link_lost" ? now : null });
    });
    deps.appended();
  };

  const pollMirror = async (link: PeerLink, peer: PeerRecord, start: SubscriptionRecord) => {
    const address = { name: peer.name, url: peer.url, token: peer.token };
    const wasLost = start.linkLostAt !== null;
    let cursor = start.remoteCursor;
    let replayed = 0;
    let held = 0;
    for (;;) {
      let page: Awaited<ReturnType<PeerLink["subscriptionEvents"]>>;
      try {
        page = await link.subscriptionEvents(
          address,
          start.remoteId as string,
          { after: cursor, limit: LIMITS.peerEventsPageMax },
          { timeoutMs: PEER_EVENTS_TIMEOUT_MS },
        );
      } catch (error) {
        if (isRelayError(error) && !error.isLocal() && error.code === "REMOTE_RELAY_NOT_FOUND") {
          // It ended there (its sessions archived) and nothing is left: so does the mirror.
          const at = clock.now();
          await stores.transaction(async (tx) => {
            await tx.subscriptions.endSubscriptions({ ids: [start.id], reason: "archived", at });
            await tx.subscriptions.setMirrorState(start.id, { remoteEndedAt: at });
          });
          return;
        }
        if (!wasLost) {
          deps.logger.warn("A paired relay's subscription events could not be fetched.", {
            peer: peer.name,
            subscription: start.id,
            error: errorMessage(error),
          });
          await noteLink(peer, start, "link_lost");
        }
        return;
      }
      const now = clock.now();
      const stillActive = await stores.transaction(async (tx) => {
        const mirror = await tx.subscriptions.getSubscription(start.id);
        if (mirror === null || mirror.endedAt !== null || mirror.remoteCursor !== cursor) {
          // Ended meanwhile, or another process took these events first.
          return false;
        }
        for (const event of page.events) {
          const copy = imported(peer, mirror, event, wasLost);
          const stored = await tx.events.appendEvent({
            id: copy.id,
            sessionId: null,
            subscriptionId: mirror.id,
            event: copy,
            at: now,
          });
          if (stored !== null && wasLost) {
            replayed++;
            const release = releaseOf(mirror, event.kind, now);
            if (release.reason === "digest" || release.reason === "quiet") {
              held++;
            }
          }
        }
        await tx.subscriptions.setMirrorState(mirror.id, { remoteCursor: page.cursor });
        return true;
      });
      if (!stillActive) {
        return;
      }
      if (page.events.length > 0) {
        deps.appended();
      }
      const moved = page.cursor !== cursor;
      cursor = page.cursor;
      if (page.events.length < LIMITS.peerEventsPageMax || !moved) {
        break;
      }
    }
    if (wasLost) {
      await noteLink(peer, start, "link_restored", { replayed, held });
    }
  };

  /**
   * A mirror that ended here (once, its watcher archived, unsubscribe that did not reach there)
   * ends there too: unsubscribe on that relay as the watching conversation. Tried every poll
   * until that relay says it ended (or never knew it).
   */
  const endThere = async (link: PeerLink, peer: PeerRecord, mirror: SubscriptionRecord) => {
    let ended: boolean;
    try {
      const result = await link.tool(
        { name: peer.name, url: peer.url, token: peer.token },
        {
          call: { action: "unsubscribe", relay: "this", subscription_id: mirror.remoteId },
          origin: {
            relay: deps.relayName,
            session: mirror.watcher,
            title: "",
            model: "",
            hops: 0,
            userUnlocked: false,
          },
        },
        { timeoutMs: PEER_EVENTS_TIMEOUT_MS },
      );
      ended = result.ok || result.code === "REMOTE_RELAY_NOT_FOUND";
    } catch {
      ended = false;
    }
    if (ended) {
      await stores.subscriptions.setMirrorState(mirror.id, { remoteEndedAt: clock.now() });
    }
  };

  const pollRelay = async (
    link: PeerLink,
    relay: string,
    mirrors: readonly SubscriptionRecord[],
    ending: readonly SubscriptionRecord[],
  ) => {
    const peer = await stores.peers.getPeer(relay);
    if (peer === null) {
      return;
    }
    const name = `${LEASE_PREFIX}${relay}`;
    const taken = await stores.leases.acquireLease({ name, owner, ttlMs: POLL_LEASE_MS, now: clock.now() });
    if (!taken.ok) {
      return;
    }
    try {
      for (const mirror of mirrors) {
        if (closed) {
          return;
        }
        await pollMirror(link, peer, mirror);
      }
      for (const mirror of ending) {
        if (closed) {
          return;
        }
        await endThere(link, peer, mirror);
      }
    } finally {
      await stores.leases.releaseLease({
        name,
        owner,
        fencingToken: taken.value.fencingToken,
        now: clock.now(),
      });
    }
  };

  const pass = async () => {
    const link = deps.peerLink;
    if (link === undefined) {
      return;
    }
    const [mirrors, toEnd] = await Promise.all([
      stores.subscriptions.listMirrors(),
      stores.subscriptions.listMirrorsToEnd(),
    ]);
    const byRelay = new Map<string, { active: SubscriptionRecord[]; ending: SubscriptionRecord[] }>();
    const add = (mirror: SubscriptionRecord, list: "active" | "ending") => {
      if (mirror.relay === null || mirror.remoteId === null) {
        return;
      }
      const entry = byRelay.get(mirror.relay) ?? { active: [], ending: [] };
      entry[list].push(mirror);
      byRelay.set(mirror.relay, entry);
    };
    for (const mirror of mirrors) {
      add(mirror, "active");
    }
    for (const mirror of toEnd) {
      add(mirror, "ending");
    }
    await Promise.all(
      [...byRelay].map(([relay, { active, ending }]) =>
        pollRelay(link, relay, active, ending).catch((error) => {
          deps.logger.warn("Polling a paired relay's subscription events failed; it tries again.", {
            peer: relay,
            error: errorMessage(error),
          });
        }),
      ),
    );
  };

  const pollNow = async () => {
    while (running !== null) {
      await running;
    }
    if (closed) {
      return;
    }
    running = pass().finally(() => {
      running = null;
    });
    await running;
  };

  const arm = () => {
    if (closed) {
      return;
    }
    timer = clock.setTimeout(() => {
      timer = null;
      void pollNow()
        .catch((error) => {
          deps.logger.warn("Polling paired relays' subscription events failed; it tries again.", {
            error: errorMessage(error),
          });
        })
        .finally(arm);
    }, pollMs);
  };

  return {
    start() {
      if (timer === null && !closed) {
        arm();
      }
    },
    pollNow,
    async settled() {
      while (running !== null) {
        await running;
      }
    },
    async close() {
      closed = true;
      if (timer !== null) {
        clock.clearTimeout(timer);
        timer = null;
      }
      await settleWithin(clock, running, CLOSE_GRACE_MS);
    },
  };
}
