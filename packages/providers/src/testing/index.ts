export {
  error,
  FAKE_INPUT_TOKENS,
  FAKE_OUTPUT_TOKENS,
  hang,
  type ScriptedReply,
  text,
  toolUse,
} from "./anthropic-replies";
export {
  type FakeAnthropic,
  type RecordedRequest,
  startFakeAnthropic,
  UNSCRIPTED_REPLY,
} from "./fake-anthropic";
