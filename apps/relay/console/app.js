// The console's shell: sign-in, the header with what waits, the views by URL hash, and the
// owner event stream that keeps them live.

import { ApiError, api, get, onTokenRefused, ownerToken } from "./api.js";
import { renderConversation } from "./conversation.js";
import { renderConversations } from "./conversations.js";
import { field, h, show } from "./dom.js";
import { openEventStream } from "./event-stream.js";
import { loadWaiting, renderInbox, waitingCount } from "./inbox.js";
import { renderSettings } from "./settings.js";

const main = document.getElementById("main");
const header = document.querySelector("header.top");
const linkState = document.getElementById("link-state");
const notifyButton = document.getElementById("notify");
let relayName = "";
let stream = null;
let rendering = Promise.resolve();
let again = false;
/** The address the owner went to: the view drawn for it starts at its top (renderView). */
let arrivedAt = null;

/** Events after which the Inbox may have changed. */
const INBOX_EVENTS = new Set([
  "card_raised",
  "card_answered",
  "question_asked",
  "question_answered",
  "turn_end",
  "error",
]);
/** Events that ask for the owner's attention: a desktop notification when permitted. */
const ATTENTION = new Set(["card_raised", "question_asked"]);

function route() {
  const [path, query = ""] = location.hash.replace(/^#\/?/, "").split("?");
  const [view = "inbox", id] = path.split("/");
  return {
    view: view === "" ? "inbox" : view,
    id: id && decodeURIComponent(id),
    params: new URLSearchParams(query),
  };
}

function toast(text) {
  const box = document.getElementById("toast");
  box.textContent = text;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    box.textContent = "";
  }, 4000);
}

function setWaiting(waiting) {
  // A count read just before a sign out is not shown after it.
  const count = ownerToken.get() === null ? 0 : waiting;
  document.getElementById("inbox-count").textContent = count > 0 ? String(count) : "";
  document.title = `${count > 0 ? `(${count}) ` : ""}OAR relay${relayName ? ` · ${relayName}` : ""}`;
}

async function refreshWaiting() {
  try {
    setWaiting(waitingCount(await loadWaiting()));
  } catch {
    // The view says what failed; the count waits for the next event.
  }
}

/** Whether the owner changed the control since the view drew it. */
function edited(control) {
  if (control instanceof HTMLSelectElement) {
    const drawn = [...control.options].find((option) => option.defaultSelected) ?? control.options[0];
    return control.value !== (drawn?.value ?? "");
  }
  return control.value !== control.defaultValue;
}

/**
 * Typed text and the focus survive a live redraw (open panels: dom.js `panel`). They are read
 * from the page at the moment the new view replaces it, not when the redraw began: text typed
 * while the view's data was on its way is kept too.
 */
function replaceKeepingDrafts(drawn) {
  const drafts = new Map();
  for (const control of main.querySelectorAll(
    "textarea[name], select[name], input[name]:not([type=checkbox])",
  )) {
    if (edited(control)) {
      drafts.set(control.name, control.value);
    }
  }
  const focused = main.contains(document.activeElement) ? focusMark(document.activeElement) : undefined;
  for (const [name, value] of drafts) {
    const control = drawn.querySelector(`[name="${CSS.escape(name)}"]`);
    if (control) {
      control.value = value;
      control.dispatchEvent(new Event("input"));
    }
  }
  main.replaceChildren(...drawn.childNodes);
  focused?.(main)?.focus({ preventScroll: true });
}

/**
 * How to find the focused element again in a redrawn view: a control by its name; a clipped text
 * (dom.js clip), which shows whole while focused, by its text and which of the same text it is.
 */
function focusMark(element) {
  if (element.name) {
    return (root) => root.querySelector(`[name="${CSS.escape(element.name)}"]`);
  }
  if (element.classList.contains("clip")) {
    const same = (root) => [...root.querySelectorAll(".clip")].filter((clip) => clip.title === element.title);
    const index = same(main).indexOf(element);
    return (root) => same(root)[index];
  }
  return undefined;
}

async function renderView() {
  const hash = location.hash;
  const { view, id, params } = route();
  const signedInAs = ownerToken.get();
  if (signedInAs === null) {
    return;
  }
  for (const link of document.querySelectorAll("nav a")) {
    if (link.dataset.view === view) {
      link.setAttribute("aria-current", "page");
    } else {
      link.removeAttribute("aria-current");
    }
  }
  // Drawn aside, then shown only if the owner is still signed in: a sign out while the view's
  // data was on its way must not be painted over.
  const drawn = document.createElement("div");
  try {
    if (view === "conversations" && id) {
      await renderConversation(drawn, app, id);
    } else if (view === "conversations") {
      await renderConversations(drawn, params);
    } else if (view === "settings") {
      await renderSettings(drawn, app);
    } else {
      await renderInbox(drawn, app);
    }
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 401) {
      return;
    }
    show(
      drawn,
      h("p", { class: "error", role: "alert" }, failure.code ? `${failure.code}: ` : "", failure.message),
    );
  }
  if (ownerToken.get() !== signedInAs) {
    return;
  }
  replaceKeepingDrafts(drawn);
  if (arrivedAt === hash) {
    arrivedAt = null;
    // A new view starts at its top, its heading below the header, wherever the last one was
    // scrolled to; focusing main alone would scroll main's top edge behind the sticky header.
    main.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }
  if (view !== "inbox") {
    await refreshWaiting();
  }
}

/** Re-renders the view once, however many events ask for it while it renders. */
function refresh() {
  if (again) {
    return rendering;
  }
  again = true;
  rendering = rendering.then(() => {
    again = false;
    return renderView();
  });
  return rendering;
}

const app = { refresh, setWaiting, toast };

function notify(event) {
  if (!("Notification" in window) || Notification.permission !== "granted") {
    return;
  }
  const data = event.data ?? {};
  const body =
    event.kind === "card_raised"
      ? `${data.title ?? "A conversation"} wants ${data.action} on ${data.target_relay}`
      : `${data.title ?? "A conversation"} asks: ${data.text ?? ""}`;
  new Notification(event.kind === "card_raised" ? "Approval card" : "Question", { body, tag: data.id });
}

function onEvent(event) {
  const { view, id } = route();
  if (ATTENTION.has(event.kind)) {
    notify(event);
  }
  const concernsView =
    (view === "inbox" && INBOX_EVENTS.has(event.kind)) ||
    (view === "conversations" && (!id || event.data?.session === id)) ||
    false;
  if (concernsView) {
    refresh();
  } else if (INBOX_EVENTS.has(event.kind)) {
    refreshWaiting();
  }
}

function startStream() {
  stream?.close();
  stream = openEventStream({
    onEvent,
    onState(state) {
      linkState.textContent = state === "live" ? "● live" : state === "reconnecting" ? "○ reconnecting…" : "";
      linkState.dataset.state = state;
      if (state === "live") {
        // What changed while the stream was away is read again once.
        refresh();
      } else if (state === "refused") {
        signOut("The relay refused the owner token; sign in again.");
      }
    },
  });
}

function offerNotifications() {
  if (!("Notification" in window) || Notification.permission !== "default") {
    notifyButton.hidden = true;
    return;
  }
  notifyButton.hidden = false;
  notifyButton.onclick = async () => {
    await Notification.requestPermission();
    offerNotifications();
  };
}

function signOut(reason) {
  ownerToken.clear();
  stream?.close();
  stream = null;
  header.hidden = true;
  setWaiting(0);
  showSignIn(reason);
}

function showSignIn(reason) {
  const input = h("input", {
    type: "password",
    name: "owner-token",
    autocomplete: "current-password",
    required: true,
  });
  const error = h("p", { class: "error", role: "alert" }, reason ?? "");
  show(
    main,
    h(
      "form",
      {
        class: "panel sign-in stack",
        onsubmit: async (event) => {
          event.preventDefault();
          error.textContent = "";
          const token = input.value.trim();
          try {
            await api("GET", "/settings", undefined, token);
          } catch (failure) {
            error.textContent =
              failure.status === 401
                ? "That is not this relay's owner token."
                : `${failure.code}: ${failure.message}`;
            return;
          }
          ownerToken.set(token);
          start();
        },
      },
      h("h2", {}, "Sign in"),
      // Password managers file the token under this relay's address, as the owner's.
      h("input", { type: "text", name: "username", value: "owner", autocomplete: "username", hidden: true }),
      h(
        "p",
        {},
        "The owner token was printed when the relay started, and is kept in its data folder (owner-token).",
      ),
      field("Owner token", input),
      error,
      h("div", { class: "actions" }, h("button", { type: "submit" }, "Sign in")),
    ),
  );
  input.focus();
}

function start() {
  header.hidden = false;
  offerNotifications();
  startStream();
  refresh();
}

onTokenRefused(() => signOut("The relay refused the owner token; sign in again."));
document.getElementById("sign-out").addEventListener("click", () => signOut());
window.addEventListener("hashchange", () => {
  arrivedAt = location.hash;
  refresh();
});
// The skip link moves the focus only: followed, its `#main` would be read as a view's address.
document.querySelector("a.skip").addEventListener("click", (event) => {
  event.preventDefault();
  main.focus();
});
// The header's height, for console.css's scroll-padding: it wraps to two or three lines on a phone.
new ResizeObserver(() => {
  document.documentElement.style.setProperty("--header-height", `${header.offsetHeight}px`);
}).observe(header);

fetch("/healthz")
  .then((response) => response.json())
  .then((health) => {
    relayName = health.name ?? "";
    // Up to 63 characters: cut to the header's line, whole on hover or when focused (dom.js clip).
    const shown = document.getElementById("relay-name");
    shown.textContent = relayName;
    shown.title = relayName;
    shown.tabIndex = 0;
    setWaiting(0);
  })
  .catch(() => {});

if (ownerToken.get()) {
  get("/settings")
    .then(start)
    .catch((failure) => {
      if (!(failure instanceof ApiError && failure.status === 401)) {
        start();
      }
    });
} else {
  showSignIn();
}
