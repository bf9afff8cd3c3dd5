export { newMessage, newSession, newTurn } from "./fixtures";
export { type GroupStoreFixture, runGroupStoreContract } from "./group-store-contract";
export { runLeaseStoreContract } from "./lease-store-contract";
export { createMemorySessionStores } from "./memory-session-stores";
export { createMemoryLeaseStore, createMemorySettingsStore, createMemoryTokenStore } from "./memory-stores";
export { runSessionStoreContract } from "./session-store-contract";
export { runSettingsStoreContract } from "./settings-store-contract";
export { runTokenStoreContract } from "./token-store-contract";
