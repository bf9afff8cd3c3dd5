export { checkPeerUrl, isLoopbackOrPrivateHost } from "./peer-url";
