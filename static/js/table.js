// The table page's small behaviours; htmx and its websocket extension do the rest.
(function () {
  "use strict";

  var socket = null;
  var PING_EVERY_MS = 25000;

  // Reconnect soon after a drop, then back off (with jitter) to at most 5 seconds.
  htmx.config.wsReconnectDelay = function (retryCount) {
    var ceiling = Math.min(500 * Math.pow(2, retryCount), 5000);
    return ceiling / 2 + Math.random() * ceiling / 2;
  };

  function banner(show) {
    var el = document.getElementById("connection");
    if (el) { el.hidden = !show; }
  }

  document.body.addEventListener("htmx:wsConnecting", function () { banner(true); });
  document.body.addEventListener("htmx:wsOpen", function (evt) {
    socket = evt.detail.socketWrapper;
    banner(false);
  });
  document.body.addEventListener("htmx:wsClose", function () { banner(true); });
  document.body.addEventListener("htmx:wsError", function () { banner(true); });

  // Empty the chat box once its message is on its way.
  document.body.addEventListener("htmx:wsAfterSend", function (evt) {
    var form = evt.target && evt.target.closest && evt.target.closest("#chat-form");
    if (form) { form.reset(); }
  });

  // The invite link is selected whole when focused, ready to copy.
  document.body.addEventListener("focusin", function (evt) {
    if (evt.target.matches && evt.target.matches(".invite__link")) { evt.target.select(); }
  });

  // Keep the server's list of who is here fresh.
  setInterval(function () {
    if (socket) { socket.send(JSON.stringify({ kind: "ping" })); }
  }, PING_EVERY_MS);

  // The turn clock: the server sends the deadline; the page counts down to it.
  function tick() {
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      var seconds = el.querySelector(".countdown__seconds");
      if (seconds) { seconds.textContent = left; }
      el.classList.toggle("countdown--urgent", left <= 10);
    });
  }
  setInterval(tick, 1000);
  document.body.addEventListener("htmx:wsAfterMessage", tick);

  // Notices fade after a while so the next one is noticed.
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    var notice = document.getElementById("notice");
    if (notice && notice.textContent.trim()) {
      clearTimeout(notice._timer);
      notice._timer = setTimeout(function () { notice.textContent = ""; }, 6000);
    }
  });
})();
