// GET /v1/owner/events read with fetch (an EventSource cannot send the Authorization header):
// server-sent events parsed here, resumed with Last-Event-ID after any cut, so no event is
// missed or repeated.

import { authHeaders } from "./api.js";

function parseBlock(block) {
  const event = { id: undefined, kind: "message", data: "" };
  let seen = false;
  for (const line of block.split(/\r?\n/)) {
    if (line === "" || line.startsWith(":")) {
      continue;
    }
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (name === "id") {
      event.id = value;
    } else if (name === "event") {
      event.kind = value;
    } else if (name === "data") {
      event.data = event.data === "" ? value : `${event.data}\n${value}`;
    }
    seen = true;
  }
  if (!seen) {
    return null;
  }
  try {
    event.data = JSON.parse(event.data);
  } catch {
    // Keep the text: an event the console does not know is still an event.
  }
  return event;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens the stream; `onEvent(event)` for each event, `onState("live" | "reconnecting" |
 * "refused")`. Reconnects with growing pauses (0.5 s → 10 s) and Last-Event-ID.
 */
export function openEventStream({ onEvent, onState }) {
  let lastId = null;
  let stopped = false;
  let controller = null;

  async function connectOnce() {
    controller = new AbortController();
    const headers = { ...authHeaders(), Accept: "text/event-stream" };
    if (lastId !== null) {
      headers["Last-Event-ID"] = lastId;
    }
    const response = await fetch("/v1/owner/events", { headers, signal: controller.signal });
    if (response.status === 401) {
      return "refused";
    }
    if (response.status === 400 && lastId !== null) {
      // The relay does not know that id (its database was reset): start again from now.
      lastId = null;
      return "again";
    }
    if (!response.ok || response.body === null) {
      throw new Error(`HTTP ${response.status}`);
    }
    onState("live");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        return "again";
      }
      buffer += value;
      for (let end = buffer.search(/\r?\n\r?\n/); end >= 0; end = buffer.search(/\r?\n\r?\n/)) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
        const event = parseBlock(block);
        if (event !== null) {
          if (event.id !== undefined) {
            lastId = event.id;
          }
          onEvent(event);
        }
      }
    }
  }

  (async () => {
    let pause = 500;
    while (!stopped) {
      try {
        const outcome = await connectOnce();
        if (outcome === "refused") {
          onState("refused");
          return;
        }
        pause = 500;
      } catch {
        // Cut, relay restarting, network gone: try again below.
      }
      if (stopped) {
        return;
      }
      onState("reconnecting");
      await sleep(pause);
      pause = Math.min(pause * 2, 10_000);
    }
  })();

  return {
    close() {
      stopped = true;
      controller?.abort();
    },
  };
}
