// The notification settings page: turn browser notifications on or off for this device
// (the Push API, with the site's VAPID public key), and the iOS Home Screen hint.
(function () {
  "use strict";

  var panel = document.getElementById("push-panel");
  if (!panel || !panel.dataset.vapidKey) { return; }
  var enable = document.getElementById("push-enable");
  var disable = document.getElementById("push-disable");
  var status = document.getElementById("push-status");
  var messages = document.getElementById("push-messages");
  var csrf = (document.querySelector("[name=csrfmiddlewaretoken]") || {}).value || "";

  function say(key) {
    var el = messages && messages.content.querySelector('[data-msg="' + key + '"]');
    status.textContent = el ? el.textContent : "";
  }

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4))
      .replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(padded);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { out[i] = raw.charCodeAt(i); }
    return out;
  }

  function post(url, subscription) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(subscription.toJSON())
    }).then(function (response) {
      if (!response.ok) { throw new Error("refused"); }
    });
  }

  function show(subscribed) {
    enable.hidden = subscribed;
    disable.hidden = !subscribed;
    say(subscribed ? "on" : "off");
  }

  var iosHint = document.getElementById("ios-hint");
  if (iosHint && window.stopbusShowIOSHint && window.stopbusShowIOSHint()) {
    iosHint.hidden = false;
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.isSecureContext) {
    say("unsupported");
    return;
  }
  if (window.Notification && Notification.permission === "denied") {
    say("denied");
    return;
  }

  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (registration) {
    return registration.pushManager.getSubscription().then(function (existing) {
      if (existing) { post(panel.dataset.subscribeUrl, existing).catch(function () {}); }
      show(!!existing);

      enable.addEventListener("click", function () {
        registration.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: keyBytes(panel.dataset.vapidKey)
        }).then(function (subscription) {
          return post(panel.dataset.subscribeUrl, subscription);
        }).then(function () { show(true); }).catch(function () {
          say(window.Notification && Notification.permission === "denied" ? "denied" : "failed");
        });
      });
      disable.addEventListener("click", function () {
        registration.pushManager.getSubscription().then(function (subscription) {
          if (!subscription) { return show(false); }
          return post(panel.dataset.unsubscribeUrl, subscription).catch(function () {})
            .then(function () { return subscription.unsubscribe(); })
            .then(function () { show(false); });
        });
      });
    });
  }).catch(function () { say("unsupported"); });
})();
