// Conversations: the list with the badges of spec §2, starting one, and one conversation's page.

import { get, post } from "./api.js";
import { badge, clip, field, h, panel, show } from "./dom.js";

const STATES = { running_turn: "working", background_only: "background work", idle: "idle" };

/** R-UI-03/06/07: `via agent · "title"`, `watched`, `watching N sessions`. */
export function sessionBadges(session) {
  return [
    session.archivedAt
      ? badge("archived", "muted")
      : badge(STATES[session.state] ?? session.state, session.state),
    session.viaAgentBadge ? badge(session.viaAgentBadge, "via", { clipped: true }) : null,
    session.watched ? badge("watched", "watched") : null,
    session.watching > 0
      ? badge(`watching ${session.watching} session${session.watching === 1 ? "" : "s"}`, "watching")
      : null,
  ];
}

/** Agent-made sessions sit under the conversation that started them (R-UI-04). */
function tree(sessions) {
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const children = new Map();
  const roots = [];
  for (const session of sessions) {
    const parent = session.createdBy?.relay === null ? session.createdBy.session : null;
    if (parent && byId.has(parent) && parent !== session.id) {
      children.set(parent, [...(children.get(parent) ?? []), session]);
    } else {
      roots.push(session);
    }
  }
  const item = (session) =>
    h(
      "li",
      { "data-session": session.id },
      h(
        "div",
        { class: "row" },
        clip("a", { href: `#/conversations/${session.id}` }, session.title),
        h("span", { class: "badges" }, sessionBadges(session)),
        clip("small", { class: "muted" }, `${session.provider} · ${session.model}`),
      ),
      children.has(session.id) ? h("ul", {}, children.get(session.id).map(item)) : null,
    );
  return h("ul", { class: "tree" }, roots.map(item));
}

async function newConversationForm() {
  const [settings, providers] = await Promise.all([
    get("/settings"),
    get("/providers")
      .then((answer) => answer.providers)
      .catch(() => []),
  ]);
  const usable = providers.filter((provider) => !provider.notConfigured);
  const provider = h(
    "select",
    { name: "provider" },
    usable.map((p) => h("option", { value: p.id }, p.id)),
  );
  const model = h("select", { name: "model" });
  const fillModels = () => {
    const chosen = usable.find((p) => p.id === provider.value);
    model.replaceChildren(
      ...(chosen?.models ?? []).map((m) => h("option", { value: m, selected: m === chosen.defaultModel }, m)),
    );
  };
  // "input" also comes when a live redraw gives the owner's choice back (app.js replaceKeepingDrafts).
  provider.addEventListener("input", fillModels);
  fillModels();
  const roots = settings.allowedRoots ?? [];
  const folder = h("input", {
    name: "cwd",
    list: "allowed-roots",
    value: roots[0] ?? "",
    autocomplete: "off",
  });
  // A repository provider (claude-cloud) works on its own clone: a repository and a branch, no folder.
  const repo = h("input", { name: "repo", autocomplete: "off", placeholder: "example-org/sample-repo" });
  const branch = h("input", { name: "branch", autocomplete: "off", placeholder: "feature/banner" });
  const folderField = field("Folder", folder, "Under the relay's allowed folders.");
  const repoFields = h(
    "div",
    { class: "grid" },
    field("Repository", repo, "owner/name or a URL git clones from."),
    field("Branch", branch, "Checked out, or made from the default branch."),
  );
  const onRepository = () => usable.find((p) => p.id === provider.value)?.worksOn === "repository";
  const showPlace = () => {
    folderField.hidden = onRepository();
    repoFields.hidden = !onRepository();
  };
  provider.addEventListener("input", showPlace);
  showPlace();
  const title = h("input", { name: "title", autocomplete: "off" });
  const mode = h(
    "select",
    { name: "mode" },
    ["agent", "ask", "plan"].map((m) => h("option", { value: m }, m)),
  );
  const text = h("textarea", { name: "text", rows: 3 });
  const error = h("p", { class: "error", role: "alert" });
  const form = h(
    "form",
    {
      class: "stack",
      onsubmit: async (event) => {
        event.preventDefault();
        error.textContent = "";
        const body = { provider: provider.value, model: model.value, mode: mode.value };
        const place = onRepository()
          ? [
              ["repo", repo],
              ["branch", branch],
            ]
          : [["cwd", folder]];
        for (const [key, input] of [...place, ["title", title], ["text", text]]) {
          if (input.value.trim() !== "") {
            body[key] = input.value.trim();
          }
        }
        try {
          const session = await post("/sessions", body);
          location.hash = `#/conversations/${session.id}`;
        } catch (failure) {
          error.textContent = `${failure.code}: ${failure.message}`;
        }
      },
    },
    h("div", { class: "grid" }, field("Provider", provider), field("Model", model), field("Mode", mode)),
    folderField,
    repoFields,
    h(
      "datalist",
      { id: "allowed-roots" },
      roots.map((root) => h("option", { value: root })),
    ),
    field("Title", title),
    field("First message", text, "Optional: it starts the first turn."),
    error,
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Start the conversation")),
  );
  return panel("new-conversation", { class: "panel" }, h("summary", {}, "Start a conversation"), form);
}

export async function renderConversations(root, params) {
  const archived = params.get("archived") === "1";
  const { sessions } = await get(`/sessions?scope=${archived ? "all" : "active"}`);
  show(
    root,
    h("h2", {}, "Conversations"),
    await newConversationForm(),
    h(
      "p",
      {},
      h(
        "a",
        { href: archived ? "#/conversations" : "#/conversations?archived=1" },
        archived ? "Hide archived" : "Show archived",
      ),
    ),
    sessions.length === 0 ? h("p", { class: "empty" }, "No conversation yet.") : tree(sessions),
  );
}
