// Every page: flash messages go when they are stale.
(function () {
  "use strict";

  var STALE_AFTER_MS = 10000;

  function dismiss(message) {
    if (message && message.parentNode) { message.parentNode.removeChild(message); }
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("[data-dismiss]");
    if (button) { dismiss(button.closest(".message")); }
  });

  // Good news ("You sat down", "Your table is open") is true only for a moment; errors
  // and warnings stay until dismissed. A page that changes under the reader (the table)
  // drops them sooner: see table.js.
  setTimeout(function () {
    document.querySelectorAll(".message--success, .message--info").forEach(dismiss);
  }, STALE_AFTER_MS);

  // A form sent back with errors: the first field in error has the focus (not the one
  // the form puts first, whose autofocus would otherwise win), so that a keyboard or
  // screen-reader user lands where the form needs them.
  function focusFirstError() {
    var field = document.querySelector('form [aria-invalid="true"]');
    if (field && typeof field.focus === "function") { field.focus(); }
  }
  // (again once the page has loaded: the browser may give the autofocus field the focus
  // only after the page is parsed)
  focusFirstError();
  window.addEventListener("load", function () { window.requestAnimationFrame(focusFirstError); });

  // The lobby's or /turns' socket closed because the sign-in ended (logged out in another
  // tab, a new password, an account switched off: 4401): the page loads again, as the
  // signed-out visitor now sees it, rather than go on naming them in its header. (A
  // table's page says so in its notice line: table.js.)
  document.addEventListener("htmx:wsClose", function (evt) {
    var closed = evt.detail && evt.detail.event;
    if (closed && closed.code === 4401 && !(evt.target.closest && evt.target.closest(".table-page"))) {
      window.location.reload();
    }
  });

  // A menu that opens in place (the notifications' bell, the table's keyboard help)
  // closes with Escape, and the focus goes back to what opened it.
  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Escape") { return; }
    var open = evt.target.closest && evt.target.closest("details[open]");
    if (!open) { return; }
    open.open = false;
    var summary = open.querySelector("summary");
    if (summary) { summary.focus(); }
    evt.preventDefault();
  });

  window.stopbusDropStaleMessages = function () {
    document.querySelectorAll(".message--success, .message--info").forEach(dismiss);
  };
})();
