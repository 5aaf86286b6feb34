/* The page viewer and its manual-fact panel (no inline script: CSP 'self').

   - A selection inside [data-manual-source] (the chunk's text) is copied into
     the panel's quote field [data-manual-quote], so the reviewer marks the
     passage with the mouse; the server checks that it is verbatim.
   - The panel's refusals (400/403/404/409) are swapped in like a success, so
     the message appears where the reviewer typed and nothing typed is lost
     (htmx swaps only 2xx answers by itself). */
(function () {
  "use strict";
  if (window.belegtPageViewer) return;
  window.belegtPageViewer = true;

  function sourceOf(node) {
    var element = node && (node.nodeType === 1 ? node : node.parentElement);
    return element && element.closest ? element.closest("[data-manual-source]") : null;
  }

  function takeSelection() {
    var selection = window.getSelection ? window.getSelection() : null;
    if (!selection || selection.isCollapsed || selection.rangeCount === 0) return;
    var source = sourceOf(selection.anchorNode);
    if (!source || sourceOf(selection.focusNode) !== source) return;
    var text = selection.toString().trim();
    if (!text) return;
    var panel = source.closest("[data-manual-fact]");
    var field = panel && panel.querySelector("[data-manual-quote]");
    if (!field) return;
    field.value = text;
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // A new passage answers the last refusal: take its message away.
  document.addEventListener("input", function (event) {
    var target = event.target;
    if (!target || !target.matches || !target.matches("[data-manual-quote]")) return;
    var panel = target.closest("[data-manual-fact]");
    var error = panel && panel.querySelector("[data-manual-error]");
    if (error) error.remove();
  });

  // The viewer is a page of its own: bring it (below the case header) into
  // view, so that page, zoom bar and panel use the whole window.
  function showViewer() {
    var viewer = document.querySelector("[data-pageview]");
    if (viewer && window.scrollY === 0 && viewer.getBoundingClientRect().top > 80) {
      viewer.scrollIntoView({ block: "start" });
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", showViewer);
  } else {
    showViewer();
  }
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "tab-content") {
      showViewer();
    }
  });

  document.addEventListener("mouseup", function (event) {
    if (sourceOf(event.target)) window.setTimeout(takeSelection, 0);
  });
  document.addEventListener("keyup", function (event) {
    if (event.shiftKey && sourceOf(event.target)) takeSelection();
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!target || target.id !== "manual-fact") return;
    if (status === 400 || status === 403 || status === 404 || status === 409) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
