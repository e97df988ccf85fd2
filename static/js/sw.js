// The service worker (served from /sw.js, scope "/"): shows pushes, opens the table on a
// click, and shows the offline page when the network is gone.
"use strict";

var CACHE = "stopbus-offline-v1";
var OFFLINE_URL = "/offline/";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.add(new Request(OFFLINE_URL, { cache: "reload" })); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return k !== CACHE; })
        .map(function (k) { return caches.delete(k); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// Pages come from the network; when it is gone, the offline page.
self.addEventListener("fetch", function (event) {
  if (event.request.mode !== "navigate") { return; }
  event.respondWith(
    fetch(event.request).catch(function () {
      return caches.open(CACHE).then(function (cache) { return cache.match(OFFLINE_URL); });
    })
  );
});

function readPush(event) {
  var data = {};
  if (event.data) {
    try { data = event.data.json(); } catch (e) { data = { title: event.data.text() }; }
  }
  return data;
}

self.addEventListener("push", function (event) {
  var data = readPush(event);
  var title = data.title || "Stop the Bus";
  var url = data.url || "/";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || "",
      tag: data.tag || undefined,
      renotify: !!data.tag,
      icon: "/static/img/app/icon-192.png",
      badge: "/static/img/app/icon-192.png",
      data: { url: url, table: data.table || "" }
    })
  );
});

// A click on a notification: the table's page, focused if open, else an open page of
// the site taken there, else a new window.
function openFromNotification(notification) {
  var url = new URL((notification.data && notification.data.url) || "/",
                    self.location.origin).href;
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    var same = windows.filter(function (w) { return w.url === url; })[0];
    if (same) { return same.focus(); }
    var any = windows.filter(function (w) { return "navigate" in w; })[0];
    if (any) {
      return any.navigate(url).then(function (w) {
        return (w || any).focus().catch(function () { return w; });
      });
    }
    return self.clients.openWindow(url);
  });
}
self.openFromNotification = openFromNotification;

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  event.waitUntil(openFromNotification(event.notification));
});
