/* Site-wide behaviour that used to sit in inline handlers (the
   Content-Security-Policy allows no inline script, and htmx runs with
   allowEval=false, so no hx-on attributes either).

   - form[data-reset-after-request]: reset after its htmx request (the upload
     form, so that the same file can be chosen again).
   - form[data-error-target]: when its htmx request fails (htmx swaps only
     2xx answers), show the server's message in that list, e.g. the 413 of
     an upload that is too large. */
(function () {
  "use strict";
  if (window.belegtSite) return;
  window.belegtSite = true;

  function formOf(event) {
    var elt = event.detail && event.detail.elt;
    return elt && elt.closest ? elt.closest("form") : null;
  }

  // htmx keeps a snapshot of the page for Back; it serialises attributes,
  // not what the user typed. Write typed values into the attributes first,
  // so that Back shows the query (and filters) that led to the results.
  document.addEventListener("htmx:beforeHistorySave", function () {
    document.querySelectorAll("form[role=search] input").forEach(function (input) {
      if (input.type !== "hidden") input.setAttribute("value", input.value);
    });
    document.querySelectorAll("form[role=search] select").forEach(function (select) {
      Array.prototype.forEach.call(select.options, function (option) {
        if (option.selected) option.setAttribute("selected", "");
        else option.removeAttribute("selected");
      });
    });
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = formOf(event);
    if (form && form.hasAttribute("data-reset-after-request")) form.reset();
  });

  function showError(event, fallback) {
    var form = formOf(event);
    if (!form || !form.dataset.errorTarget) return;
    var list = document.querySelector(form.dataset.errorTarget);
    if (!list) return;
    var xhr = event.detail.xhr;
    var text = fallback;
    if (xhr && xhr.responseText) {
      var type = xhr.getResponseHeader("Content-Type") || "";
      if (type.indexOf("text/plain") === 0) text = xhr.responseText;
      else if (type.indexOf("application/json") === 0) {
        try { text = JSON.parse(xhr.responseText).message || fallback; } catch (e) { /* keep fallback */ }
      }
    }
    var item = document.createElement("li");
    item.className = "doc doc--refused";
    item.setAttribute("data-outcome", "error");
    var message = document.createElement("p");
    message.className = "doc__error";
    message.setAttribute("role", "alert");
    message.textContent = text;
    item.appendChild(message);
    list.insertBefore(item, list.firstChild);
  }

  document.addEventListener("htmx:responseError", function (event) {
    showError(event, document.documentElement.lang === "de"
      ? "Die Anfrage ist fehlgeschlagen." : "The request failed.");
  });
  document.addEventListener("htmx:sendError", function (event) {
    showError(event, document.documentElement.lang === "de"
      ? "Der Server ist nicht erreichbar." : "The server cannot be reached.");
  });
})();
