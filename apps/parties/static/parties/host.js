// The host's console: how long each table has waited since its last change, counted up
// live, so a stalled table stands out.
(function () {
  "use strict";
  function tick() {
    const now = Date.now();
    for (const el of document.querySelectorAll("[data-changed-ms]")) {
      const since = parseInt(el.dataset.changedMs, 10);
      if (!since) continue;
      const seconds = Math.max(0, Math.round((now - since) / 1000));
      // The words come in the console's language from the element's data-* attributes.
      const clock = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
      const text =
        seconds < 60
          ? (el.dataset.changed || "changed {seconds} s ago").replace("{seconds}", seconds)
          : (el.dataset.waiting || "waiting {time}").replace("{time}", clock);
      if (el.textContent !== text) el.textContent = text;
      el.closest(".host-table")?.classList.toggle("stalled", seconds >= 120);
    }
  }
  setInterval(tick, 1000);
  document.addEventListener("live:swapped", tick);
  tick();
})();

// Whose phone is here: the console's socket says every few seconds; the dots follow.
(function () {
  "use strict";
  // The dots' words in the console's language (the players list's data-* attributes).
  const list = () => document.querySelector(".player-rows");
  const TEXTS = {
    here: () => list()?.dataset.here || "Phone connected",
    away: () => list()?.dataset.away || "Phone joined, not connected now",
    none: () => list()?.dataset.none || "No phone yet",
  };
  document.addEventListener("live:phones", (event) => {
    const states = event.detail.data;
    const dots = new Map();
    for (const dot of document.querySelectorAll(".phone-dot[data-player]")) dots.set(dot.dataset.player, dot);
    for (const [state, ids] of Object.entries(states)) {
      for (const id of ids) {
        const dot = dots.get(String(id));
        if (!dot || dot.classList.contains(state)) continue;
        dot.classList.remove("here", "away", "none");
        dot.classList.add(state);
        dot.title = TEXTS[state]();
      }
    }
  });
})();

// An opened table's tools are scrolled into the tables' view (the card takes a row of its
// own), and again once they have arrived.
(function () {
  "use strict";
  const show = (details) => details.closest(".host-table")?.scrollIntoView({ block: "nearest" });
  document.addEventListener(
    "toggle",
    (event) => {
      if (event.target.matches?.(".table-tools") && event.target.open) show(event.target);
    },
    true,
  );
  document.addEventListener("htmx:afterSwap", (event) => {
    const details = event.target.closest?.(".table-tools[open]");
    if (details) show(details);
  });
})();
