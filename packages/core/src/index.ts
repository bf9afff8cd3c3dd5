export { type Clock, sleep, systemClock, type TimerId, toIso } from "./clock";
export { groupBy } from "./collections";
export {
  isRelayError,
  LOCAL_ERROR_CODES,
  type LocalErrorCode,
  RelayError,
  type RelayErrorCode,
  type RelayErrorOptions,
  wireExtraOf,
} from "./errors";
export {
  createIdGenerator,
  ID_PREFIXES,
  type IdGenerator,
  type IdKind,
  type IdPrefix,
  idPrefixOf,
} from "./ids";
export { lazyProperties, lazyPrototypeProperties, overriding } from "./lazy-properties";
export { type LogFields, type Logger, silentLogger } from "./logger";
export { err, ok, type Result, wrap } from "./result";
export { createTtlCache, type TtlCache } from "./ttl-cache";
