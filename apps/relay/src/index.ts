export { createRelay, type Relay, type RelayOverrides, type RelayServices } from "./compose";
export { loadConfig, type RelayConfig, RelayConfigSchema, type StorageTarget, storageTarget } from "./config";
export { type AppInfo, newApp } from "./http/app";
export { RELAY_VERSION } from "./version";
