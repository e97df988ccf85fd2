// The tab title starts with the number of post tables waiting for your move: "(3) Lobby".
// The count in the navigation is swapped in live (games/_turns_live.html); this keeps the
// title in step with it.
(function () {
  "use strict";
  var prefix = /^\(\d+\)\s/;
  function update() {
    var count = document.getElementById("turns-count");
    var n = count ? parseInt(count.getAttribute("data-count"), 10) || 0 : 0;
    var title = document.title.replace(prefix, "");
    document.title = n ? "(" + n + ") " + title : title;
  }
  window.stopbusTitleCount = update;  // a page that writes its own title calls it after
  document.addEventListener("DOMContentLoaded", update);
  document.addEventListener("htmx:oobAfterSwap", update);
  document.addEventListener("htmx:wsAfterMessage", function () { window.setTimeout(update, 0); });
  update();
})();
