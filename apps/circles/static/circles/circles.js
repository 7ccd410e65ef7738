// Copy buttons: <button data-copy="#input-id">. The input is selected first, so a phone
// without clipboard access (plain http on a LAN) can still copy by hand.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const field = document.querySelector(button.dataset.copy);
  if (!field) return;
  field.focus();
  field.select();
  const done = () => {
    const label = button.textContent;
    button.textContent = button.dataset.copied || "Copied";  // in the page's language
    setTimeout(() => { button.textContent = label; }, 1500);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(done, () => document.execCommand("copy") && done());
  } else if (document.execCommand("copy")) {
    done();
  }
});

// A new circle's time zone: the laptop's own, when the server only knows UTC.
const zone = document.querySelector("select[data-guess-timezone]");
if (zone && zone.value === "UTC") {
  const guess = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (guess && [...zone.options].some((option) => option.value === guess)) zone.value = guess;
}
