export { createRelay, type Relay, type RelayServices, type RelayOverrides } from "./compose";
export { loadConfig, storageTarget, RelayConfigSchema, type RelayConfig, type StorageTarget } from "./config";
export { newApp, type AppInfo } from "./http/app";
export { RELAY_VERSION } from "./version";
