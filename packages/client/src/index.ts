export { MAX_RESPONSE_BYTES } from "./exchange";
export {
  createPeerClient,
  DEFAULT_INFO_TIMEOUT_MS,
  type PeerClient,
  type PeerClientOptions,
} from "./peer-client";
