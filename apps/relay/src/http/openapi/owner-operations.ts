import {
  OutboxEventSchema,
  OwnerCardAnswerBodySchema,
  OwnerCardsQuerySchema,
  OwnerCreateGroupBodySchema,
  OwnerCreatePeerBodySchema,
  OwnerCreateSessionBodySchema,
  OwnerInboxAnswerBodySchema,
  OwnerInboxQuerySchema,
  OwnerPatchPeerBodySchema,
  OwnerPatchSessionBodySchema,
  OwnerPeerSchema,
  OwnerPostMessageBodySchema,
  OwnerProvidersSchema,
  OwnerRenameGroupBodySchema,
  OwnerSessionDetailSchema,
  OwnerSettingsPatchSchema,
  OwnerSettingsSchema,
  OwnerUnsubscribeResultSchema,
  ScheduleEntrySchema,
  TokenResponseSchema,
} from "@oar/schema";
import { EventsQuerySchema } from "../routes/owner-events";
import { SessionListQuerySchema } from "../routes/owner-sessions";
import { input, type Operation, type OperationOn, ok, onSurface, output } from "./operation";
import {
  CardListSchema,
  CompactedSessionSchema,
  GroupListSchema,
  GroupSchema,
  InboxItemSchema,
  InboxListSchema,
  InviteListSchema,
  OkResponseSchema,
  OwnerCardSchema,
  PeerListSchema,
  PostedMessageSchema,
  SessionListSchema,
  SessionRecordSchema,
} from "./response-schemas";

const SESSION = { id: "The session's id." };
const DONE = output("Ok", OkResponseSchema);
const detail = output("OwnerSessionDetail", OwnerSessionDetailSchema);
const token = output("TokenResponse", TokenResponseSchema);
const settings = output("OwnerSettings", OwnerSettingsSchema);
const group = output("Group", GroupSchema);
const peer = output("OwnerPeer", OwnerPeerSchema);

const sessions: readonly OperationOn[] = [
  {
    operationId: "createSession",
    method: "post",
    path: "/v1/owner/sessions",
    summary: "Start a conversation; `text` becomes its first user message",
    body: { schema: input("OwnerCreateSessionBody", OwnerCreateSessionBodySchema), required: false },
    responses: [ok("The new session.", detail)],
  },
  {
    operationId: "listSessions",
    method: "get",
    path: "/v1/owner/sessions",
    summary: "The sessions, with their badges (`viaAgentBadge`, `watched`, `watching`)",
    query: SessionListQuerySchema,
    responses: [ok("The sessions in scope (default active).", output("SessionList", SessionListSchema))],
  },
  {
    operationId: "getSession",
    method: "get",
    path: "/v1/owner/sessions/{id}",
    pathParams: SESSION,
    summary: "One session: messages, turns, tasks, schedules, questions, subscriptions, tool calls",
    responses: [ok("The session.", detail)],
  },
  {
    operationId: "patchSession",
    method: "patch",
    path: "/v1/owner/sessions/{id}",
    pathParams: SESSION,
    summary: "Change a session's title, mode, model, effort, group, folder or mayCreateSessions",
    body: { schema: input("OwnerPatchSessionBody", OwnerPatchSessionBodySchema), required: true },
    responses: [ok("The session as changed.", detail)],
  },
  {
    operationId: "postMessage",
    method: "post",
    path: "/v1/owner/sessions/{id}/messages",
    pathParams: SESSION,
    summary: "A user message: starts a turn, unlocks the relays it mentions, resets the anti-loop count",
    body: { schema: input("OwnerPostMessageBody", OwnerPostMessageBodySchema), required: true },
    responses: [ok("The message and the turn it queued.", output("PostedMessage", PostedMessageSchema))],
  },
  {
    operationId: "issueAgentToken",
    method: "post",
    path: "/v1/owner/sessions/{id}/token",
    pathParams: SESSION,
    summary: "A new agent token of the session, shown this once",
    description: "How an external agent or a test acts as that session on /mcp and /v1/tool.",
    responses: [ok("The token.", token)],
  },
  {
    operationId: "archiveSession",
    method: "post",
    path: "/v1/owner/sessions/{id}/archive",
    pathParams: SESSION,
    summary: "Archive a session",
    responses: [ok("The session's record, archived.", output("SessionRecord", SessionRecordSchema))],
  },
  {
    operationId: "compactSession",
    method: "post",
    path: "/v1/owner/sessions/{id}/compact",
    pathParams: SESSION,
    summary: "Continue the session in a new conversation from a summary",
    description:
      "The old session is archived; its schedules, questions and subscriptions move to the new one.",
    responses: [ok("The new conversation.", output("CompactedSession", CompactedSessionSchema))],
  },
  {
    operationId: "killSession",
    method: "post",
    path: "/v1/owner/sessions/{id}/kill",
    pathParams: SESSION,
    summary: "Restart the session's worker",
    responses: [ok("Done.", DONE)],
  },
  {
    operationId: "deleteSession",
    method: "delete",
    path: "/v1/owner/sessions/{id}",
    pathParams: SESSION,
    summary: "Delete a session; its agent tokens die with it",
    responses: [ok("Done.", DONE)],
  },
];

const settingsAndGroups: readonly OperationOn[] = [
  {
    operationId: "getSettings",
    method: "get",
    path: "/v1/owner/settings",
    summary: "The relay's settings",
    responses: [ok("The settings, defaults filled in.", settings)],
  },
  {
    operationId: "patchSettings",
    method: "patch",
    path: "/v1/owner/settings",
    summary: "Change some settings; a provider entry set to null is removed",
    body: { schema: input("OwnerSettingsPatch", OwnerSettingsPatchSchema), required: true },
    responses: [ok("The settings as changed.", settings)],
  },
  {
    operationId: "listGroups",
    method: "get",
    path: "/v1/owner/groups",
    summary: "The session groups",
    responses: [ok("Every group, empty ones included.", output("GroupList", GroupListSchema))],
  },
  {
    operationId: "createGroup",
    method: "post",
    path: "/v1/owner/groups",
    summary: "A named group, optionally with its first sessions (the first is its head)",
    body: { schema: input("OwnerCreateGroupBody", OwnerCreateGroupBodySchema), required: true },
    responses: [ok("The group.", group)],
  },
  {
    operationId: "renameGroup",
    method: "patch",
    path: "/v1/owner/groups/{id}",
    pathParams: { id: "The group's id." },
    summary: "Rename a group",
    body: { schema: input("OwnerRenameGroupBody", OwnerRenameGroupBodySchema), required: true },
    responses: [ok("The group as renamed.", group)],
  },
  {
    operationId: "dissolveGroup",
    method: "delete",
    path: "/v1/owner/groups/{id}",
    pathParams: { id: "The group's id." },
    summary: "Dissolve a group; its sessions stay, out of any group",
    responses: [ok("Done.", DONE)],
  },
];

const cardsAndQuestions: readonly OperationOn[] = [
  {
    operationId: "listCards",
    method: "get",
    path: "/v1/owner/cards",
    summary: "Approval cards and blocking question cards",
    query: OwnerCardsQuerySchema,
    responses: [ok("The cards with that status (all without one).", output("CardList", CardListSchema))],
  },
  {
    operationId: "answerCard",
    method: "post",
    path: "/v1/owner/cards/{id}",
    pathParams: { id: "The card's id." },
    summary: "Allow or Deny an approval card, or answer a question card",
    body: { schema: input("OwnerCardAnswerBody", OwnerCardAnswerBodySchema), required: true },
    responses: [ok("The card as answered.", output("OwnerCard", OwnerCardSchema))],
  },
  {
    operationId: "listInbox",
    method: "get",
    path: "/v1/owner/inbox",
    summary: "Non-blocking questions, this relay's and those of paired relays it can read",
    query: OwnerInboxQuerySchema,
    responses: [
      ok(
        "The pending questions (`closed=true`: and those closed in the last day).",
        output("InboxList", InboxListSchema),
      ),
    ],
  },
  {
    operationId: "answerInbox",
    method: "post",
    path: "/v1/owner/inbox/{id}",
    pathParams: { id: "The question's id." },
    summary: "Answer, pick an option of, or dismiss a non-blocking question",
    body: { schema: input("OwnerInboxAnswerBody", OwnerInboxAnswerBodySchema), required: true },
    responses: [ok("The question as answered.", output("InboxItem", InboxItemSchema))],
  },
  {
    operationId: "cancelSchedule",
    method: "post",
    path: "/v1/owner/schedules/{id}/cancel",
    pathParams: { id: "The schedule's id." },
    summary: "End a schedule as `unscheduled`",
    responses: [ok("The schedule's listing entry after.", output("ScheduleEntry", ScheduleEntrySchema))],
  },
  {
    operationId: "unsubscribe",
    method: "post",
    path: "/v1/owner/subscriptions/{id}/unsubscribe",
    pathParams: { id: "The subscription's id." },
    summary: "End a subscription as `unsubscribed`",
    responses: [
      ok(
        "The ids it ended; none, with a note, when it had ended already.",
        output("OwnerUnsubscribeResult", OwnerUnsubscribeResultSchema),
      ),
    ],
  },
  {
    operationId: "listProviders",
    method: "get",
    path: "/v1/owner/providers",
    summary: "The providers a new conversation may use, as relay_info lists them",
    responses: [ok("The providers.", output("OwnerProviders", OwnerProvidersSchema))],
  },
];

const pairing: readonly OperationOn[] = [
  {
    operationId: "issueInvite",
    method: "post",
    path: "/v1/owner/peers/invites",
    summary: "A new invite: the token another relay calls this one with, shown this once",
    responses: [ok("The invite's token.", token)],
  },
  {
    operationId: "listInvites",
    method: "get",
    path: "/v1/owner/peers/invites",
    summary: "The invites, by the relay each one belongs to (never the token again)",
    responses: [ok("The invites.", output("InviteList", InviteListSchema))],
  },
  {
    operationId: "revokeInvite",
    method: "delete",
    path: "/v1/owner/peers/invites/{id}",
    pathParams: { id: "The invite's id." },
    summary: "Revoke an invite",
    responses: [ok("Done.", DONE)],
  },
  {
    operationId: "createPeer",
    method: "post",
    path: "/v1/owner/peers",
    summary: "Pair with another relay, with a token that relay issued",
    body: { schema: input("OwnerCreatePeerBody", OwnerCreatePeerBodySchema), required: true },
    responses: [ok("The pairing (offline when the relay did not answer).", peer)],
  },
  {
    operationId: "listPeers",
    method: "get",
    path: "/v1/owner/peers",
    summary: "The pairings",
    responses: [ok("The paired relays, never their tokens.", output("PeerList", PeerListSchema))],
  },
  {
    operationId: "patchPeer",
    method: "patch",
    path: "/v1/owner/peers/{name}",
    pathParams: { name: "The paired relay's name." },
    summary: "Change a pairing's address, token or level",
    body: { schema: input("OwnerPatchPeerBody", OwnerPatchPeerBodySchema), required: true },
    responses: [ok("The pairing as changed.", peer)],
  },
  {
    operationId: "removePeer",
    method: "delete",
    path: "/v1/owner/peers/{name}",
    pathParams: { name: "The paired relay's name." },
    summary: "Remove a pairing",
    responses: [ok("Done.", DONE)],
  },
];

const events: OperationOn = {
  operationId: "ownerEvents",
  method: "get",
  path: "/v1/owner/events",
  summary: "The outbox as server-sent events",
  description:
    "Each event: `id:` the outbox row's seq, `event:` its kind, `data:` its JSON (one line; schema in `x-event-data-schema`). `Last-Event-ID` (or `?after=`) resumes after that id with no gap and no repeat; `?from=start` replays the whole outbox; with neither the stream starts at the current end. A keep-alive comment comes every 25 s.",
  query: EventsQuerySchema,
  headerParams: [
    {
      name: "Last-Event-ID",
      description: "The id of the last event received; wins over `?after=`.",
    },
  ],
  responses: [
    {
      status: 200,
      description: "The stream; it stays open until the client or the relay closes it.",
      bodies: [
        {
          mediaType: "text/event-stream",
          schema: { kind: "inline", json: { type: "string" } },
          extensions: { "x-event-data-schema": { $ref: "#/components/schemas/OutboxEvent" } },
        },
      ],
    },
  ],
};

/** The owner surface (DESIGN §4), prefix /v1/owner, bearer = the owner token. */
export const ownerOperations: readonly Operation[] = onSurface({ tag: "owner", auth: "owner" }, [
  ...sessions,
  ...settingsAndGroups,
  ...cardsAndQuestions,
  ...pairing,
  events,
]);

/** Components the owner surface references by name: the event of the stream's `x-event-data-schema`. */
export const ownerComponents = { OutboxEvent: OutboxEventSchema } as const;
