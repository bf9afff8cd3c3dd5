// Builds the page with DOM nodes only: text from the relay never becomes markup.

/** h("button", { class: "allow", onclick }, "Allow") — attributes, then children (strings, nodes, arrays, null). */
export function h(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      node.className = value;
    } else if (name === "value" || name === "checked" || name === "disabled" || name === "selected") {
      node[name] = value;
    } else {
      node.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) {
      continue;
    }
    if (Array.isArray(child)) {
      append(node, child);
    } else {
      node.append(child instanceof Node ? child : String(child));
    }
  }
}

/** Replaces what `root` shows. */
export function show(root, ...children) {
  root.replaceChildren();
  append(root, children);
}

let fieldCount = 0;

/** A labelled control; the hint is its description, not part of its name. */
export function field(label, control, hint) {
  fieldCount += 1;
  control.id ||= `field-${fieldCount}`;
  const note = hint ? h("small", { id: `${control.id}-hint` }, hint) : null;
  if (note) {
    control.setAttribute("aria-describedby", note.id);
  }
  return h("div", { class: "field" }, h("label", { for: control.id }, label), control, note);
}

const openPanels = new Set();

/**
 * A <details> that stays open or closed as the owner left it, across the live redraws of the
 * view (an event can redraw it between the owner's click and the next one).
 */
export function panel(key, attributes, ...children) {
  const details = h("details", attributes, ...children);
  details.open = openPanels.has(key);
  details.addEventListener("toggle", () => {
    if (details.open) {
      openPanels.add(key);
    } else {
      openPanels.delete(key);
    }
  });
  return details;
}

/**
 * Text that stays on one line among other things, cut to fit (console.css `.clip`): its whole
 * text is its title, for a pointer, and it takes the focus, where it shows whole, so a tap or
 * Tab reaches it too. A link keeps its own focus and leads to the whole text.
 */
export function clip(tag, attributes, text) {
  const whole = String(text);
  return h(
    tag,
    {
      tabindex: tag === "a" ? undefined : 0,
      ...attributes,
      class: `clip ${attributes.class ?? ""}`.trim(),
      title: whole,
    },
    whole,
  );
}

/** A badge; `clipped` for one whose text comes from the relay (a title, a model id) and may be long. */
export function badge(text, kind = "", { clipped = false } = {}) {
  const attributes = { class: `badge ${kind}`.trim() };
  return clipped ? clip("span", attributes, text) : h("span", attributes, text);
}

/** "3 min ago", "in 10 min" — short enough for a phone. */
export function when(value) {
  const at = typeof value === "number" ? value : Date.parse(value);
  if (Number.isNaN(at)) {
    return "";
  }
  const seconds = Math.round((at - Date.now()) / 1000);
  const size = Math.abs(seconds);
  const text =
    size < 60 ? `${size} s` : size < 3600 ? `${Math.round(size / 60)} min` : `${Math.round(size / 3600)} h`;
  return seconds > 5 ? `in ${text}` : size <= 5 ? "now" : `${text} ago`;
}

export function time(value) {
  const at = typeof value === "number" ? value : Date.parse(value);
  return h("time", { datetime: new Date(at).toISOString(), title: new Date(at).toLocaleString() }, when(at));
}

/**
 * Runs an owner action from a control (`run(event)`): the control waits while it runs, and a
 * refusal is said in `error` with its code.
 */
export function action(error, run) {
  return async (event) => {
    const button = event?.currentTarget;
    if (button) {
      button.disabled = true;
    }
    error.textContent = "";
    try {
      await run(event);
    } catch (failure) {
      error.textContent = `${failure.code}: ${failure.message}`;
    } finally {
      if (button) {
        button.disabled = false;
      }
    }
  };
}
