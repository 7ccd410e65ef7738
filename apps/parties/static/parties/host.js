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
      const text =
        seconds < 60
          ? "changed " + seconds + " s ago"
          : "waiting " + Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
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
  const TEXTS = {
    here: "Phone connected",
    away: "Phone joined, not connected now",
    none: "No phone yet",
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
        dot.title = TEXTS[state];
      }
    }
  });
})();
