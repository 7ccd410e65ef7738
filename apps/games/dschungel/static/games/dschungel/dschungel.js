// Dschungelparty on a phone: after a tap crosses a field its button is gone, so keyboard
// focus would fall back to the page's top; it moves on to the next thing to press instead.
(function () {
  "use strict";
  let inTable = false;
  document.addEventListener("focusin", (event) => {
    inTable = Boolean(event.target.closest && event.target.closest(".dj"));
  });
  document.addEventListener("live:swapped", () => {
    const active = document.activeElement;
    if (!inTable || (active && active !== document.body && document.contains(active))) return;
    const next = document.querySelector(
      ".dj-tap, #do-confirm, #do-skip_bonus, .dj-choice, #do-roll, #do-reroll, #do-pass",
    );
    if (next) next.focus({ preventScroll: true });
  });
})();
