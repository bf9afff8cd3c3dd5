import type { Action } from "@oar/schema";
import { refuse } from "./refusal";

/** Actions of later issues (tasks, questions, subscriptions, schedules): refused honestly until they land. */
export function unsupported(action: Action): never {
  return refuse("REMOTE_RELAY_UNSUPPORTED", `${action} is not available on this relay yet.`);
}
