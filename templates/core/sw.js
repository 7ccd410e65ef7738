// Bunko Night's service worker. It keeps the app's look (styles, scripts, icons) so a phone
// whose Wi-Fi drops still shows a page that says so and comes back by itself. It never keeps
// a page or a score: pages go to the laptop every time, and live scores come over the socket.
const SHELL = {{ shell|safe }};
const CACHE = "bunko-shell-" + btoa(SHELL.join("|")).slice(-24);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("bunko-shell-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // A page: always from the laptop; only when it cannot be reached, the offline page.
    event.respondWith(fetch(request).catch(() => caches.match("/offline/")));
    return;
  }
  if (SHELL.includes(url.pathname)) {
    // The shell's files have hashed names: a kept copy is never out of date.
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  }
  // Everything else (fragments, the QR code, sheets, sockets) goes to the network untouched.
});
