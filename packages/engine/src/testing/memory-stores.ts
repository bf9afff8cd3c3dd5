import { err, ok } from "@oar/core";
import { refusingLikePostgres, type Snapshotting, snapshotOf } from "@oar/core/testing";
import type { JsonValue } from "../ports/json";
import type { Lease, LeaseStore } from "../ports/lease-store";
import type { SettingsStore } from "../ports/settings-store";
import type { TokenRecord, TokenStore } from "../ports/token-store";

export function createMemorySettingsStore(): SettingsStore & Snapshotting {
  const values = new Map<string, JsonValue>();
  return refusingLikePostgres("SettingsStore", {
    snapshot: () => snapshotOf(values),
    async getSetting(key) {
      return values.has(key) ? values.get(key) : undefined;
    },
    async setSetting(key, value) {
      values.set(key, structuredClone(value));
    },
    async listSettings() {
      return Object.fromEntries(values);
    },
    async deleteSetting(key) {
      return values.delete(key);
    },
  });
}

export function createMemoryTokenStore(): TokenStore & Snapshotting {
  const tokens = new Map<string, TokenRecord>();
  const live = () => [...tokens.values()].filter((t) => t.revokedAt === null);
  return refusingLikePostgres("TokenStore", {
    snapshot: () => snapshotOf(tokens),
    async storeToken(input) {
      if ([...tokens.values()].some((t) => t.hash === input.hash)) {
        throw new Error("A token with this hash is already stored.");
      }
      const record: TokenRecord = { ...input, label: input.label ?? null, revokedAt: null };
      tokens.set(record.id, record);
      return record;
    },
    async findTokenByHash(hash) {
      return live().find((t) => t.hash === hash) ?? null;
    },
    async revokeToken({ id, at }) {
      const token = tokens.get(id);
      if (!token || token.revokedAt !== null) {
        return false;
      }
      tokens.set(id, { ...token, revokedAt: at });
      return true;
    },
    async revokeTokensOf({ kind, subject, at }) {
      const revoked = live().filter((t) => t.kind === kind && t.subject === subject);
      for (const token of revoked) {
        tokens.set(token.id, { ...token, revokedAt: at });
      }
      return revoked.length;
    },
    async bindToken({ id, label }) {
      const token = tokens.get(id);
      if (!token || token.revokedAt !== null) {
        return false;
      }
      if (token.label === null) {
        tokens.set(id, { ...token, label });
        return true;
      }
      return token.label === label;
    },
    async listTokens({ kind, subject } = {}) {
      return live()
        .filter(
          (t) => (kind === undefined || t.kind === kind) && (subject === undefined || t.subject === subject),
        )
        .sort((a, b) => a.createdAt - b.createdAt);
    },
  });
}

export function createMemoryLeaseStore(): LeaseStore & Snapshotting {
  const leases = new Map<string, Lease>();
  return refusingLikePostgres("LeaseStore", {
    snapshot: () => snapshotOf(leases),
    async acquireLease({ name, owner, ttlMs, now, process }) {
      const current = leases.get(name);
      const live = current !== undefined && current.expiresAt > now;
      if (live && current.owner !== owner) {
        return err({ holder: current });
      }
      const fencingToken = live ? current.fencingToken : (current?.fencingToken ?? 0) + 1;
      const lease: Lease = { name, owner, fencingToken, expiresAt: now + ttlMs, process: process ?? null };
      leases.set(name, lease);
      return ok(lease);
    },
    async renewLease({ name, owner, fencingToken, ttlMs, now }) {
      const current = leases.get(name);
      if (!current || current.owner !== owner || current.fencingToken !== fencingToken) {
        return err({ holder: current ?? null });
      }
      const lease: Lease = { ...current, expiresAt: now + ttlMs };
      leases.set(name, lease);
      return ok(lease);
    },
    async releaseLease({ name, owner, fencingToken, now }) {
      const current = leases.get(name);
      if (!current || current.owner !== owner || current.fencingToken !== fencingToken) {
        return false;
      }
      // The lease is kept, expired, so that the next holder's token is still higher.
      leases.set(name, { ...current, expiresAt: Math.min(current.expiresAt, now) });
      return true;
    },
    async getLease(name) {
      return leases.get(name) ?? null;
    },
    async listLeases({ prefix }) {
      return [...leases.values()].filter((lease) => lease.name.startsWith(prefix));
    },
    async listExpiredLeases({ prefix, now }) {
      return [...leases.values()]
        .filter((lease) => lease.name.startsWith(prefix) && lease.expiresAt <= now)
        .sort((a, b) => a.expiresAt - b.expiresAt);
    },
    async retireLease({ name, fencingToken, now }) {
      const current = leases.get(name);
      if (!current || current.fencingToken !== fencingToken || current.expiresAt > now) {
        return false;
      }
      return leases.delete(name);
    },
  });
}
