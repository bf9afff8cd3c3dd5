export { runAtomicChangesContract } from "./atomic-changes-contract";
export { type EventStoreFixture, newOutboxEvent, runEventStoreContract } from "./event-store-contract";
export {
  InjectedStoreFailure,
  type ReplacedCall,
  type StoreMethod,
  withFailingMethod,
  withReplacedMethod,
} from "./failing-stores";
export { newMessage, newSession, newTask, newTurn } from "./fixtures";
export { type GroupStoreFixture, runGroupStoreContract } from "./group-store-contract";
export { runLeaseStoreContract } from "./lease-store-contract";
export { createMemoryEngineStores } from "./memory-engine-stores";
export { createMemoryEventStore } from "./memory-event-store";
export { createMemoryPeerStore } from "./memory-peer-store";
export { createMemoryQuestionStore } from "./memory-question-store";
export { createMemoryScheduleStore } from "./memory-schedule-store";
export { createMemorySessionReadStore } from "./memory-session-read-store";
export { createMemorySessionStores } from "./memory-session-stores";
export { createMemoryLeaseStore, createMemorySettingsStore, createMemoryTokenStore } from "./memory-stores";
export { createMemoryTaskStore } from "./memory-task-store";
export { createMemoryToolCallStore } from "./memory-tool-call-store";
export { runPeerStoreContract } from "./peer-store-contract";
export { type QuestionStoreFixture, runQuestionStoreContract } from "./question-store-contract";
export {
  createRecordingTurnIO,
  type RecordingTurnIO,
  type RecordingTurnIOOptions,
} from "./recording-turn-io";
export { type RetentionStoreFixture, runRetentionStoreContract } from "./retention-store-contract";
export { runScheduleStoreContract, type ScheduleStoreFixture } from "./schedule-store-contract";
export { runSessionReadStoreContract } from "./session-read-store-contract";
export { runSessionStoreContract } from "./session-store-contract";
export { runSettingsStoreContract } from "./settings-store-contract";
export { settleBetweenTimers, settleStoreCalls, trackStoreCalls } from "./store-calls";
export { runTaskStoreContract, type TaskStoreFixture } from "./task-store-contract";
export {
  createTestProvider,
  type TestProvider,
  type TestProviderOptions,
  type TestTurn,
  type TestTurnScript,
} from "./test-provider";
export { openTestStores, type TestStoresSource, testStoresKind, useTestStores } from "./test-stores";
export { runTokenStoreContract } from "./token-store-contract";
export { runToolCallStoreContract, type ToolCallStoreFixture } from "./tool-call-store-contract";
