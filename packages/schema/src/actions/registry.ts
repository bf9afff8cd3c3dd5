import { z } from "zod";
import type { Action } from "./action-names";
import { AnswerQuestionArgsSchema, AnswerQuestionResultSchema } from "./answer-question";
import { ArchiveArgsSchema, ArchiveResultSchema } from "./archive";
import { AskArgsSchema, AskResultSchema } from "./ask";
import { CreateSessionArgsSchema, CreateSessionResultSchema } from "./create-session";
import { ListQuestionsArgsSchema, ListQuestionsResultSchema } from "./list-questions";
import { ListRelaysArgsSchema, ListRelaysResultSchema } from "./list-relays";
import { ListSchedulesArgsSchema, ListSchedulesResultSchema } from "./list-schedules";
import { ListSessionsArgsSchema, ListSessionsResultSchema } from "./list-sessions";
import { ListSubscriptionsArgsSchema, ListSubscriptionsResultSchema } from "./list-subscriptions";
import { ReadSessionArgsSchema, ReadSessionResultSchema } from "./read-session";
import { ReadTaskOutputArgsSchema, ReadTaskOutputResultSchema } from "./read-task-output";
import { RelayInfoArgsSchema, RelayInfoResultSchema } from "./relay-info";
import { ScheduleArgsSchema, ScheduleResultSchema } from "./schedule";
import { SendArgsSchema, SendResultSchema } from "./send";
import { StopArgsSchema, StopResultSchema } from "./stop";
import { SubscribeArgsSchema, SubscribeResultSchema } from "./subscribe";
import { TransferSubscriptionsArgsSchema, TransferSubscriptionsResultSchema } from "./transfer-subscriptions";
import { UnscheduleArgsSchema, UnscheduleResultSchema } from "./unschedule";
import { UnsubscribeArgsSchema, UnsubscribeResultSchema } from "./unsubscribe";
import { UpdateSessionArgsSchema, UpdateSessionResultSchema } from "./update-session";
import { UsageArgsSchema, UsageResultSchema } from "./usage";
import { WaitArgsSchema, WaitResultSchema } from "./wait";
import { WithdrawArgsSchema, WithdrawResultSchema } from "./withdraw";

/** Each action's argument schema, keyed by action name. */
export const actionArgsSchemas = {
  list_relays: ListRelaysArgsSchema,
  relay_info: RelayInfoArgsSchema,
  usage: UsageArgsSchema,
  list_sessions: ListSessionsArgsSchema,
  read_session: ReadSessionArgsSchema,
  read_task_output: ReadTaskOutputArgsSchema,
  send: SendArgsSchema,
  create_session: CreateSessionArgsSchema,
  update_session: UpdateSessionArgsSchema,
  wait: WaitArgsSchema,
  answer_question: AnswerQuestionArgsSchema,
  stop: StopArgsSchema,
  archive: ArchiveArgsSchema,
  subscribe: SubscribeArgsSchema,
  unsubscribe: UnsubscribeArgsSchema,
  list_subscriptions: ListSubscriptionsArgsSchema,
  transfer_subscriptions: TransferSubscriptionsArgsSchema,
  schedule: ScheduleArgsSchema,
  list_schedules: ListSchedulesArgsSchema,
  unschedule: UnscheduleArgsSchema,
  ask: AskArgsSchema,
  list_questions: ListQuestionsArgsSchema,
  withdraw: WithdrawArgsSchema,
} as const satisfies Record<Action, z.ZodObject>;

/** Each action's success result schema, keyed by action name. */
export const actionResultSchemas = {
  list_relays: ListRelaysResultSchema,
  relay_info: RelayInfoResultSchema,
  usage: UsageResultSchema,
  list_sessions: ListSessionsResultSchema,
  read_session: ReadSessionResultSchema,
  read_task_output: ReadTaskOutputResultSchema,
  send: SendResultSchema,
  create_session: CreateSessionResultSchema,
  update_session: UpdateSessionResultSchema,
  wait: WaitResultSchema,
  answer_question: AnswerQuestionResultSchema,
  stop: StopResultSchema,
  archive: ArchiveResultSchema,
  subscribe: SubscribeResultSchema,
  unsubscribe: UnsubscribeResultSchema,
  list_subscriptions: ListSubscriptionsResultSchema,
  transfer_subscriptions: TransferSubscriptionsResultSchema,
  schedule: ScheduleResultSchema,
  list_schedules: ListSchedulesResultSchema,
  unschedule: UnscheduleResultSchema,
  ask: AskResultSchema,
  list_questions: ListQuestionsResultSchema,
  withdraw: WithdrawResultSchema,
} as const satisfies Record<Action, z.ZodObject>;

/** A parsed relay_tool call: one of the 23 argument objects, discriminated on `action`. */
export const RelayToolCallSchema = z.discriminatedUnion("action", [
  ListRelaysArgsSchema,
  RelayInfoArgsSchema,
  UsageArgsSchema,
  ListSessionsArgsSchema,
  ReadSessionArgsSchema,
  ReadTaskOutputArgsSchema,
  SendArgsSchema,
  CreateSessionArgsSchema,
  UpdateSessionArgsSchema,
  WaitArgsSchema,
  AnswerQuestionArgsSchema,
  StopArgsSchema,
  ArchiveArgsSchema,
  SubscribeArgsSchema,
  UnsubscribeArgsSchema,
  ListSubscriptionsArgsSchema,
  TransferSubscriptionsArgsSchema,
  ScheduleArgsSchema,
  ListSchedulesArgsSchema,
  UnscheduleArgsSchema,
  AskArgsSchema,
  ListQuestionsArgsSchema,
  WithdrawArgsSchema,
]);
/** A call after parsing: defaults applied. */
export type RelayToolCall = z.output<typeof RelayToolCallSchema>;
/** A call as an agent may write it: defaulted arguments optional. */
export type RelayToolCallInput = z.input<typeof RelayToolCallSchema>;
/** The parsed call of one action. */
export type CallOf<A extends Action> = Extract<RelayToolCall, { action: A }>;

/** The arguments an action takes, in its schema's order (without `action`). */
export function actionArgumentNames(action: Action): readonly string[] {
  const schema: z.ZodObject = actionArgsSchemas[action];
  return Object.keys(schema.shape).filter((key) => key !== "action");
}
