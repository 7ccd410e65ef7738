// The phone check's round-trip time, measured with the socket's own ping.
(function () {
  "use strict";
  document.addEventListener("live:pong", (e) => {
    const ms = Math.round(performance.now() - e.detail.sent);
    const rtt = document.getElementById("check-rtt");
    rtt.textContent = rtt.dataset.words.replace("{ms}", ms);
  });
  document.addEventListener("live:swapped", () => {
    if (window.BunkoLive?.socket?.readyState === 1) {
      window.BunkoLive.socket.send(JSON.stringify({ type: "ping", sent: performance.now() }));
    }
  });
})();
