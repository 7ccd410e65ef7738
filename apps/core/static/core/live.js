// The live-update client: one reconnecting WebSocket per page.
//
// A page opts in with <body data-live-url="/ws/..." data-live-version="N">.
// Server -> browser (JSON):
//   {"type": "fragments", "version": N, "html": "..."}  every top-level element with an id
//        replaces the element with the same id (htmx out-of-band style), unless both carry
//        data-v and the fresh one's is lower (a part drawn at an older version)
//   {"type": "ack", "id": "...", "v": N}                 an action was applied (or was a retry);
//        v, when given, is the version of the part it changed
//   {"type": "error", "message": "...", "id": "...", "target": "element-id"}
//   {"type": "event", "name": "bell", ...}               re-dispatched as a DOM event "live:bell"
// Browser -> server:
//   {"type": "hello", "since": N}                        on every (re)connect: catch me up
//   {"type": "action", "id": "...", "act": {"type": ..., ...}, "target": "element-id"}
//        from <form data-live-action> (its fields make the act; a field named "act" holds a
//        whole act as JSON) or send()
(function () {
  "use strict";

  // The installable app's worker keeps the app's look for when the Wi-Fi drops (never a
  // score). Browsers allow it on HTTPS and on the laptop itself.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  }

  // A choice that takes effect at once (the language picker) sends its form on change.
  document.addEventListener("change", (event) => {
    if (event.target.matches("select[data-autosubmit]")) event.target.form.requestSubmit();
  });

  // The Content-Security-Policy allows no inline handlers: a print button says data-print,
  // a form that asks first says data-confirm="the question".
  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-print]")) window.print();
  });
  document.addEventListener("submit", (event) => {
    const question = event.target.dataset.confirm;
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  });

  // Nor inline styles: what a page sizes by its data (a grid's columns, a field's place on
  // a drawing) comes as data-vars="--cols: 3; --rows: 2", custom properties only, set here
  // through the CSSOM, on the page and on every part swapped in (live or by htmx).
  function applyVars(root) {
    const elements = Array.from(root.querySelectorAll("[data-vars]"));
    if (root.matches && root.matches("[data-vars]")) elements.push(root);
    for (const element of elements) {
      for (const pair of element.dataset.vars.split(";")) {
        const at = pair.indexOf(":");
        const name = pair.slice(0, at).trim();
        if (at > 0 && name.startsWith("--")) element.style.setProperty(name, pair.slice(at + 1).trim());
      }
    }
  }
  applyVars(document);
  document.addEventListener("htmx:load", (event) => applyVars(event.detail.elt));

  const body = document.body;
  const url = body.dataset.liveUrl;
  if (!url) return;

  let version = parseInt(body.dataset.liveVersion || "0", 10) || 0;
  let socket = null;
  let attempt = 0;
  let timer = null;
  // Actions not yet acknowledged; resent with the same id after a reconnect, and the server
  // applies each id once.
  const pending = new Map();
  // The buttons held down until their action is answered (a second tap would be a second roll).
  const waiting = new Map();
  function release(id) {
    const button = waiting.get(id);
    if (button) button.disabled = false;
    waiting.delete(id);
  }

  // crypto.randomUUID needs a secure context; a party laptop serves plain http on the LAN.
  function newId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // The page's language says the connection's words (data-say-* on <body>, see base.html).
  const words = {
    connecting: body.dataset.sayConnecting || "Connecting…",
    reconnecting: body.dataset.sayReconnecting || "Reconnecting…",
    connected: body.dataset.sayConnected || "Connected",
  };

  let everOpen = false;
  function setStatus(state, text) {
    body.dataset.liveState = state;
    const el = document.getElementById("live-status");
    if (el) {
      el.textContent = text;
      el.dataset.state = state;
    }
    // Once connected, losing the laptop dims the page and holds new taps until it is back.
    const lost = document.getElementById("live-lost");
    if (lost) lost.hidden = state === "open" || !everOpen;
  }

  // A fragment that holds the field someone is typing in waits until they leave it; one
  // holding a form whose request is on its way waits for the answer (htmx drops an answer
  // whose form has left the page, and with it the host's "Corrected" and its undo).
  const deferred = new Map();
  function flushDeferred() {
    setTimeout(() => {
      for (const [id, fresh] of deferred) {
        const current = document.getElementById(id);
        if (current && !isBusy(current)) {
          deferred.delete(id);
          replace(current, fresh);
        }
      }
    }, 0);
  }
  document.addEventListener("focusout", flushDeferred);
  document.addEventListener("htmx:afterRequest", flushDeferred);

  function isBusy(element) {
    return (
      isEditing(element) ||
      element.classList.contains("htmx-request") ||
      element.querySelector(".htmx-request") !== null
    );
  }

  function isEditing(element) {
    const active = document.activeElement;
    return (
      element.contains(active) &&
      (active.tagName === "TEXTAREA" ||
        active.tagName === "SELECT" ||
        (active.tagName === "INPUT" && !["hidden", "submit", "button"].includes(active.type)))
    );
  }

  // Fragments are rendered outside any request, so their forms carry no CSRF token yet.
  function addTokens(root) {
    const token = document.querySelector("meta[name=csrf-token]")?.content;
    for (const form of root.querySelectorAll("form[method=post]")) {
      if (token && !form.querySelector("[name=csrfmiddlewaretoken]")) {
        const input = document.createElement("input");
        Object.assign(input, { type: "hidden", name: "csrfmiddlewaretoken", value: token });
        form.prepend(input);
      }
    }
  }
  addTokens(document);

  // A field whose value is not the one it was drawn with: someone has typed or picked.
  function isChanged(root) {
    for (const field of root.querySelectorAll("input, textarea, select")) {
      if (field.type === "hidden") continue;
      if (field.tagName === "SELECT") {
        if (Array.from(field.options).some((option) => option.selected !== option.defaultSelected)) return true;
      } else if (field.type === "checkbox" || field.type === "radio") {
        if (field.checked !== field.defaultChecked) return true;
      } else if (field.value !== field.defaultValue) {
        return true;
      }
    }
    return false;
  }

  function replace(current, fresh) {
    // Keep open <details> open, and focus on the same control when the swap brings it back.
    const kept = new Set();
    for (const details of current.querySelectorAll("details[open][id]")) {
      const copy = fresh.querySelector("#" + CSS.escape(details.id));
      if (!copy) continue;
      copy.setAttribute("open", "");
      // Content fetched when the part opened stays shown until the fetch below replaces it,
      // so an open panel never flashes back to its placeholder link. A panel holding a form
      // someone has started to fill in is not fetched again: the host's half-typed new name
      // would go, and the button under their finger with it.
      const box = details.getAttribute("hx-target")?.replace(/^find /, "");
      const had = box && details.querySelector(box);
      const gets = box && copy.querySelector(box);
      if (had && gets) {
        if (isChanged(had)) kept.add(details.id);
        gets.replaceChildren(...had.childNodes);
      }
    }
    addTokens(fresh);
    applyVars(fresh);
    const focusedId = current.contains(document.activeElement) && document.activeElement.id;
    // A part may say what changed in a sentence (data-say): screen readers hear it once, as
    // a swapped-in live region would not be read out.
    if (fresh.dataset.say && fresh.dataset.say !== current.dataset.say) say(fresh.dataset.say);
    current.replaceWith(fresh);
    if (focusedId) document.getElementById(focusedId)?.focus({ preventScroll: true });
    if (window.htmx) {
      window.htmx.process(fresh);
      // An open part whose content comes when it opens (hx-trigger="toggle once") opened
      // before this copy existed: fetch its content again.
      for (const details of fresh.querySelectorAll("details[open][hx-get]")) {
        if (!kept.has(details.id)) window.htmx.trigger(details, "toggle");
      }
    }
  }

  // Nor does a panel's content fetched again (by the trigger above, or by the toggle event
  // the browser fires for the new copy's open attribute) replace a form someone is filling
  // in or has started to: what they typed and picked stays, and their button with it.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const source = event.detail.requestConfig?.elt; // detail.elt is the target here
    if (!source || source.tagName !== "DETAILS") return;
    const box = event.detail.target;
    if (box && (isChanged(box) || isEditing(box))) event.detail.shouldSwap = false;
  });

  function say(text) {
    const region = document.getElementById("live-say");
    if (!region) return;
    region.textContent = "";
    setTimeout(() => (region.textContent = text), 50); // a fresh text, so it is read again
  }

  function swap(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    for (const fresh of Array.from(template.content.children)) {
      const current = fresh.id && document.getElementById(fresh.id);
      if (!current) continue;
      // A part drawn at an older version than the one shown is old news (data-v).
      if (fresh.dataset.v && current.dataset.v && Number(fresh.dataset.v) < Number(current.dataset.v)) continue;
      if (isBusy(current)) {
        deferred.set(fresh.id, fresh);
        continue;
      }
      deferred.delete(fresh.id);
      replace(current, fresh);
    }
    if (shown && shown.until > Date.now()) showError(shown.message, shown.target, shown.until, true);
    document.dispatchEvent(new CustomEvent("live:swapped"));
  }

  // The last refusal, shown for a while: an update that swaps the section it stands in (the
  // move that beat this one, often) must not wipe it before it is read.
  let shown = null;
  const ERROR_MS = 8000;

  function errorElement(target) {
    return (
      (target && document.getElementById(target + "-error")) ||
      document.getElementById("live-error")
    );
  }

  function showError(message, target, until, again) {
    shown = { message, target, until: until || Date.now() + ERROR_MS };
    const el = errorElement(target);
    if (!el) return;
    if (again) el.removeAttribute("role"); // put back after a swap: said once is enough
    el.textContent = message;
    el.hidden = false;
    clearTimeout(el._hideTimer);
    el._hideTimer = setTimeout(() => {
      el.hidden = true;
    }, shown.until - Date.now());
  }

  function clearError() {
    if (!shown) return;
    const el = errorElement(shown.target);
    if (el) el.hidden = true;
    shown = null;
  }

  function onMessage(event) {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch (e) {
      return;
    }
    if (msg.type === "fragments") {
      if (typeof msg.version === "number") {
        if (msg.version < version) return; // an older render arriving late
        version = msg.version;
        body.dataset.liveVersion = String(version);
      }
      swap(msg.html);
    } else if (msg.type === "ack") {
      pending.delete(msg.id);
      release(msg.id);
      clearError(); // a move that went through makes the last refusal old news
      document.dispatchEvent(new CustomEvent("live:ack", { detail: msg }));
    } else if (msg.type === "error") {
      if (msg.id) {
        pending.delete(msg.id);
        release(msg.id);
      }
      showError(msg.message, msg.target);
      document.dispatchEvent(new CustomEvent("live:error", { detail: msg }));
    } else if (msg.type === "event") {
      document.dispatchEvent(new CustomEvent("live:" + msg.name, { detail: msg }));
    } else if (msg.type === "pong") {
      document.dispatchEvent(new CustomEvent("live:pong", { detail: msg }));
    }
  }

  function connect() {
    clearTimeout(timer);
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + url);
    setStatus("connecting", attempt ? words.reconnecting : words.connecting);
    socket.addEventListener("open", () => {
      attempt = 0;
      everOpen = true;
      setStatus("open", words.connected);
      socket.send(JSON.stringify({ type: "hello", since: version }));
      for (const message of pending.values()) socket.send(JSON.stringify(message));
    });
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", scheduleReconnect);
  }

  function scheduleReconnect(event) {
    setStatus("closed", words.reconnecting);
    // Refused for too many open pages from this network, or for sending far too fast: try
    // again slowly. Closed for reading too slowly (4408), or for any other reason: back as
    // usual, and the hello's version catches up on what was missed.
    if (event && event.code === 4429) attempt = Math.max(attempt, 6);
    // Exponential backoff with jitter, so a room of phones doesn't reconnect in lockstep
    // when the laptop comes back; at most 5 s, so a phone is back within seconds of the
    // laptop (or its Redis) however long the outage was.
    const base = Math.min(5000, 500 * 2 ** attempt);
    const delay = base / 2 + Math.random() * (base / 2);
    attempt += 1;
    clearTimeout(timer);
    timer = setTimeout(connect, delay);
  }

  function send(message) {
    const full = Object.assign({ id: newId() }, message);
    if (full.type === "action") pending.set(full.id, full);
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(full));
    return full.id;
  }

  // <form data-live-action> sends its fields as an action instead of a page load.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-live-action")) return;
    event.preventDefault();
    const act = {};
    let target;
    for (const [key, value] of new FormData(form, event.submitter)) {
      if (key === "csrfmiddlewaretoken") continue;
      if (key === "target") target = value;
      else if (key === "act") Object.assign(act, JSON.parse(value));
      else act[key] = value;
    }
    const message = { type: "action", act, target };
    // One tap, one action: the button comes back with the answer.
    const button = event.submitter || form.querySelector("[type=submit]");
    const id = send(message);
    if (button) {
      button.disabled = true;
      waiting.set(id, button);
    }
  });

  // A phone that wakes from sleep, or whose Wi-Fi comes back, should not wait out its backoff.
  function reconnectNow() {
    if (socket?.readyState === WebSocket.CLOSED) {
      attempt = 0;
      connect();
    }
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") reconnectNow();
  });
  window.addEventListener("online", reconnectNow);

  window.BunkoLive = {
    send,
    get version() {
      return version;
    },
    get socket() {
      return socket;
    },
    get pending() {
      return pending.size;
    },
  };
  connect();
})();
