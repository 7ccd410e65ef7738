// Countdowns: <span data-countdown-ms="5400">5</span> counts down the seconds left from the
// moment the element arrives (milliseconds at render time, so the phone's clock can be off).
(function () {
  "use strict";
  const arrived = new WeakMap();
  function tick() {
    const now = performance.now();
    for (const el of document.querySelectorAll("[data-countdown-ms]")) {
      if (!arrived.has(el)) arrived.set(el, now + parseInt(el.dataset.countdownMs, 10));
      const left = Math.max(0, Math.ceil((arrived.get(el) - now) / 1000));
      const text = String(left);
      if (el.textContent !== text) el.textContent = text;
      el.dataset.countdownDone = left === 0 ? "1" : "";
    }
  }
  setInterval(tick, 250);
  document.addEventListener("live:swapped", tick);
  tick();
})();
