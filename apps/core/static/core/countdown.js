// Countdowns: <span data-countdown-ms="5400">6</span> counts down the seconds left from the
// moment the element arrives (milliseconds at render time, so the phone's clock can be off).
// The page prints the seconds itself, so the sentence reads before this script runs. When the
// time is up, a sentence around it with data-countdown-over says that instead ("Time is up:
// you keep ..."): the server's move may take a moment to arrive, and "0 s" reads as stuck.
(function () {
  "use strict";
  const arrived = new WeakMap();
  function tick() {
    const now = performance.now();
    for (const el of document.querySelectorAll("[data-countdown-ms]")) {
      if (!arrived.has(el)) arrived.set(el, now + parseInt(el.dataset.countdownMs, 10));
      const left = Math.max(0, Math.ceil((arrived.get(el) - now) / 1000));
      const over = el.closest("[data-countdown-over]");
      if (left === 0 && over) {
        over.textContent = over.dataset.countdownOver;
        over.removeAttribute("data-countdown-over");
        continue;
      }
      const text = String(left);
      if (el.textContent !== text) el.textContent = text;
      el.dataset.countdownDone = left === 0 ? "1" : "";
    }
  }
  setInterval(tick, 250);
  document.addEventListener("live:swapped", tick);
  tick();
})();
