import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import type { Lease, LeaseStore } from "../ports/lease-store";

const TTL = 30_000;

/** The behaviour every LeaseStore must have: expiry, fencing and contention. */
export function runLeaseStoreContract(setup: ContractSetup<ContractFixture<LeaseStore>>): void {
  describe("LeaseStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;

    async function acquired(owner: string, now: number, name = "worker:ses_1"): Promise<Lease> {
      const result = await store().acquireLease({ name, owner, ttlMs: TTL, now });
      if (!result.ok) {
        throw new Error(`expected ${owner} to get ${name}, held by ${result.error.holder?.owner}`);
      }
      return result.value;
    }

    it("gives a free lease to the first owner that asks", async () => {
      const lease = await acquired("relay-a", T0);
      expect(lease).toMatchObject({ name: "worker:ses_1", owner: "relay-a", expiresAt: T0 + TTL });
      expect(lease.fencingToken).toBeGreaterThan(0);
      expect(await store().getLease("worker:ses_1")).toEqual(lease);
      expect(await store().getLease("worker:ses_2")).toBeNull();
    });

    it("refuses a live lease to another owner, naming the holder", async () => {
      const lease = await acquired("relay-a", T0);
      const refused = await store().acquireLease({
        name: "worker:ses_1",
        owner: "relay-b",
        ttlMs: TTL,
        now: T0 + 1,
      });
      expect(refused).toEqual({ ok: false, error: { holder: lease } });
    });

    it("extends a live lease re-acquired by its owner, keeping the token", async () => {
      const first = await acquired("relay-a", T0);
      const again = await acquired("relay-a", T0 + 10_000);
      expect(again).toEqual({ ...first, expiresAt: T0 + 10_000 + TTL });
    });

    it("lets another owner take an expired lease with a higher token", async () => {
      const first = await acquired("relay-a", T0);
      const taken = await acquired("relay-b", T0 + TTL);
      expect(taken.owner).toBe("relay-b");
      expect(taken.fencingToken).toBeGreaterThan(first.fencingToken);
      const back = await acquired("relay-a", T0 + 3 * TTL);
      expect(back.fencingToken).toBeGreaterThan(taken.fencingToken);
    });

    it("renews while the owner and token still hold it", async () => {
      const lease = await acquired("relay-a", T0);
      const renewed = await store().renewLease({ ...lease, ttlMs: TTL, now: T0 + 20_000 });
      expect(renewed).toEqual({ ok: true, value: { ...lease, expiresAt: T0 + 20_000 + TTL } });
      const stillHeld = await store().acquireLease({
        name: "worker:ses_1",
        owner: "relay-b",
        ttlMs: TTL,
        now: T0 + 40_000,
      });
      expect(stillHeld.ok).toBe(false);
    });

    it("renews a lapsed lease that nobody took meanwhile, since no later token exists", async () => {
      const lease = await acquired("relay-a", T0);
      const renewed = await store().renewLease({ ...lease, ttlMs: TTL, now: T0 + TTL + 5 });
      expect(renewed).toEqual({ ok: true, value: { ...lease, expiresAt: T0 + 2 * TTL + 5 } });
    });

    it("refuses renewal to a holder that lost the lease", async () => {
      const old = await acquired("relay-a", T0);
      const current = await acquired("relay-b", T0 + TTL + 1);
      expect(await store().renewLease({ ...old, ttlMs: TTL, now: T0 + TTL + 2 })).toEqual({
        ok: false,
        error: { holder: current },
      });
      expect(
        await store().renewLease({
          ...current,
          fencingToken: old.fencingToken,
          ttlMs: TTL,
          now: T0 + TTL + 2,
        }),
      ).toMatchObject({ ok: false });
      expect(
        await store().renewLease({
          name: "worker:none",
          owner: "relay-a",
          fencingToken: 1,
          ttlMs: TTL,
          now: T0,
        }),
      ).toEqual({ ok: false, error: { holder: null } });
    });

    it("frees a released lease at once, and a later holder gets a higher token", async () => {
      const lease = await acquired("relay-a", T0);
      expect(await store().releaseLease({ ...lease, now: T0 + 5 })).toBe(true);
      const next = await acquired("relay-b", T0 + 5);
      expect(next.fencingToken).toBeGreaterThan(lease.fencingToken);
      const again = await acquired("relay-b", T0 + 6);
      expect(again.fencingToken).toBe(next.fencingToken);
    });

    it("ignores a release by a holder that lost the lease", async () => {
      const old = await acquired("relay-a", T0);
      const current = await acquired("relay-b", T0 + TTL);
      expect(await store().releaseLease({ ...old, now: T0 + TTL + 1 })).toBe(false);
      expect(await store().releaseLease({ ...current, owner: "relay-a", now: T0 + TTL + 1 })).toBe(false);
      expect(await store().getLease("worker:ses_1")).toEqual(current);
    });

    it("keeps leases of different names apart", async () => {
      await acquired("relay-a", T0, "worker:ses_1");
      const other = await acquired("relay-b", T0, "worker:ses_2");
      expect(other.owner).toBe("relay-b");
    });

    it("lists the expired leases of a prefix, oldest expiry first", async () => {
      await acquired("a", T0, "runner:a");
      await acquired("b", T0 + 10, "runner:b");
      await acquired("c", T0 + 20, "runner:c");
      await acquired("x", T0, "poller_1");
      const expired = await store().listExpiredLeases({ prefix: "runner:", now: T0 + TTL + 10 });
      expect(expired.map((lease) => lease.name)).toEqual(["runner:a", "runner:b"]);
      expect(await store().listExpiredLeases({ prefix: "runner_", now: T0 + TTL * 2 })).toEqual([]);
    });

    it("records the process its holder names (null when none); renewal keeps it, a new holder's replaces it", async () => {
      const box1 = { host: "box-1", pid: 4242 };
      const taken = await store().acquireLease({
        name: "runner:a",
        owner: "a",
        ttlMs: TTL,
        now: T0,
        process: box1,
      });
      expect(taken).toMatchObject({ ok: true, value: { process: box1 } });
      expect(await store().getLease("runner:a")).toMatchObject({ process: box1 });
      if (taken.ok) {
        expect(await store().renewLease({ ...taken.value, ttlMs: TTL, now: T0 + 1 })).toMatchObject({
          ok: true,
          value: { process: box1 },
        });
      }
      const box2 = { host: "box-2", pid: 7 };
      await store().acquireLease({
        name: "runner:a",
        owner: "b",
        ttlMs: TTL,
        now: T0 + 2 * TTL,
        process: box2,
      });
      expect(await store().getLease("runner:a")).toMatchObject({ owner: "b", process: box2 });
      expect((await acquired("c", T0, "runner:c")).process).toBeNull();
    });

    it("records the holder's instance and address; a renewal with an address announces it, one without keeps it", async () => {
      const taken = await store().acquireLease({
        name: "runner:a",
        owner: "a",
        ttlMs: TTL,
        now: T0,
        instance: "rpi_1",
      });
      expect(taken).toMatchObject({ ok: true, value: { instance: "rpi_1", address: null } });
      if (!taken.ok) {
        return;
      }
      const renew = (now: number, address?: string) =>
        store().renewLease({
          ...taken.value,
          ttlMs: TTL,
          now,
          ...(address === undefined ? {} : { address }),
        });
      expect(await renew(T0 + 1, "http://10.0.0.5:8080")).toMatchObject({
        ok: true,
        value: { instance: "rpi_1", address: "http://10.0.0.5:8080" },
      });
      expect(await renew(T0 + 2)).toMatchObject({ ok: true, value: { address: "http://10.0.0.5:8080" } });
      expect(await store().getLease("runner:a")).toMatchObject({
        instance: "rpi_1",
        address: "http://10.0.0.5:8080",
      });
      // A new holder says for itself how it is reached.
      await store().acquireLease({ name: "runner:a", owner: "b", ttlMs: TTL, now: T0 + 3 * TTL });
      expect(await store().getLease("runner:a")).toMatchObject({ owner: "b", instance: null, address: null });
    });

    it("lists the leases of a prefix, live and expired", async () => {
      await acquired("a", T0, "runner:a");
      await acquired("b", T0 + TTL, "runner:b");
      await acquired("x", T0, "poller_1");
      const listed = await store().listLeases({ prefix: "runner:" });
      expect(listed.map((lease) => lease.name).sort()).toEqual(["runner:a", "runner:b"]);
      expect(listed.find((lease) => lease.name === "runner:b")).toEqual(await store().getLease("runner:b"));
      expect(await store().listLeases({ prefix: "runner_" })).toEqual([]);
    });

    it("retires an expired lease once; its holder can no longer renew it", async () => {
      const lease = await acquired("relay-a", T0, "runner:a");
      const retire = (now: number, fencingToken = lease.fencingToken) =>
        store().retireLease({ name: "runner:a", fencingToken, now });
      expect(await retire(T0 + TTL - 1)).toBe(false);
      expect(await retire(T0 + TTL, lease.fencingToken + 1)).toBe(false);
      const tries = await Promise.all([retire(T0 + TTL), retire(T0 + TTL), retire(T0 + TTL)]);
      expect(tries.filter(Boolean)).toHaveLength(1);
      expect(await store().getLease("runner:a")).toBeNull();
      const renewed = await store().renewLease({
        name: "runner:a",
        owner: "relay-a",
        fencingToken: lease.fencingToken,
        ttlMs: TTL,
        now: T0 + TTL + 1,
      });
      expect(renewed.ok).toBe(false);
    });

    it("says whether a lease still has a token: expired or not, until it is taken over or retired", async () => {
      const holds = (fencingToken: number) => store().holdsLease({ name: "runner:a", fencingToken });
      expect(await holds(1)).toBe(false);
      const lease = await acquired("relay-a", T0, "runner:a");
      expect(await holds(lease.fencingToken)).toBe(true);
      expect(await holds(lease.fencingToken + 1)).toBe(false);
      const next = await acquired("relay-b", T0 + TTL, "runner:a");
      expect(await holds(lease.fencingToken)).toBe(false);
      expect(await holds(next.fencingToken)).toBe(true);
      const now = T0 + 2 * TTL;
      expect(await store().retireLease({ name: "runner:a", fencingToken: next.fencingToken, now })).toBe(
        true,
      );
      expect(await holds(next.fencingToken)).toBe(false);
    });

    it("gives a contended lease to exactly one owner", async () => {
      const owners = ["relay-a", "relay-b", "relay-c", "relay-d", "relay-e"];
      const results = await Promise.all(
        owners.map((owner) => store().acquireLease({ name: "poller", owner, ttlMs: TTL, now: T0 })),
      );
      const winners = results.filter((r) => r.ok);
      expect(winners).toHaveLength(1);
      const holder = await store().getLease("poller");
      for (const result of results) {
        expect(result.ok ? result.value : result.error.holder).toEqual(holder);
      }
    });
  });
}
