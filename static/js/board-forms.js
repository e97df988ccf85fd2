// The board's own forms (sit down, the bots, invite, start, leave, play again: marked
// data-board-post) are posted from the board rather than from the form. The board's
// regions are drawn anew over the socket whenever the table changes, often while such a
// request is on its way, and htmx handles an answer from the element that sent the
// request: once that form is gone, the notice in the answer is looked for in the removed
// part of the page only, and the answer's events never reach the page. The board itself
// is never replaced, so its answers always land. Without this script, the forms post
// and the page reloads with a message.
(function () {
  "use strict";

  var board = document.querySelector(".board");
  if (!board || !window.htmx) { return; }

  // one request at a time, in the order they were made, none dropped
  board.setAttribute("hx-sync", "this:queue all");

  board.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (evt.defaultPrevented || !(form instanceof HTMLFormElement) || !form.hasAttribute("data-board-post")) {
      return;
    }
    evt.preventDefault();
    var values = new FormData(form);
    var button = evt.submitter;
    if (button && button.name) { values.append(button.name, button.value); }
    htmx.ajax("POST", form.action, { source: board, target: board, swap: "none", values: values });
  });
})();
