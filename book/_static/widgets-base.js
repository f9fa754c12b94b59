/* Prepare the page for the widget manager (embed-amd.js, loaded next).
 *
 * 1. Where its files are. The manager finds its icon fonts next to the AMD
 *    module "@jupyter-widgets/html-manager/dist/...", and any widget module it
 *    does not bundle under "<base>@jupyter-widgets/...", where <base> is a CDN
 *    (jsDelivr) unless a script element carries data-jupyter-widgets-cdn. The
 *    book serves those files from _static/vendor/, so point both there. The
 *    path depends on how deep the page is, so it is computed from this
 *    script's own address. The same goes for anywidget's front end, which
 *    the manager asks require.js for by its module name "anywidget".
 * 2. MathJax. html-manager 1.0.15 typesets widget labels with MathJax 2's
 *    MathJax.Hub.Queue; the book runs MathJax 3, where that is undefined and
 *    every widget failed with "Cannot read properties of undefined (reading
 *    'Queue')". Give it a MathJax.Hub that calls MathJax 3.
 */
(() => {
  const vendor = document.currentScript.src.split("?")[0]
    .replace(/widgets-base\.js$/, "vendor/");

  const marker = document.createElement("script");
  marker.type = "text/plain";
  marker.dataset.jupyterWidgetsCdn = vendor;
  document.head.appendChild(marker);

  if (window.require && window.require.config) {
    window.require.config({
      paths: {
        "@jupyter-widgets/html-manager/dist":
          vendor + "@jupyter-widgets/html-manager/dist",
        // anywidget's front end (AMD bundle from npm anywidget): the live
        // figures of lib/figures/live.py are anywidgets.
        "anywidget": vendor + "anywidget/dist/index",
      },
    });
  }

  // MathJax (deferred) has run by DOMContentLoaded, and this listener is
  // registered before the widget manager's own.
  document.addEventListener("DOMContentLoaded", () => {
    const mj = window.MathJax;
    if (mj && mj.typesetPromise && !mj.Hub) {
      mj.Hub = {
        Queue: (job) => {
          const element = Array.isArray(job) ? job[2] : undefined;
          mj.startup.promise.then(() => mj.typesetPromise(element ? [element] : undefined));
        },
      };
    }
  });
})();
