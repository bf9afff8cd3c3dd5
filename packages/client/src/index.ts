export {
  createPeerClient,
  DEFAULT_INFO_TIMEOUT_MS,
  type PeerClient,
  type PeerClientOptions,
} from "./peer-client";
export { checkPeerUrl, isLoopbackOrPrivateHost } from "./peer-url";
