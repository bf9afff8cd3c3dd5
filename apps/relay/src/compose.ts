import { type Clock, createIdGenerator, type IdGenerator, systemClock } from "@oar/core";
import { openStorage, type Storage } from "@oar/storage";
import type { Hono } from "hono";
import { type RelayConfig, storageTarget } from "./config";
import { newApp } from "./http/app";
import { resolveOwnerToken } from "./owner-token";
import { RELAY_VERSION } from "./version";

export interface RelayServices {
  readonly config: RelayConfig;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly storage: Storage;
  readonly ownerToken: string;
  readonly ownerTokenSource: "env" | "file" | "generated";
}

export interface Relay {
  readonly app: Hono;
  readonly services: RelayServices;
  close(): Promise<void>;
}

export interface RelayOverrides {
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
}

/** The composition root: the one place that wires config, storage and the HTTP surface. */
export async function createRelay(config: RelayConfig, overrides: RelayOverrides = {}): Promise<Relay> {
  const owner = await resolveOwnerToken({ configured: config.ownerToken, dataDir: config.dataDir });
  const storage = await openStorage(storageTarget(config));
  const services: RelayServices = {
    config,
    clock: overrides.clock ?? systemClock,
    ids: overrides.ids ?? createIdGenerator(),
    storage,
    ownerToken: owner.token,
    ownerTokenSource: owner.source,
  };
  const app = newApp({ name: config.name, version: RELAY_VERSION });
  return { app, services, close: () => storage.close() };
}
