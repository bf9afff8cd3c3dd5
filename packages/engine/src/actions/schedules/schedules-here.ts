import type { Action } from "@oar/schema";
import type { ActionContext } from "../context";
import { refuse } from "../refusal";

export const SCHEDULE_ACTIONS: ReadonlySet<Action> = new Set(["schedule", "list_schedules", "unschedule"]);

/**
 * R-SCH-03: schedules are kept by the relay the agent runs on. A call naming a paired relay, or
 * arriving from one, is refused with REMOTE_RELAY_UNSUPPORTED.
 */
export function refuseScheduleElsewhere(ctx: ActionContext, action: Action, otherRelay: string | null): void {
  if (otherRelay === null) {
    return;
  }
  const here = ctx.deps.relay.name;
  const text =
    ctx.from.relay === null
      ? `Schedules are kept by the relay on which the agent runs (R-SCH-03): ${action} cannot name paired relay "${otherRelay}". Call it without relay (or with "this") to keep the schedule on relay "${here}"; its session must be one of relay "${here}".`
      : `Schedules are kept by the relay on which the agent runs (R-SCH-03): ${action} from relay "${otherRelay}" is not taken on relay "${here}". Schedule on your own relay.`;
  refuse("REMOTE_RELAY_UNSUPPORTED", text);
}
