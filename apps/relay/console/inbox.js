// The Inbox, the landing view: approval cards, blocking question cards and the agents'
// non-blocking questions, each answered in place.

import { get, post } from "./api.js";
import { badge, clip, field, h, show, time } from "./dom.js";

/** What waits for the owner: pending approval and question cards, and pending Inbox questions. */
export async function loadWaiting() {
  const [{ cards }, { questions }] = await Promise.all([get("/cards?status=pending"), get("/inbox")]);
  return { cards, questions: questions.filter((question) => question.status === "pending") };
}

export function waitingCount({ cards, questions }) {
  return cards.length + questions.length;
}

/** Runs an answer: the buttons wait, an error is said next to them, success refreshes the view. */
function answering(container, app, send) {
  return async () => {
    const buttons = container.querySelectorAll("button, input");
    for (const control of buttons) {
      control.disabled = true;
    }
    const error = container.querySelector(".error");
    error.textContent = "";
    try {
      await send();
      app.refresh();
    } catch (failure) {
      error.textContent = `${failure.code}: ${failure.message}`;
      for (const control of buttons) {
        control.disabled = false;
      }
    }
  };
}

function conversationName(titles, id) {
  const title = titles.get(id);
  return title === undefined ? id : `“${title}”`;
}

/** A conversation named in a card's line: cut to the line, and a link to it where it has one. */
function conversationLink(titles, id) {
  return clip("a", { href: `#/conversations/${id}` }, conversationName(titles, id));
}

function approvalCard(card, titles, app) {
  const article = h(
    "article",
    { class: "card approval", "aria-labelledby": `${card.id}-title`, "data-card": card.id },
    h("h3", { id: `${card.id}-title` }, "🛰️ ", card.action, " · relay ", card.targetRelay),
    h(
      "p",
      { class: "meta" },
      "Conversation ",
      conversationLink(titles, card.sessionId),
      card.targetSession === null
        ? null
        : [" · session ", clip("span", {}, conversationName(titles, card.targetSession))],
      " · asked ",
      time(card.createdAt),
      " · expires ",
      time(card.expiresAt),
    ),
    h("p", {}, card.text),
    card.detail.length === 0
      ? null
      : h(
          "ul",
          { class: "detail" },
          card.detail.map((line) => h("li", {}, line)),
        ),
    h("p", { class: "error", role: "alert" }),
  );
  const decide = (choice) => answering(article, app, () => post(`/cards/${card.id}`, { choice }));
  article.append(
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", class: "allow", onclick: decide("allow") }, "Allow"),
      h("button", { type: "button", class: "deny", onclick: decide("deny") }, "Deny"),
    ),
  );
  return article;
}

/** Options as buttons, a free answer, and (for the Inbox) Dismiss. */
function answerControls(container, app, { id, options, recommendation, choose, answer, dismiss }) {
  // Named after its card, so that a live redraw gives the typed answer back to the same card.
  const input = h("input", { type: "text", name: `answer-${id}`, autocomplete: "off" });
  const form = h(
    "form",
    {
      class: "answer",
      onsubmit: (event) => {
        event.preventDefault();
        if (input.value.trim() !== "") {
          answering(container, app, () => answer(input.value.trim()))();
        }
      },
    },
    options.length === 0
      ? null
      : h(
          "div",
          { class: "options", role: "group", "aria-label": "Options" },
          options.map((option) =>
            h(
              "button",
              {
                type: "button",
                class: option === recommendation ? "option recommended" : "option",
                onclick: answering(container, app, () => choose(option)),
              },
              option,
              option === recommendation ? " ★ recommended" : null,
            ),
          ),
        ),
    field("Your answer", input),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "submit" }, "Answer"),
      dismiss
        ? h("button", { type: "button", onclick: answering(container, app, dismiss) }, "Dismiss")
        : null,
    ),
  );
  return form;
}

function questionCard(card, titles, app) {
  const article = h(
    "article",
    { class: "card question", "aria-labelledby": `${card.id}-title`, "data-card": card.id },
    h("h3", { id: `${card.id}-title` }, "❓ ", card.text),
    h(
      "p",
      { class: "meta" },
      "Blocking: the turn of ",
      conversationLink(titles, card.sessionId),
      " waits for it · asked ",
      time(card.createdAt),
    ),
    h("p", { class: "error", role: "alert" }),
  );
  article.append(
    answerControls(article, app, {
      id: card.id,
      options: card.options,
      choose: (option) => post(`/cards/${card.id}`, { choices: [option] }),
      answer: (text) => post(`/cards/${card.id}`, { answer: text }),
    }),
  );
  return article;
}

function inboxQuestion(question, app) {
  const asker = question.askedBy;
  const article = h(
    "article",
    {
      class: "card inbox",
      "aria-labelledby": `${question.question_id}-title`,
      "data-question": question.question_id,
    },
    h("h3", { id: `${question.question_id}-title` }, "✉️ ", question.question),
    h(
      "p",
      { class: "meta" },
      asker === null || asker === undefined
        ? null
        : [
            "Asked by ",
            asker.relay === null
              ? clip("a", { href: `#/conversations/${asker.id}` }, `“${asker.title}”`)
              : clip("span", {}, `“${asker.title}”`),
            asker.relay === null ? null : ` on ${asker.relay}`,
          ],
      question.session && question.session.id !== asker?.id
        ? [" about ", clip("span", {}, `“${question.session.title}”`)]
        : null,
      " · ",
      time(question.askedAt),
      " · does not block anyone",
    ),
    h("p", { class: "error", role: "alert" }),
  );
  if (question.keptOn) {
    article.append(h("p", {}, "Kept on relay ", question.keptOn, ": answer it in that relay's Inbox."));
    return article;
  }
  article.append(
    answerControls(article, app, {
      id: question.question_id,
      options: question.options ?? [],
      recommendation: question.recommendation,
      choose: (option) => post(`/inbox/${question.question_id}`, { choice: option }),
      answer: (text) => post(`/inbox/${question.question_id}`, { answer: text }),
      dismiss: () => post(`/inbox/${question.question_id}`, { dismiss: true }),
    }),
  );
  return article;
}

export async function renderInbox(root, app) {
  const [waiting, { sessions }] = await Promise.all([loadWaiting(), get("/sessions?scope=all")]);
  app.setWaiting(waitingCount(waiting));
  const titles = new Map(sessions.map((session) => [session.id, session.title]));
  const approvals = waiting.cards.filter((card) => card.kind === "approval");
  const blocking = waiting.cards.filter((card) => card.kind === "question");
  show(
    root,
    h("h2", {}, "Inbox"),
    waitingCount(waiting) === 0 ? h("p", { class: "empty" }, "Nothing waits for you.") : null,
    approvals.length === 0
      ? null
      : h(
          "section",
          { "aria-labelledby": "approvals" },
          h("h3", { id: "approvals", class: "section" }, "Approval cards ", badge(String(approvals.length))),
          approvals.map((card) => approvalCard(card, titles, app)),
        ),
    blocking.length === 0
      ? null
      : h(
          "section",
          { "aria-labelledby": "blocking" },
          h(
            "h3",
            { id: "blocking", class: "section" },
            "Questions that block a turn ",
            badge(String(blocking.length)),
          ),
          blocking.map((card) => questionCard(card, titles, app)),
        ),
    waiting.questions.length === 0
      ? null
      : h(
          "section",
          { "aria-labelledby": "questions" },
          h(
            "h3",
            { id: "questions", class: "section" },
            "Questions ",
            badge(String(waiting.questions.length)),
          ),
          waiting.questions.map((question) => inboxQuestion(question, app)),
        ),
  );
}
