// Settings → Relays: this relay's switches, its command providers and ACP agents, its pairings and invites.

import { del, get, patch, post } from "./api.js";
import { action, badge, field, h, show, time } from "./dom.js";

const LEVELS = [
  ["none", "Nothing"],
  ["read", "Read"],
  ["prompt", "Read and prompt"],
  ["full", "Full"],
];

function failureText(failure) {
  return `${failure.code}: ${failure.message}`;
}

/**
 * A form whose submit runs `save`; its error is said under it, its success in the toast once the
 * view shows it. `redraw: false` keeps the form as the owner left it (it shows what was saved).
 */
function savingForm(app, label, children, save, { redraw = true } = {}) {
  const error = h("p", { class: "error", role: "alert" });
  return h(
    "form",
    {
      class: "stack",
      onsubmit: async (event) => {
        event.preventDefault();
        error.textContent = "";
        try {
          await save();
          if (redraw) {
            await app.refresh();
          }
          app.toast(`${label}: saved.`);
        } catch (failure) {
          error.textContent = failureText(failure);
        }
      },
    },
    children,
    error,
    h("div", { class: "actions" }, h("button", { type: "submit" }, label)),
  );
}

function agentSessions(settings, app) {
  const enabled = h("input", { type: "checkbox", checked: settings.agentSessions.enabled });
  const wait = h("input", {
    type: "number",
    min: 120,
    max: 3600,
    step: 1,
    value: settings.agentSessions.longestWaitSeconds,
  });
  const accept = h("input", { type: "checkbox", checked: settings.acceptPromptsFromOtherRelays });
  return h(
    "section",
    { class: "panel", "aria-labelledby": "agent-sessions" },
    h("h3", { id: "agent-sessions" }, "Agent sessions"),
    savingForm(
      app,
      "Save",
      [
        h("label", { class: "check" }, enabled, " Agents may start and use sessions on this relay"),
        field("Longest wait (seconds)", wait, "120 to 3600: how long a call may wait for a reply or a card."),
        h("label", { class: "check" }, accept, " Accept prompts from other relays' agents"),
      ],
      () =>
        patch("/settings", {
          agentSessions: { enabled: enabled.checked, longestWaitSeconds: Number(wait.value) },
          acceptPromptsFromOtherRelays: accept.checked,
        }),
      { redraw: false },
    ),
    h("h4", {}, "Allowed folders"),
    h(
      "ul",
      {},
      (settings.allowedRoots ?? []).map((root, index) =>
        h("li", {}, h("code", {}, root), index === 0 ? " (default for new sessions)" : null),
      ),
    ),
    h("p", { class: "muted" }, "Set by RELAY_ALLOWED_ROOTS when the relay starts."),
  );
}

/** The argv of a provider entry: `command` for a command CLI, `acp` for an ACP agent. */
const argvOf = (entry) => (Array.isArray(entry.command) ? entry.command : entry.acp);

function providers(settings, app) {
  const entries = Object.entries(settings.providers ?? {});
  const defined = entries.filter(([, entry]) => Array.isArray(argvOf(entry)));
  const error = h("p", { class: "error", role: "alert" });
  const id = h("input", { name: "provider-id", autocomplete: "off", required: true });
  const kind = h(
    "select",
    { name: "provider-kind" },
    h("option", { value: "command" }, "Command (prompt on stdin, reply on stdout)"),
    h("option", { value: "acp" }, "ACP agent (Agent Client Protocol on stdio)"),
  );
  const command = h("input", { name: "command", autocomplete: "off", required: true });
  const models = h("input", { name: "models", autocomplete: "off" });
  const timeout = h("input", { name: "timeout", type: "number", min: 1, max: 86400 });
  return h(
    "section",
    { class: "panel", "aria-labelledby": "providers" },
    h("h3", { id: "providers" }, "Providers (command CLIs and ACP agents)"),
    defined.length === 0
      ? h("p", { class: "muted" }, "No provider defined yet.")
      : h(
          "ul",
          {},
          defined.map(([name, entry]) =>
            h(
              "li",
              {},
              h("strong", {}, name),
              Array.isArray(entry.acp) ? " (ACP) " : " ",
              h("code", {}, JSON.stringify(argvOf(entry))),
              entry.models === undefined
                ? " · models from the agent"
                : ` · models ${entry.models.join(", ")}`,
              " ",
              h(
                "button",
                {
                  type: "button",
                  onclick: action(error, async () => {
                    await patch("/settings", { providers: { [name]: null } });
                    app.refresh();
                  }),
                },
                "Remove",
              ),
            ),
          ),
        ),
    error,
    savingForm(
      app,
      "Add provider",
      [
        h(
          "div",
          { class: "grid" },
          field("Id", id),
          field("Kind", kind),
          field("Models", models, "Comma-separated; an ACP agent may leave it empty to offer its own."),
          field("Timeout (s)", timeout),
        ),
        field(
          "Command",
          command,
          'A JSON array, e.g. ["my-agent", "--model", "{model}"]; a command gets the prompt on stdin, an ACP agent speaks ACP on its stdio.',
        ),
      ],
      () => {
        let argv;
        try {
          argv = JSON.parse(command.value);
        } catch {
          argv = command.value.trim().split(/\s+/);
        }
        const listed = models.value
          .split(",")
          .map((m) => m.trim())
          .filter((m) => m !== "");
        const entry =
          kind.value === "acp"
            ? { acp: argv, ...(listed.length === 0 ? {} : { models: listed }) }
            : { command: argv, models: listed };
        if (timeout.value !== "") {
          entry.timeoutSeconds = Number(timeout.value);
        }
        return patch("/settings", { providers: { [id.value.trim()]: entry } });
      },
    ),
  );
}

function peerRow(peer, app, error) {
  const level = h(
    "select",
    {
      "aria-label": `Agents may, on ${peer.name}`,
      onchange: action(error, async () => {
        await patch(`/peers/${encodeURIComponent(peer.name)}`, { level: level.value });
        app.toast(`${peer.name}: level saved.`);
      }),
    },
    LEVELS.map(([value, label]) => h("option", { value, selected: value === peer.level }, label)),
  );
  return h(
    "tr",
    { "data-peer": peer.name },
    h("th", { scope: "row" }, peer.name, h("br"), h("small", { class: "muted" }, peer.url)),
    h("td", {}, level),
    h("td", {}, peer.online ? badge("online", "ok") : badge("offline", "deny")),
    h("td", {}, peer.problem ?? "—"),
    h(
      "td",
      {},
      h(
        "button",
        {
          type: "button",
          "aria-label": `Remove the pairing with ${peer.name}`,
          onclick: action(error, async () => {
            if (confirm(`Remove the pairing with ${peer.name}?`)) {
              await del(`/peers/${encodeURIComponent(peer.name)}`);
              app.refresh();
            }
          }),
        },
        "Remove",
      ),
    ),
  );
}

function pairing(peers, invites, app) {
  const error = h("p", { class: "error", role: "alert" });
  const issued = h("div", { "aria-live": "polite" });
  const name = h("input", { name: "peer-name", autocomplete: "off", required: true });
  const url = h("input", { name: "peer-url", type: "url", autocomplete: "off", required: true });
  const token = h("input", { name: "peer-token", type: "password", autocomplete: "off", required: true });
  const level = h(
    "select",
    { name: "peer-level" },
    LEVELS.map(([value, label]) => h("option", { value, selected: value === "full" }, label)),
  );
  return h(
    "section",
    { class: "panel", "aria-labelledby": "paired" },
    h("h3", { id: "paired" }, "Paired relays"),
    peers.length === 0
      ? h("p", { class: "muted" }, "No paired relay.")
      : h(
          "div",
          { class: "scroll" },
          h(
            "table",
            {},
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ["Relay", "Agents may", "Link", "Problem", ""].map((title) =>
                  h("th", { scope: "col" }, title),
                ),
              ),
            ),
            h(
              "tbody",
              {},
              peers.map((peer) => peerRow(peer, app, error)),
            ),
          ),
        ),
    error,
    h("h4", {}, "Pair with a relay"),
    savingForm(
      app,
      "Pair",
      [
        h("div", { class: "grid" }, field("Name", name), field("Agents may", level)),
        field("Address", url, "https://…, or http:// on loopback and private networks."),
        field("Invite", token, "The invite that relay's owner issued for this one."),
      ],
      () =>
        post("/peers", {
          name: name.value.trim(),
          url: url.value.trim(),
          token: token.value.trim(),
          level: level.value,
        }),
    ),
    h("h4", {}, "Invites"),
    h(
      "p",
      { class: "muted" },
      "An invite lets another relay call this one; give it to that relay's owner. It is shown once.",
    ),
    h(
      "button",
      {
        type: "button",
        onclick: action(error, async (event) => {
          const panel = event.currentTarget.closest("section");
          const { token: invite } = await post("/peers/invites");
          issued.replaceChildren(
            h("p", {}, "New invite (copy it now): "),
            h("input", { readonly: true, value: invite, "aria-label": "New invite", class: "secret" }),
          );
          const list = await get("/peers/invites");
          panel.querySelector("ul.invites")?.replaceWith(inviteList(list.invites, app, error));
        }),
      },
      "Issue an invite",
    ),
    issued,
    inviteList(invites, app, error),
  );
}

function inviteList(invites, app, error) {
  return h(
    "ul",
    { class: "invites" },
    invites.map((invite) =>
      h(
        "li",
        { "data-invite": invite.id },
        h("code", {}, invite.id),
        " · ",
        invite.relay ? `used by ${invite.relay}` : "not used yet",
        " · issued ",
        time(invite.createdAt),
        " ",
        h(
          "button",
          {
            type: "button",
            onclick: action(error, async () => {
              await del(`/peers/invites/${invite.id}`);
              app.refresh();
            }),
          },
          "Revoke",
        ),
      ),
    ),
  );
}

export async function renderSettings(root, app) {
  const [settings, { peers }, { invites }] = await Promise.all([
    get("/settings"),
    get("/peers"),
    get("/peers/invites"),
  ]);
  show(
    root,
    h("h2", {}, "Settings → Relays"),
    agentSessions(settings, app),
    providers(settings, app),
    pairing(peers, invites, app),
  );
}
