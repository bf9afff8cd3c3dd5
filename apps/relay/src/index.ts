export { createRelay, type Relay, type RelayOverrides, type RelayServices } from "./compose";
export { loadConfig, type RelayConfig, RelayConfigSchema, type StorageTarget, storageTarget } from "./config";
export { type AppInfo, type AppSurfaces, newApp } from "./http/app";
export { codeToStatus } from "./http/errors";
export { RELAY_VERSION } from "./version";
