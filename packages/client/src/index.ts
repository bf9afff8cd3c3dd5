export { MAX_RESPONSE_BYTES } from "./exchange";
export {
  createPeerClient,
  DEFAULT_EVENTS_TIMEOUT_MS,
  DEFAULT_INFO_TIMEOUT_MS,
  type PeerClient,
  type PeerClientOptions,
} from "./peer-client";
