// Every page: the installable app's service worker, and on iOS Safari (outside the
// installed app) a hint that notifications need the site on the Home Screen.
(function () {
  "use strict";

  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  }

  function isIOS() {
    var ua = navigator.userAgent || "";
    // iPadOS 13+ says it is a Mac, but has touch
    return /iPhone|iPad|iPod/.test(ua) ||
      (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
  }
  function isSafari() {
    var ua = navigator.userAgent || "";
    return /Safari/.test(ua) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(ua);
  }
  function standalone() {
    return navigator.standalone === true ||
      (window.matchMedia && window.matchMedia("(display-mode: standalone)").matches);
  }
  var KEY = "stopbus-ios-hint-dismissed";
  window.stopbusShowIOSHint = function () {
    return isIOS() && isSafari() && !standalone();
  };
  var hint = document.getElementById("ios-home-hint");
  var dismissed = false;
  try { dismissed = window.localStorage.getItem(KEY) === "1"; } catch (e) { /* private mode */ }
  if (hint && document.querySelector(".bell") && window.stopbusShowIOSHint() && !dismissed) {
    hint.hidden = false;
    var close = document.getElementById("ios-home-hint-close");
    if (close) {
      close.addEventListener("click", function () {
        hint.hidden = true;
        try { window.localStorage.setItem(KEY, "1"); } catch (e) { /* private mode */ }
      });
    }
  }
})();
