// One conversation: its badges and subscription chip, switches, schedules, messages with the
// relay's event lines and the agent's tool calls, and the owner's message box.

import { get, patch, post } from "./api.js";
import { sessionBadges } from "./conversations.js";
import { action, badge, clip, field, h, panel, show, time } from "./dom.js";

const at = (value) => (typeof value === "number" ? value : Date.parse(value));

/** R-UI-06: the chip lists the subscriptions, each with Unsubscribe. */
function subscriptionChip(session, app, error) {
  const subscriptions = session.subscriptions ?? [];
  if (session.watching === 0 && subscriptions.length === 0) {
    return null;
  }
  const what = (subscription) => {
    const where = subscription.relay ? ` on ${subscription.relay}` : "";
    if (subscription.scope === "all") {
      return `all sessions${where}`;
    }
    return `${subscription.sessions.map((s) => `“${s.title || s.id}”`).join(", ")}${where}`;
  };
  return panel(
    `chip:${session.id}`,
    { class: "chip" },
    h("summary", {}, `watching ${session.watching} session${session.watching === 1 ? "" : "s"}`),
    h(
      "ul",
      {},
      subscriptions.map((subscription) =>
        h(
          "li",
          { "data-subscription": subscription.id },
          h("span", {}, what(subscription)),
          subscription.events ? h("small", { class: "muted" }, " · ", subscription.events.join(", ")) : null,
          " ",
          h(
            "button",
            {
              type: "button",
              "aria-label": `Unsubscribe from ${what(subscription)}`,
              onclick: action(error, async () => {
                await post(`/subscriptions/${subscription.id}/unsubscribe`);
                app.refresh();
              }),
            },
            "Unsubscribe",
          ),
        ),
      ),
    ),
  );
}

function controls(session, app, error) {
  const id = session.id;
  const may = h("input", {
    type: "checkbox",
    checked: session.mayCreateSessions,
    onchange: action(error, async () => {
      await patch(`/sessions/${id}`, { mayCreateSessions: may.checked });
      app.refresh();
    }),
  });
  const mode = h(
    "select",
    {
      onchange: action(error, async () => {
        await patch(`/sessions/${id}`, { mode: mode.value });
        app.refresh();
      }),
    },
    ["agent", "ask", "plan"].map((m) => h("option", { value: m, selected: m === session.mode }, m)),
  );
  const archived = session.archivedAt !== null && session.archivedAt !== undefined;
  return h(
    "div",
    { class: "controls" },
    field("Mode", mode),
    h("label", { class: "check" }, may, " Agents in this conversation may start sessions"),
    archived
      ? null
      : h(
          "div",
          { class: "actions" },
          h(
            "button",
            {
              type: "button",
              onclick: action(error, async () => {
                if (confirm(`Compact “${session.title}” into a new conversation?`)) {
                  const next = await post(`/sessions/${id}/compact`);
                  location.hash = `#/conversations/${next.id}`;
                }
              }),
            },
            "Compact",
          ),
          h(
            "button",
            {
              type: "button",
              onclick: action(error, async () => {
                if (confirm(`Kill the agent of “${session.title}”? Its running turn ends.`)) {
                  await post(`/sessions/${id}/kill`);
                  app.refresh();
                }
              }),
            },
            "Kill",
          ),
          h(
            "button",
            {
              type: "button",
              class: "deny",
              onclick: action(error, async () => {
                if (confirm(`Archive “${session.title}”?`)) {
                  await post(`/sessions/${id}/archive`);
                  location.hash = "#/conversations";
                }
              }),
            },
            "Archive",
          ),
        ),
  );
}

function scheduleTiming(schedule) {
  const every = schedule.everyMinutes ? `every ${schedule.everyMinutes} min` : null;
  return schedule.once ? `once at ${new Date(schedule.at).toLocaleString()}` : every;
}

function schedules(session, app, error) {
  const list = session.schedules ?? [];
  if (list.length === 0) {
    return null;
  }
  return h(
    "section",
    { "aria-labelledby": "schedules" },
    h("h3", { id: "schedules", class: "section" }, "⏰ Schedules"),
    h(
      "ul",
      { class: "schedules" },
      list.map((schedule) =>
        h(
          "li",
          { "data-schedule": schedule.id },
          clip("strong", {}, schedule.title),
          " · ",
          scheduleTiming(schedule),
          schedule.session.id === session.id
            ? null
            : [" · in ", clip("span", {}, `“${schedule.session.title}”`)],
          schedule.setBy ? [" · set by ", clip("span", {}, `“${schedule.setBy.title}”`)] : null,
          schedule.heldForApproval ? [" ", badge("held: anti-loop", "deny")] : null,
          schedule.endReason
            ? [" ", badge(schedule.endReason, "muted")]
            : [
                schedule.nextFireAt ? [" · next ", time(schedule.nextFireAt)] : null,
                " ",
                h(
                  "button",
                  {
                    type: "button",
                    onclick: action(error, async () => {
                      await post(`/schedules/${schedule.id}/cancel`);
                      app.refresh();
                    }),
                  },
                  "Cancel",
                ),
              ],
        ),
      ),
    ),
  );
}

/** R-UI-05: `↗ from …` with the relay, the session and the model that sent the prompt. */
function fromBadge(provenance) {
  const model = provenance.model ? ` · ${provenance.model}` : "";
  return badge(`↗ from ${provenance.relay} · “${provenance.title}”${model}`, "from", { clipped: true });
}

function messageItem(message) {
  if (message.role === "relay") {
    // R-DLV-01: the relay's event messages are never the owner's: a compact line of their own,
    // its first event as the line and the whole message (header included) behind it.
    const lines = message.text.split("\n").filter((line) => line.trim() !== "");
    const events = lines.filter((line) => !/^\[relay [^\]]*automated message/.test(line));
    const headline = (events[0] ?? lines[0] ?? "").replace(/^\[relay event\]\s*/, "");
    return h(
      "li",
      { class: "event-line", "data-role": "relay" },
      lines.length <= 1
        ? h("span", {}, "⚡ ", headline)
        : panel(
            `event:${message.id}`,
            {},
            h(
              "summary",
              {},
              "⚡ relay event · ",
              headline,
              events.length > 1 ? ` (+${events.length - 1})` : "",
            ),
            h("pre", {}, message.text),
          ),
    );
  }
  const who =
    message.role === "user"
      ? message.provenance
        ? fromBadge(message.provenance)
        : badge("you", "you")
      : message.role === "assistant"
        ? badge("agent", "agent")
        : badge(message.role, "muted");
  return h(
    "li",
    { class: `message ${message.role}`, "data-role": message.role },
    h("div", { class: "meta" }, who, " ", time(message.createdAt)),
    h("pre", {}, message.text),
  );
}

/** R-UI-02: each call with 🛰️, the action, the relay and the session. */
function toolCallItem(call) {
  return h(
    "li",
    { class: `tool-call ${call.ok ? "ok" : "failed"}`, "data-role": "tool" },
    "🛰️ ",
    h("strong", {}, call.action),
    " · relay ",
    call.relay ?? "—",
    call.session ? [" · session ", call.session] : null,
    call.ok ? " ✓" : [" ✗ ", call.code ?? ""],
    call.summary ? h("small", { class: "muted" }, " ", call.summary) : null,
  );
}

function timeline(session) {
  const entries = [
    ...session.messages.map((message) => ({ at: at(message.createdAt), node: () => messageItem(message) })),
    ...(session.toolCalls ?? []).map((call) => ({ at: at(call.at), node: () => toolCallItem(call) })),
  ].sort((a, b) => a.at - b.at);
  return h(
    "ol",
    { class: "timeline", "aria-label": "Messages" },
    entries.map((entry) => entry.node()),
  );
}

function messageForm(session, app) {
  const text = h("textarea", { name: "text", rows: 3, required: true });
  const error = h("p", { class: "error", role: "alert" });
  return h(
    "form",
    {
      class: "stack message-form",
      onsubmit: async (event) => {
        event.preventDefault();
        if (text.value.trim() === "") {
          return;
        }
        error.textContent = "";
        try {
          await post(`/sessions/${session.id}/messages`, { text: text.value });
          text.value = "";
          app.refresh();
        } catch (failure) {
          error.textContent = `${failure.code}: ${failure.message}`;
        }
      },
    },
    field(
      "Message",
      text,
      "Mention a paired relay by its name (or @name) to unlock it in this conversation.",
    ),
    error,
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Send")),
  );
}

export async function renderConversation(root, app, id) {
  const session = await get(`/sessions/${encodeURIComponent(id)}`);
  const error = h("p", { class: "error", role: "alert" });
  const working = session.turns.some((turn) => turn.status === "running" || turn.status === "queued");
  show(
    root,
    h("p", {}, h("a", { href: "#/conversations" }, "← Conversations")),
    h("h2", {}, session.title),
    h(
      "p",
      { class: "badges" },
      // The chip below says `watching N sessions` (R-UI-06) with the subscriptions in it.
      sessionBadges({ ...session, watching: 0 }),
      " ",
      clip(
        "small",
        { class: "muted" },
        `${session.provider} · ${session.model}${session.cwd ? ` · ${session.cwd}` : ""}`,
      ),
    ),
    subscriptionChip(session, app, error),
    controls(session, app, error),
    error,
    schedules(session, app, error),
    (session.pendingQuestions ?? []).length > 0
      ? h(
          "p",
          { class: "notice" },
          "A question of this conversation waits in the ",
          h("a", { href: "#/inbox" }, "Inbox"),
          ".",
        )
      : null,
    timeline(session),
    working ? h("p", { class: "muted", role: "status" }, "The agent is working…") : null,
    session.archivedAt ? null : messageForm(session, app),
  );
  return session;
}
