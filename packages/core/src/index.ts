export { type Clock, type TimerId, systemClock, sleep, toIso } from "./clock";
export { ID_PREFIXES, type IdKind, type IdPrefix, type IdGenerator, createIdGenerator, idPrefixOf } from "./ids";
export { type Result, ok, err, wrap } from "./result";
export {
  RelayError,
  type RelayErrorCode,
  type RelayErrorOptions,
  type LocalErrorCode,
  LOCAL_ERROR_CODES,
  isRelayError,
} from "./errors";
export { type Logger, type LogFields, silentLogger } from "./logger";
