// The lobby's first-visit "How to play": shown until dismissed, then remembered in the
// browser (and, for a signed-in player, on the account: the server leaves it out).
(function () {
  "use strict";

  var KEY = "stopbus-how-to-play-seen";
  var intro = document.getElementById("how-to-intro");
  if (!intro) { return; }

  function seen() {
    try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }

  // A signed-in player's account remembers it too (a visitor who dismissed it and then
  // played as a guest, or signed up, is not shown it again on another device).
  function remember() {
    if (!intro.dataset.seenUrl) { return; }
    var token = document.querySelector("input[name=csrfmiddlewaretoken]");
    fetch(intro.dataset.seenUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "X-CSRFToken": token ? token.value : "", "HX-Request": "true",
                 "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ how_to_play_seen: "on" })
    });
  }

  if (seen()) {
    intro.hidden = true;
    remember();
    return;
  }

  var dismiss = document.getElementById("how-to-intro-dismiss");
  if (!dismiss) { return; }
  dismiss.addEventListener("click", function () {
    intro.hidden = true;
    try { window.localStorage.setItem(KEY, "1"); } catch (e) { /* private mode: this page only */ }
    remember();
  });
})();
