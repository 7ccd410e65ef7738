// The big screen: full screen, standings that take turns, and the night's moments shown
// large for the room (a Bunko, a wipeout, STOP, a travelling prize changing hands, the end
// of a round, the end of the night).
(function () {
  "use strict";

  const button = document.getElementById("fullscreen");
  if (button) {
    button.addEventListener("click", () => {
      if (document.fullscreenElement) document.exitFullscreen();
      else document.documentElement.requestFullscreen?.();
    });
    document.addEventListener("fullscreenchange", () => {
      button.hidden = !!document.fullscreenElement;
    });
  }

  let still = null;
  function stir() {
    document.body.classList.remove("still");
    clearTimeout(still);
    still = setTimeout(() => document.body.classList.add("still"), 8000);
  }
  document.addEventListener("mousemove", stir);
  document.addEventListener("keydown", stir);
  stir();

  // A table's words are read in full, never cut: each card gets the largest type (--fit,
  // a share of what its size allows) at which its names and moves fit.
  function inside(card) {
    // Inside the card's border, not on it: the card clips its words at the border's inner
    // edge, so a last line reaching into the border loses its descenders.
    const outer = card.getBoundingClientRect();
    const top = outer.top + card.clientTop;
    const bottom = top + card.clientHeight;
    const right = outer.left + card.clientLeft + card.clientWidth;
    // (A playing table's state line may end in "…": it changes with every roll.)
    for (const el of card.querySelectorAll("h3, .names, .next, .score")) {
      const r = el.getBoundingClientRect();
      if (el.scrollWidth > el.clientWidth + 1) return false;
      if (r.top < top || r.bottom > bottom || r.right > right) return false;
    }
    return true;
  }
  function fit(card) {
    let low = 0.35;
    let high = 1;
    card.classList.remove("squeezed");
    card.style.setProperty("--fit", "1");
    if (inside(card)) return;
    for (let step = 0; step < 6; step++) {
      const middle = (low + high) / 2;
      card.style.setProperty("--fit", middle.toFixed(3));
      if (inside(card)) low = middle;
      else high = middle;
    }
    card.style.setProperty("--fit", low.toFixed(3));
    if (!inside(card)) card.classList.add("squeezed");
  }
  // Cards are swapped whole: a card without --fit is new (a tap must not refit 250 tables).
  const fitNew = () =>
    document.querySelectorAll(".tv-table").forEach((card) => {
      if (!card.style.getPropertyValue("--fit")) fit(card);
    });
  fitNew();
  document.addEventListener("live:swapped", fitNew);
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => document.querySelectorAll(".tv-table").forEach(fit), 150);
  });

  // Standings: one page at a time, the next every 8 seconds.
  let page = 0;
  setInterval(() => {
    const pages = document.querySelectorAll("#side .standings-page");
    if (pages.length < 2) return;
    page = (page + 1) % pages.length;
    pages.forEach((el, i) => (el.hidden = i !== page));
  }, 8000);
  document.addEventListener("live:swapped", () => {
    const pages = document.querySelectorAll("#side .standings-page");
    if (page >= pages.length) page = 0;
    pages.forEach((el, i) => (el.hidden = i !== page));
  });

  // Moments: one at a time, each for a few seconds; the live region says them too.
  const queue = [];
  let showing = false;
  function moment(kind, text, more) {
    queue.push({ kind, text, more: more || "" });
    if (!showing) next();
  }
  function next() {
    const box = document.getElementById("moment");
    const item = queue.shift();
    if (!box || !item) {
      showing = false;
      return;
    }
    showing = true;
    box.dataset.kind = item.kind;
    box.querySelector(".moment-text").textContent = item.text;
    box.querySelector(".moment-more").textContent = item.more;
    box.hidden = false;
    const status = document.getElementById("live-announce");
    if (status) status.textContent = item.text + " " + item.more;
    setTimeout(() => {
      box.hidden = true;
      setTimeout(next, 300);
    }, item.kind === "ended" ? 8000 : 4000);
  }

  // The moments' words come in the screen's language from the banner's data-* attributes
  // (screen.html; a fragment, so they follow when the host changes the screen's language):
  // "{player} at table {table}" with the names filled in here.
  function say(key, values) {
    const text = (document.getElementById("banner") || { dataset: {} }).dataset[key] || "";
    return text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
  }
  // A ghost seat's stored name ("Ghost 1") in the screen's language.
  const shown = (name) => {
    const ghost = /^Ghost (\d+)$/.exec(name || "");
    return ghost ? say("ghost", { number: ghost[1] }) || name : name;
  };
  const at = (d) => say("atTable", { player: shown(d.player), table: d.table });

  document.addEventListener("live:bunko", (e) => moment("bunko", "BUNKO!", at(e.detail.data)));
  document.addEventListener("live:wipeout", (e) =>
    moment("wipeout", "Wipeout!", at(e.detail.data)),
  );
  document.addEventListener("live:stop", () => moment("stop", "STOP!", say("stop", {})));
  document.addEventListener("live:travelling", (e) => {
    const d = e.detail.data;
    if (!d.to) return;
    const takes = say(d.prize === "bunko" ? "takesBunko" : "takesWipeout", { name: d.to });
    moment(d.prize, takes, d.came_from ? say("from", { name: d.came_from }) : "");
  });
  document.addEventListener("live:round_over", (e) =>
    moment("over", say("roundOver", { round: e.detail.data.round }), say("moveOn", {})),
  );
  document.addEventListener("live:ended", (e) => {
    const d = e.detail.data;
    moment("ended", say("ended", {}), d.winner ? say("mostWins", { name: d.winner }) : "");
  });
})();
