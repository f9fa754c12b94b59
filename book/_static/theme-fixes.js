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
