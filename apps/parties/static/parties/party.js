// The party pages' moments: the STOP bell, the Bunko celebration, and a phone that stays awake.
(function () {
  "use strict";

  let audio = null;
  // Browsers only play sound after a user gesture; the first tap unlocks it.
  document.addEventListener(
    "pointerdown",
    () => {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    },
    { once: true },
  );

  function bell() {
    if (!audio) return;
    const now = audio.currentTime;
    for (const [delay, freq] of [[0, 1318], [0.35, 1318], [0.7, 1568]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "triangle";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + delay);
      gain.gain.exponentialRampToValueAtTime(0.6, now + delay + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + delay + 1.2);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + delay);
      osc.stop(now + delay + 1.3);
    }
  }

  function celebrate(text, kind) {
    const layer = document.getElementById("celebration");
    if (!layer) return;
    layer.textContent = text;
    layer.dataset.kind = kind;
    layer.classList.remove("show");
    void layer.offsetWidth; // restart the animation
    layer.classList.add("show");
    // The live region says it too, for screen readers.
    const status = document.getElementById("live-announce");
    if (status) status.textContent = text;
    setTimeout(() => layer.classList.remove("show"), 3500);
  }

  // A ghost seat's stored name ("Ghost 1", apps.parties.rules.attendance) in the phone's
  // language: the moment is sent once to a whole table, whatever each phone reads.
  function shown(name) {
    const layer = document.getElementById("celebration");
    const ghost = /^Ghost (\d+)$/.exec(name || "");
    const words = layer && layer.dataset.ghost;
    return ghost && words ? words.replace("{number}", ghost[1]) : name;
  }

  // A Bunko or a wipeout reaches only its table's phones and the screens; STOP everyone.
  document.addEventListener("live:stop", (e) => {
    document.body.dataset.stopRound = String(e.detail.data.round); // styles and tests read it
    bell();
    celebrate("STOP!", "stop");
  });
  document.addEventListener("live:bunko", (e) => {
    celebrate("BUNKO! " + shown(e.detail.data.player), "bunko");
    bell();
  });
  document.addEventListener("live:wipeout", (e) => {
    const layer = document.getElementById("celebration");
    const words = (layer && layer.dataset.wipeout) || "Wipeout: {player}";
    celebrate(words.replace("{player}", shown(e.detail.data.player)), "wipeout");
  });

  // Keep the phone's screen on while a round is on (Screen Wake Lock, where the browser
  // offers it: it needs https or localhost).
  let lock = null;
  async function keepAwake() {
    const banner = document.getElementById("banner");
    const roundOn = banner && banner.dataset.roundOn === "1";
    try {
      if (roundOn && !lock && "wakeLock" in navigator && document.visibilityState === "visible") {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => {
          lock = null;
        });
      } else if (!roundOn && lock) {
        await lock.release();
        lock = null;
      }
    } catch (e) {
      lock = null; // refused (battery saver, insecure context): the page still works
    }
    document.body.dataset.awake = lock ? "1" : "0";
  }
  document.addEventListener("live:swapped", keepAwake);
  document.addEventListener("visibilitychange", keepAwake);
  keepAwake();
})();
