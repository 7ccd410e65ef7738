// The page the app's worker shows while the laptop is out of reach: back to where the phone
// was as soon as the laptop answers.
(function () {
  "use strict";
  function retry() {
    location.reload();
  }
  document.querySelector("[data-retry]").addEventListener("click", retry);
  window.addEventListener("online", retry);
  // A GET: the pages answer HEAD with 405, which would keep the phone here for good when
  // only the laptop restarted (no "online" event comes then).
  setInterval(function () {
    fetch(location.href, { cache: "no-store" })
      .then(function (r) {
        if (r.ok) retry();
      })
      .catch(function () {});
  }, 4000);
})();
