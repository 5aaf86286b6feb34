/* Review queue: keyboard first (j/k move, a accept, e edit, d dispute,
   r reject, x select, ? help, Esc cancel). Requests go through htmx; this
   file only maps keys to the buttons and links that are already there. */
(function () {
  "use strict";
  if (window.belegtReview) return;
  window.belegtReview = true;

  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-review-row]"));
  }
  function current() {
    return document.querySelector('[data-review-row][aria-current="true"]');
  }
  function detail() { return document.getElementById("rq-detail"); }
  function decideForm() {
    var d = detail();
    return d ? d.querySelector("form[data-decide]") : null;
  }

  function select(row, load) {
    rows().forEach(function (r) {
      if (r === row) r.setAttribute("aria-current", "true");
      else r.removeAttribute("aria-current");
    });
    if (!row) return;
    row.scrollIntoView({ block: "nearest" });
    if (load && window.htmx) {
      window.htmx.ajax("GET", row.dataset.detailUrl, { target: "#rq-detail", swap: "innerHTML" });
    }
  }

  function move(delta) {
    var list = rows();
    if (!list.length) return;
    var index = list.indexOf(current());
    index = index < 0 ? 0 : Math.min(list.length - 1, Math.max(0, index + delta));
    select(list[index], true);
  }

  function submit(form, selector) {
    var button = form.querySelector(selector);
    // A click (not requestSubmit) so that htmx sends the button's name/value.
    if (button) button.click();
  }

  function startEdit(form) {
    var fields = form.querySelector("[data-editor]");
    if (!fields) return;
    fields.disabled = false;
    form.classList.add("is-editing");
    form.querySelector("[data-save-edit]").hidden = false;
    var first = fields.querySelector("[data-first-field]");
    if (first) first.focus();
  }

  function startDispute(form) {
    var box = form.querySelector("[data-reason]");
    box.hidden = false;
    form.classList.add("is-disputing");
    form.querySelector("[data-save-dispute]").hidden = false;
    form.querySelector("[data-reason-input]").focus();
  }

  function cancel(form) {
    var fields = form.querySelector("[data-editor]");
    if (fields) fields.disabled = true;
    form.classList.remove("is-editing", "is-disputing");
    form.querySelector("[data-reason]").hidden = true;
    form.querySelector("[data-save-edit]").hidden = true;
    form.querySelector("[data-save-dispute]").hidden = true;
    if (document.activeElement) document.activeElement.blur();
  }

  function help() {
    var dialog = document.getElementById("rq-help");
    if (!dialog) return;
    if (dialog.open) dialog.close(); else dialog.showModal();
  }

  document.addEventListener("click", function (event) {
    var form = decideForm();
    if (!form || !form.contains(event.target)) return;
    if (event.target.closest("[data-edit-toggle]")) startEdit(form);
    if (event.target.closest("[data-dispute-toggle]")) startDispute(form);
  });

  document.addEventListener("keydown", function (event) {
    if (!document.querySelector("[data-review-queue]")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var form = decideForm();
    var target = event.target;
    var typing = target && target.closest && target.closest("input, textarea, select");
    if (typing && form && form.contains(target)) {
      if (event.key === "Escape") { event.preventDefault(); cancel(form); }
      if (event.key === "Enter" && target.tagName !== "TEXTAREA") {
        event.preventDefault();
        if (form.classList.contains("is-disputing")) submit(form, "[data-save-dispute]");
        else if (form.classList.contains("is-editing")) submit(form, "[data-save-edit]");
      }
      return;
    }
    if (typing) return;
    switch (event.key) {
      case "j": event.preventDefault(); move(1); break;
      case "k": event.preventDefault(); move(-1); break;
      case "?": event.preventDefault(); help(); break;
      case "x": {
        var row = current();
        var box = row && row.querySelector("[data-row-check]");
        if (box) { event.preventDefault(); box.checked = !box.checked; }
        break;
      }
      case "u": {
        var undo = document.querySelector("#rq-detail [data-undo]");
        if (undo) { event.preventDefault(); undo.click(); }
        break;
      }
      case "A": case "R": {
        var checked = document.querySelectorAll("[data-row-check]:checked").length;
        var bulk = document.querySelector('[data-bulk="' + (event.key === "A" ? "accept" : "reject") + '"]');
        if (checked && bulk) { event.preventDefault(); bulk.click(); }
        break;
      }
      case "a": if (form) { event.preventDefault(); submit(form, '[data-key="a"]'); } break;
      case "r": if (form) { event.preventDefault(); submit(form, '[data-key="r"]'); } break;
      case "e": if (form) { event.preventDefault(); startEdit(form); } break;
      case "d": if (form) { event.preventDefault(); startDispute(form); } break;
      default: break;
    }
  });

  // A conflict (409), a missing role (403) or an invalid value (400) carries
  // the item with its message: show it instead of dropping the answer.
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    var inside = event.detail.target && event.detail.target.closest &&
      event.detail.target.closest("[data-review-queue]");
    if (inside && (status === 400 || status === 403 || status === 409)) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // The desk fills the screen below the header: its height is the viewport
  // minus where it starts (a CSS variable, set through the CSSOM: no inline
  // style attribute under the CSP).
  function fitDesk() {
    var desk = document.querySelector("[data-review-desk] .rq__layout");
    if (!desk) return;
    var top = desk.getBoundingClientRect().top + window.scrollY;
    document.documentElement.style.setProperty("--rq-top", Math.round(top) + "px");
  }

  // Scroll the page pane so that the highlighted quote is in view.
  function showHighlight() {
    var viewport = document.querySelector("#rq-detail [data-sheet-viewport]");
    if (!viewport) return;
    var box = viewport.querySelector("[data-quote-box]") || viewport.querySelector("[data-chunk-box]");
    if (!box) return;
    var place = function () {
      var outer = viewport.getBoundingClientRect();
      var inner = box.getBoundingClientRect();
      var offset = inner.top - outer.top + viewport.scrollTop;
      viewport.scrollTop = Math.max(0, offset - viewport.clientHeight / 3);
    };
    var img = viewport.querySelector("img");
    if (img && !img.complete) img.addEventListener("load", place, { once: true });
    else place();
  }

  function ready() { fitDesk(); showHighlight(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
  window.addEventListener("resize", fitDesk);
  document.addEventListener("toggle", fitDesk, true);

  // After an item arrived, mark its row as the current one.
  document.body.addEventListener("htmx:afterSettle", function () {
    fitDesk();
    showHighlight();
    var item = document.querySelector("#rq-detail [data-proposal-id]");
    if (!item) return;
    var row = document.getElementById("rq-row-" + item.dataset.proposalId);
    if (row && row !== current()) select(row, false);
  });
})();
