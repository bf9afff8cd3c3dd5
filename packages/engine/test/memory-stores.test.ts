import {
  createMemoryEngineStores,
  createMemoryLeaseStore,
  createMemoryPeerStore,
  createMemoryQuestionStore,
  createMemoryScheduleStore,
  createMemorySessionStores,
  createMemorySettingsStore,
  createMemoryTaskStore,
  createMemoryTokenStore,
  createMemoryToolCallStore,
  runAtomicChangesContract,
  runGroupStoreContract,
  runLeaseStoreContract,
  runPeerStoreContract,
  runQuestionStoreContract,
  runRetentionStoreContract,
  runScheduleStoreContract,
  runSessionReadStoreContract,
  runSessionStoreContract,
  runSettingsStoreContract,
  runTaskStoreContract,
  runTokenStoreContract,
  runToolCallStoreContract,
} from "../src/testing";

const cleanup = async () => {};

runSessionStoreContract(async () => ({ store: createMemorySessionStores().sessions, cleanup }));
runGroupStoreContract(async () => {
  const { sessions, groups } = createMemorySessionStores();
  return { store: groups, sessions, cleanup };
});
runSettingsStoreContract(async () => ({ store: createMemorySettingsStore(), cleanup }));
runTokenStoreContract(async () => ({ store: createMemoryTokenStore(), cleanup }));
runLeaseStoreContract(async () => ({ store: createMemoryLeaseStore(), cleanup }));
runPeerStoreContract(async () => ({ store: createMemoryPeerStore(), cleanup }));
runQuestionStoreContract(async () => ({
  store: createMemoryQuestionStore(),
  sessions: createMemorySessionStores().sessions,
  cleanup,
}));
runAtomicChangesContract(async () => ({ store: createMemoryEngineStores(), cleanup }));
runRetentionStoreContract(async () => ({ store: createMemoryEngineStores(), cleanup }));
runTaskStoreContract(async () => ({
  store: createMemoryTaskStore(),
  sessions: createMemorySessionStores().sessions,
  cleanup,
}));
runScheduleStoreContract(async () => ({
  store: createMemoryScheduleStore(),
  sessions: createMemorySessionStores().sessions,
  cleanup,
}));
runToolCallStoreContract(async () => {
  const { sessions, isLive } = createMemorySessionStores();
  return {
    store: createMemoryToolCallStore(isLive),
    sessions,
    cleanup,
  };
});
runSessionReadStoreContract(async () => ({ store: createMemoryEngineStores(), cleanup }));
