import {
  createMemoryCardStore,
  createMemoryLoopCounterStore,
  createMemoryUnlockStore,
  runCardStoreContract,
  runLoopCounterStoreContract,
  runUnlockStoreContract,
} from "../src/testing";

const fixture = <S>(store: S) => ({ store, cleanup: async () => {} });

runCardStoreContract(async () => fixture(createMemoryCardStore()));
runUnlockStoreContract(async () => fixture(createMemoryUnlockStore()));
runLoopCounterStoreContract(async () => fixture(createMemoryLoopCounterStore()));
