/* Two fixes to pydata-sphinx-theme 0.17.1 under sphinx-book-theme 1.3.0.
 *
 * 1. A reader with no stored colour mode (every first visit) gets
 *    data-mode="" from the theme's head script, and the theme then logs
 *    "Got invalid theme mode" as a console error. Start from "auto", which
 *    is what the theme falls back to anyway. This runs in <head>, before the
 *    theme's deferred script.
 */
if (!document.documentElement.dataset.mode) {
  document.documentElement.dataset.mode = "auto";
}

/* 2. Make the visible sidebar buttons work (phones and desktops).
 *
 * pydata-sphinx-theme 0.17.1 adds its own hidden ".primary-toggle" and
 * ".secondary-toggle" buttons to the top navbar, and both it and
 * sphinx-book-theme 1.3.0 attach their click handlers to the FIRST element of
 * each class only (pydata-sphinx-theme issue #2451, sphinx-book-theme #988).
 * The buttons the reader sees, in the article header, come second and do
 * nothing. Forward their clicks to the wired button: on a wide screen
 * sphinx-book-theme's handler then collapses the sidebar, on a narrow one
 * pydata-sphinx-theme's handler opens it as a dialog.
 */
document.addEventListener("DOMContentLoaded", () => {
  for (const kind of ["primary", "secondary"]) {
    const [wired, ...visible] = document.querySelectorAll(`.${kind}-toggle`);
    if (!wired) continue;
    for (const button of visible) {
      button.addEventListener("click", (event) => {
        event.preventDefault();
        event.stopImmediatePropagation();
        wired.click();
      });
    }
  }
});

/* 3. Live Code says so when it cannot start.
 *
 * sphinx-thebe loads thebe from a CDN when Live Code is pressed and shows
 * "Loading thebe from CDN..." until the script arrives, which offline is
 * never; when Binder itself fails, thebe's status just reads "failed". Tell
 * the reader within seconds what happened and what still works.
 */
const LIVE_CODE_WAIT_MS = 8000;

function liveCodeUnavailable(reason) {
  const button = document.querySelector(".thebe-launch-button");
  if (!button || button.dataset.liveCode === "unavailable") return;
  button.dataset.liveCode = "unavailable";
  button.setAttribute("role", "status");
  button.classList.add("live-code-unavailable");
  button.textContent =
    `Live Code could not start: ${reason}. Everything on this page, ` +
    "including the figures, works without it; to run the code, open the " +
    "chapter on Binder or in JupyterLab.";
}

document.addEventListener("DOMContentLoaded", () => {
  if (typeof window.initThebe !== "function") return;
  const original = window.initThebe;
  window.initThebe = (...args) => {
    const result = original(...args);
    const script = typeof THEBE_JS_URL === "string"
      ? document.head.querySelector(`script[src="${THEBE_JS_URL}"]`) : null;
    if (script) {
      script.addEventListener("error", () =>
        liveCodeUnavailable("the thebe library could not be downloaded (no network?)"));
    }
    const watchStatus = () => {
      if (typeof thebelab === "undefined") return false;
      thebelab.on("status", (event, data) => {
        if (data.status === "failed") {
          liveCodeUnavailable("mybinder.org could not be reached or refused the session");
        }
      });
      return true;
    };
    if (!watchStatus() && script) script.addEventListener("load", watchStatus);
    setTimeout(() => {
      if (typeof thebelab === "undefined") {
        liveCodeUnavailable("the thebe library did not load within a few seconds (no network?)");
      }
    }, LIVE_CODE_WAIT_MS);
    return result;
  };
});

/* 4. Names of the theme's JavaScript-only buttons (WCAG 2.5.3, label in name;
 * tests/test_accessibility.py). The search field's aria-label "Search" left
 * out its visible shortcut ("Search Ctrl+K"): without it the name is the text
 * the reader sees. The colour-mode button shows one icon, named by Font
 * Awesome ("Light", "Dark", "System Settings"), under the aria-label "Color
 * mode": the name says both and follows the mode as the button cycles it.
 */
const MODE_NAMES = {light: "Light", dark: "Dark", auto: "System Settings"};

function nameModeButtons() {
  const mode = MODE_NAMES[document.documentElement.dataset.mode] || MODE_NAMES.auto;
  for (const button of document.querySelectorAll(".theme-switch-button")) {
    button.setAttribute("aria-label", `Color mode: ${mode}`);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll(".search-button-field[aria-label]")) {
    button.removeAttribute("aria-label");
  }
  nameModeButtons();
  new MutationObserver(nameModeButtons).observe(document.documentElement,
    {attributes: true, attributeFilter: ["data-mode"]});
});
