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
