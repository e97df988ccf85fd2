// The replay's fair-deal check, done again by the reader's own browser: SHA-256 of the
// revealed "salt:cards" text, compared with the commitment published at the deal.
(function () {
  "use strict";

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
  }

  document.querySelectorAll("[data-verify-text]").forEach(function (el) {
    var out = el.querySelector(".browser-check__result");
    if (!out) { return; }
    if (!(window.crypto && window.crypto.subtle)) {
      out.textContent = "Your browser only computes SHA-256 on pages served over HTTPS.";
      return;
    }
    var text = new TextEncoder().encode(el.dataset.verifyText);
    window.crypto.subtle.digest("SHA-256", text).then(function (digest) {
      var computed = hex(digest);
      var same = computed === el.dataset.verifyCommitment;
      // the words in the page's language, from the template (English if it has none)
      out.textContent = computed + (same
        ? " \u2713 " + (el.dataset.equals || "equals the commitment published at the deal")
        : " \u2717 " + (el.dataset.differs || "differs from the commitment published at the deal"));
      el.classList.add(same ? "browser-check--ok" : "browser-check--bad");
      el.hidden = false;
    });
  });
})();
