// Bonje in de Stal on a phone: the transport truck's two steps (which animal, then where),
// kept across the table's live swaps; focus that stays on the table for keyboard players;
// and the headline said aloud when it changes.
(function () {
  "use strict";

  // The truck's chosen animal ("seat-stable-name"): the page is swapped whenever anyone
  // moves, so the choice lives here and is put back on every fresh table.
  let picked = null;

  function table() {
    return document.querySelector(".bj");
  }

  function showPick(moveFocus) {
    const root = table();
    if (!root) return;
    const picks = Array.from(root.querySelectorAll(".bj-pick"));
    const chosen = picks.find((p) => p.dataset.key === picked);
    if (!chosen) picked = null;
    for (const pick of picks) pick.setAttribute("aria-pressed", String(pick === chosen));
    root.toggleAttribute("data-truck-picked", Boolean(chosen));
    const from = chosen ? JSON.parse(chosen.dataset.pick) : null;
    let opened = false; // some place is open to the chosen animal
    for (const drop of root.querySelectorAll(".bj-drop")) {
      const fits = Boolean(from) && drop.dataset.from.split(" ").includes(picked);
      drop.hidden = !fits;
      if (!fits) continue;
      const to = JSON.parse(drop.dataset.drop);
      drop.value = JSON.stringify(Object.assign({ type: "truck" }, from, to));
      drop.setAttribute("aria-label", drop.dataset.aria.replace("{animal}", chosen.dataset.animal));
      opened = true;
    }
    // From the hand panel's heading, Tab leads to "Other animal", "Out of the game", then
    // the stables it may go to.
    if (moveFocus && opened) document.getElementById("hold-title")?.focus({ preventScroll: true });
  }

  function say(text) {
    let region = document.getElementById("bj-say");
    if (!region) {
      region = document.createElement("p");
      region.id = "bj-say";
      region.className = "visually-hidden";
      region.setAttribute("aria-live", "polite");
      document.body.append(region);
    }
    region.textContent = text;
  }

  document.addEventListener("click", (event) => {
    const pick = event.target.closest(".bj-pick");
    if (pick) {
      picked = picked === pick.dataset.key ? null : pick.dataset.key;
      showPick(true);
      // The sentence comes in the viewer's language from the table's data-say-pick.
      const sentence = table()?.dataset.sayPick || "{animal}";
      if (picked) say(sentence.replace("{animal}", pick.dataset.animal));
      return;
    }
    if (event.target.closest(".bj-repick")) {
      picked = null;
      showPick(false);
      table()?.querySelector(".bj-pick")?.focus({ preventScroll: true });
    }
  });

  // A swap can take away the control that had focus (the card just taken): keyboard
  // players land on the hand panel's heading (never on another move, which a second Enter
  // would press) and Tab on from there.
  let focusWasOnTable = false;
  document.addEventListener("focusin", (event) => {
    focusWasOnTable = Boolean(event.target.closest && event.target.closest(".bj"));
  });

  let headline = "";
  function afterSwap() {
    showPick(false);
    const active = document.activeElement;
    if (focusWasOnTable && (!active || active === document.body)) {
      document.getElementById("hold-title")?.focus({ preventScroll: true });
    }
    const text = document.getElementById("bj-headline")?.textContent.trim() || "";
    if (text && text !== headline) {
      if (headline) say(text);
      headline = text;
    }
  }

  document.addEventListener("live:swapped", afterSwap);
  afterSwap();
})();
