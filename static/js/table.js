// The table page's own behaviours; htmx and its websocket extension carry the moves.
// Words shown to people come from data- attributes in the template (translated there).
(function () {
  "use strict";

  var page = document.querySelector(".table-page");
  if (!page) { return; }

  var socket = null;
  var PING_EVERY_MS = 25000;
  var reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  // without the count of post tables waiting ("(2) "), which turns.js puts back in front
  var baseTitle = document.title.replace(/^\(\d+\)\s/, "");

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
  // the page has had its board from the server (the socket's first message): marked on
  // the body, for whoever waits for a live page (the browser tests do)
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    document.body.setAttribute("data-live", "");
  }, { once: true });
  document.body.addEventListener("htmx:wsClose", function () { banner(true); });
  document.body.addEventListener("htmx:wsError", function () { banner(true); });

  // A device that lost its network may keep its socket "open" for a long while, its page
  // saying nothing. The browser's offline event shows the banner at once; coming back
  // online, or a move with no answer at all in 8 seconds (the server answers every move,
  // with the new board or a refusal), the page connects afresh and is sent the board as
  // it is now. Any message from the server hides the banner again.
  var UNANSWERED_MS = 8000;
  var unanswered = null;
  function connectAfresh() {
    banner(true);
    if (socket && socket.reconnect) { socket.reconnect(); }
  }
  window.addEventListener("offline", function () { banner(true); });
  window.addEventListener("online", connectAfresh);
  document.body.addEventListener("htmx:wsAfterSend", function (evt) {
    if (!(evt.target && evt.target.closest && evt.target.closest(".controls"))) { return; }
    clearTimeout(unanswered);
    unanswered = setTimeout(connectAfresh, UNANSWERED_MS);
  });
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    clearTimeout(unanswered);
    if (navigator.onLine !== false) { banner(false); }
  });

  // Empty the chat box once its message is on its way.
  document.body.addEventListener("htmx:wsAfterSend", function (evt) {
    var form = evt.target && evt.target.closest && evt.target.closest("#chat-form");
    if (form) { form.reset(); }
  });

  // The invite link is selected whole when focused, ready to copy.
  document.body.addEventListener("focusin", function (evt) {
    if (evt.target.matches && evt.target.matches(".invite__link")) { evt.target.select(); }
  });

  // A move is made on the version of the game the page shows, which the status carries
  // (the server refuses a move made on a version it has moved past): it is added as the
  // move is sent, so the move controls need not be sent again each time the game moves.
  document.body.addEventListener("htmx:wsConfigSend", function (evt) {
    var params = evt.detail.parameters;
    var status = document.getElementById("status");
    if (params && !("version" in params) && evt.target.closest && evt.target.closest(".controls")
        && status && status.dataset.version) {
      params.version = status.dataset.version;
    }
  });

  // Keep the server's list of who is here fresh, and tell it whether this page is on
  // screen (a player with the table in view needs no other notice of their turn).
  function ping() {
    if (socket) {
      socket.send(JSON.stringify({ kind: "ping", visible: document.visibilityState === "visible" }));
    }
  }
  setInterval(ping, PING_EVERY_MS);
  document.addEventListener("visibilitychange", ping);

  // ---- The turn clock: the server sends the deadline; the page counts down to it, and
  // the ring round the player to move drains with it.
  var turnSeconds = parseInt(page.dataset.turnSeconds, 10) || 0;
  var SVG = "http://www.w3.org/2000/svg";

  function ring() {
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "ring");
    svg.setAttribute("viewBox", "0 0 48 48");
    svg.setAttribute("focusable", "false");
    ["ring__track", "ring__time"].forEach(function (name) {
      var circle = document.createElementNS(SVG, "circle");
      circle.setAttribute("class", name);
      circle.setAttribute("cx", "24");
      circle.setAttribute("cy", "24");
      circle.setAttribute("r", "22");
      circle.setAttribute("pathLength", "100");
      svg.appendChild(circle);
    });
    return svg;
  }

  // The seats are drawn the same whoever is to play; the status names the seat to play
  // (data-turn), and that seat is marked here, with its ring.
  function markTurn() {
    var status = document.getElementById("status");
    var turn = status ? status.dataset.turn : "";
    document.querySelectorAll(".board .seat").forEach(function (seat) {
      var mine = turn !== "" && turn !== undefined && seat.id === "seat-" + turn;
      seat.classList.toggle("is-turn", mine);
      var avatar = seat.querySelector(".seat__avatar");
      var had = avatar && avatar.querySelector(".ring");
      if (mine && avatar && !had) { avatar.insertBefore(ring(), avatar.firstChild); }
      if (!mine && had) { had.remove(); }
    });
  }

  function tick() {
    var left = null;
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      var seconds = el.querySelector(".countdown__seconds");
      if (seconds) { seconds.textContent = left; }
      el.classList.toggle("countdown--urgent", left <= 10);
      if (left <= 10) { hurry(el); }
    });
    document.querySelectorAll(".seat.is-turn .ring").forEach(function (ring) {
      var time = ring.querySelector(".ring__time");
      if (!time) { return; }
      var share = (left === null || !turnSeconds) ? 1 : Math.min(1, left / turnSeconds);
      time.style.strokeDashoffset = String(100 * (1 - share));
      ring.classList.toggle("is-urgent", left !== null && left <= 10);
    });
  }
  setInterval(tick, 1000);

  // Notices fade after a while so the next one is noticed: six seconds from when each is
  // shown, however many updates of the board come meanwhile (each notice is a new element,
  // swapped in whole, over the socket or in a form's answer).
  var NOTICE_MS = 6000;
  function clearNotice(notice) {
    notice = notice || document.getElementById("notice");
    if (!notice) { return; }
    clearTimeout(notice._timer);
    notice._timer = null;
    notice.textContent = "";
  }
  function fadeNotice() {
    var notice = document.getElementById("notice");
    if (notice && notice.textContent.trim() && !notice._timer) {
      notice._timer = setTimeout(function () { clearNotice(notice); }, NOTICE_MS);
    }
  }
  // a notice that came in a form's answer (an invitation, a refusal) fades the same way
  document.body.addEventListener("htmx:oobAfterSwap", fadeNotice);
  document.body.addEventListener("htmx:afterSettle", fadeNotice);

  // ---- Picking cards: Swap is a button only once both sides are picked.
  function updateSwap() {
    var form = document.getElementById("swap-form");
    if (!form) { return; }
    var give = document.querySelectorAll('input[form="swap-form"][name="give"]:checked').length;
    var take = document.querySelectorAll('input[form="swap-form"][name="take"]:checked').length;
    var limit = parseInt(form.dataset.limit, 10) || 1;
    var button = form.querySelector('button[type="submit"]');
    if (button) { button.disabled = !(give > 0 && give === take && give <= limit); }
  }
  document.addEventListener("change", function (evt) {
    if (evt.target.matches && evt.target.matches('input[form="swap-form"]')) { updateSwap(); }
  });

  // ---- Sound: a few notes made here with WebAudio (no audio files), off when muted.
  var audio = null;
  function soundOn() { return document.body.dataset.sound !== "off"; }
  function ensureAudio() {
    if (!audio && (window.AudioContext || window.webkitAudioContext)) {
      audio = new (window.AudioContext || window.webkitAudioContext)();
    }
    if (audio && audio.state === "suspended") { audio.resume(); }
    return audio;
  }
  // browsers let a page make sound only after a gesture: the first click or key wakes it
  ["pointerdown", "keydown"].forEach(function (kind) {
    document.addEventListener(kind, function () { if (soundOn()) { ensureAudio(); } }, { passive: true });
  });

  function tone(freq, start, length, type, volume) {
    var ctx = audio;
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    osc.type = type || "sine";
    osc.frequency.value = freq;
    var t = ctx.currentTime + start;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(volume || 0.18, t + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + length + 0.05);
  }

  var SOUNDS = {
    turn: function () { tone(660, 0, 0.18); tone(880, 0.12, 0.3); },
    deal: function () { for (var i = 0; i < 3; i++) { tone(1800 - i * 200, i * 0.07, 0.05, "triangle", 0.08); } },
    card: function () { tone(1400, 0, 0.04, "triangle", 0.06); },
    bus: function () { tone(233, 0, 0.35, "sawtooth", 0.08); tone(294, 0, 0.35, "sawtooth", 0.06); tone(233, 0.4, 0.5, "sawtooth", 0.08); },
    win: function () { [523, 659, 784, 1047].forEach(function (f, i) { tone(f, i * 0.11, 0.3); }); },
    lose: function () { [440, 370, 311].forEach(function (f, i) { tone(f, i * 0.16, 0.35, "triangle"); }); },
    result: function () { tone(587, 0, 0.2); tone(740, 0.14, 0.3); }
  };
  function play(name) {
    if (!soundOn() || !ensureAudio() || audio.state !== "running") { return; }
    SOUNDS[name]();
  }

  var soundToggle = document.getElementById("sound-toggle");
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }
  if (soundToggle) {
    soundToggle.addEventListener("click", function () {
      var on = !soundOn();
      document.body.dataset.sound = on ? "on" : "off";
      soundToggle.setAttribute("aria-pressed", on ? "false" : "true");
      if (on) { ensureAudio(); }
      var body = new URLSearchParams({ sound: on ? "on" : "off" });
      fetch(page.dataset.preferences, {
        method: "POST", body: body, credentials: "same-origin",
        headers: { "X-CSRFToken": csrfToken(), "HX-Request": "true" }
      });
    });
  }

  // ---- Attention: tab title, favicon and, when the player's turn alerts are on and the
  // browser allows it, a notification. The switch is the player's (saved on the account;
  // a visitor's in this browser's localStorage), apart from the browser's permission; the
  // bell says what a click will do.
  var favicon = document.querySelector('link[rel="icon"]');
  var notifyToggle = document.getElementById("notify-toggle");
  var ALERTS_KEY = "stopbus-turn-alerts";
  var canNotify = "Notification" in window;
  function alertsOn() {
    if (!notifyToggle) { return false; }
    if (notifyToggle.dataset.alerts) { return notifyToggle.dataset.alerts === "on"; }
    try { return localStorage.getItem(ALERTS_KEY) !== "off"; } catch (e) { return true; }
  }
  function showAlerts() {
    if (!notifyToggle) { return; }
    var on = alertsOn();
    var text = notifyToggle.dataset.labelOff;
    if (on) {
      text = !canNotify || Notification.permission === "granted" ? notifyToggle.dataset.labelOn
        : Notification.permission === "denied" ? notifyToggle.dataset.labelBlocked
        : notifyToggle.dataset.labelAsk;
    }
    notifyToggle.setAttribute("aria-pressed", on ? "true" : "false");
    notifyToggle.title = text;
    var label = notifyToggle.querySelector("[data-label]");
    if (label) { label.textContent = text; }
  }
  function saveAlerts(on) {
    if (notifyToggle.dataset.alerts) {
      notifyToggle.dataset.alerts = on ? "on" : "off";
      fetch(page.dataset.preferences, {
        method: "POST", body: new URLSearchParams({ turn_alerts: on ? "on" : "off" }),
        credentials: "same-origin", headers: { "X-CSRFToken": csrfToken(), "HX-Request": "true" }
      });
    } else {
      try { localStorage.setItem(ALERTS_KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
    }
    showAlerts();
  }
  if (notifyToggle) {
    showAlerts();
    notifyToggle.addEventListener("click", function () {
      var on = alertsOn();
      if (on && canNotify && Notification.permission === "default") {
        // on, but the browser has not been asked yet: this click asks it
        Notification.requestPermission().then(showAlerts);
        return;
      }
      saveAlerts(!on);
      if (!on && canNotify && Notification.permission === "default") {
        Notification.requestPermission().then(showAlerts);
      }
    });
  }

  function attention(myTurn, becameMine) {
    document.title = myTurn ? "\u25CF " + page.dataset.titleTurn + " \u00B7 " + baseTitle : baseTitle;
    if (window.stopbusTitleCount) { window.stopbusTitleCount(); }
    if (favicon) { favicon.href = myTurn ? page.dataset.faviconTurn : page.dataset.favicon; }
    if (becameMine && document.hidden && alertsOn() && canNotify && Notification.permission === "granted") {
      var note = new Notification(page.dataset.notifyTurn, { tag: "stopbus-turn", icon: page.dataset.faviconTurn });
      note.onclick = function () { window.focus(); note.close(); };
    }
  }

  // ---- Motion: cards move from where they were to where they are now (a swap, a
  // discard), new ones come from the pile or the dealer (a draw, the deal). The board is
  // already in place when this runs, so nothing waits for an animation.
  function rects() {
    var seen = {};
    document.querySelectorAll(".board [data-card]").forEach(function (el) {
      seen[el.dataset.card] = el.getBoundingClientRect();
    });
    return seen;
  }
  function centre(el) {
    if (!el) { return null; }
    var r = el.getBoundingClientRect();
    return { left: r.left + r.width / 2, top: r.top + r.height / 2 };
  }
  function fly(el, from, delay) {
    var to = el.getBoundingClientRect();
    var dx = from.left - (to.left + to.width / 2);
    var dy = from.top - (to.top + to.height / 2);
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) { return; }
    el.animate([
      { transform: "translate(" + dx + "px," + dy + "px)" },
      { transform: "none" }
    ], { duration: 320, delay: delay || 0, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  }

  var before = null;
  function snapshot() {
    var status = document.getElementById("status");
    before = {
      cards: reduceMotion.matches ? {} : rects(),
      hand: status ? status.dataset.hand : "",
      game: status ? status.dataset.game : "",
      myTurn: !!(status && status.dataset.myTurn),
      stopped: !!document.querySelector("#bus.bus--stopped"),
      showdown: !!document.querySelector("#showdown:not(.is-hidden)"),
      over: !!document.querySelector("#standings:not(.is-hidden)"),
      version: status ? status.dataset.version : "",
      pile: centre(document.querySelector("#middle .pile--stock .card") || document.querySelector("#middle .cards")),
      dealer: centre(document.querySelector(".dealer-button"))
    };
  }

  function afterMessage() {
    var status = document.getElementById("status");
    var now = {
      hand: status ? status.dataset.hand : "",
      game: status ? status.dataset.game : "",
      myTurn: !!(status && status.dataset.myTurn),
      stopped: !!document.querySelector("#bus.bus--stopped"),
      showdown: !!document.querySelector("#showdown:not(.is-hidden)"),
      over: !!document.querySelector("#standings:not(.is-hidden)"),
      version: status ? status.dataset.version : ""
    };
    var was = before || now;
    var newHand = now.hand && (now.hand !== was.hand || now.game !== was.game);
    // the game has begun (the first hand where there was none) or another game has (its
    // board names it, though it may start at the same hand number): whatever the waiting
    // room or the last game said is stale
    if (before && now.hand && (!was.hand || now.game !== was.game)) {
      clearNotice();
    }

    if (before && !reduceMotion.matches) {
      var from = newHand ? (was.dealer || was.pile) : was.pile;
      var fresh = 0;
      document.querySelectorAll(".board [data-card], .board .seat__cards .card--back, .board .cards--hand .card--back").forEach(function (el) {
        var code = el.dataset.card;
        // the showdown panel and the hands turned over have motion of their own
        if (el.closest(".panel-sheet") || el.closest(".seat.is-shown")) { return; }
        if (code && was.cards[code]) {
          var r = was.cards[code];
          fly(el, { left: r.left + r.width / 2, top: r.top + r.height / 2 });
        } else if (newHand && from && !el.closest(".showdown") && !el.closest(".pile--discard")) {
          fly(el, from, 40 * fresh++);
        } else if (code && from && el.closest("#me")) {
          fly(el, from);
        }
      });
    }

    if (before) {
      if (now.version !== was.version) { window.stopbusDropStaleMessages && window.stopbusDropStaleMessages(); }
      if (newHand && !now.showdown) { play("deal"); }
      else if (now.stopped && !was.stopped) { play("bus"); }
      else if (now.over && !was.over) { play(document.querySelector("#standings .standings__row.is-me .place--1") ? "win" : "lose"); }
      else if (now.showdown && !was.showdown) { play("result"); }
      else if (now.myTurn && !was.myTurn) { play("turn"); }
    }
    // a post table's bar says whether its game is over: as the game ends, or another
    // begins, the sentence that fits now shows (the standings show the end)
    if (before && now.over !== was.over) {
      document.querySelectorAll(".post-bar [data-post-when='over'], .post-bar [data-post-when='playing']").forEach(function (el) {
        el.hidden = (el.dataset.postWhen === "over") !== now.over;
      });
    }
    attention(now.myTurn, now.myTurn && !was.myTurn);
    // your turn has come, or a move of yours changed your cards (a look, a draw)
    if (now.myTurn && (!was.myTurn || now.version !== was.version)) { handPending = true; }
    markTurn();
    updateSwap();
    tick();
    fadeNotice();
    fillInvite();
    foldPanels();
    before = null;
  }

  // ---- The showdown and the end panels fold to a bar and come back. The panels are
  // regions the server sends again and again, so what is folded is kept on the page
  // (data-folded, which no update replaces) and for the tab (sessionStorage), by panel and
  // hand: the next hand's showdown opens again.
  var foldStore = "stopbus-folded-" + page.dataset.table;
  function panelKey(panel) {
    var status = document.getElementById("status");
    return panel.id + "-" + (status ? status.dataset.hand : "");
  }
  function storedFolds() {
    try { return (sessionStorage.getItem(foldStore) || "").split(" ").filter(Boolean); }
    catch (e) { return (page.dataset.foldedKeys || "").split(" ").filter(Boolean); }
  }
  function storeFolds(keys) {
    page.dataset.foldedKeys = keys.join(" ");
    try { sessionStorage.setItem(foldStore, keys.join(" ")); } catch (e) { /* private mode */ }
  }
  function foldPanels() {
    var keys = storedFolds();
    var folded = [];
    document.querySelectorAll(".board .panel-sheet").forEach(function (panel) {
      if (panel.classList.contains("is-hidden") || !panel.querySelector("h2")) { return; }
      var isFolded = keys.indexOf(panelKey(panel)) !== -1;
      if (isFolded) { folded.push(panel.id); }
      var button = panel.querySelector(".panel-sheet__fold");
      if (!button) {
        button = document.createElement("button");
        button.type = "button";
        button.className = "btn btn-small btn-quiet panel-sheet__fold";
        button.setAttribute("aria-controls", panel.id);
        panel.insertBefore(button, panel.firstChild);
      }
      button.textContent = isFolded ? page.dataset.unfold : page.dataset.fold;
      button.setAttribute("aria-expanded", isFolded ? "false" : "true");
    });
    page.dataset.folded = folded.join(" ");
  }
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest(".panel-sheet__fold");
    if (!button) { return; }
    var key = panelKey(button.closest(".panel-sheet"));
    var keys = storedFolds().filter(function (k) { return k !== key; });
    if (button.getAttribute("aria-expanded") === "true") { keys.push(key); }
    storeFolds(keys.slice(-8));
    foldPanels();
  });

  document.body.addEventListener("htmx:wsBeforeMessage", snapshot);
  document.body.addEventListener("htmx:wsAfterMessage", afterMessage);

  // ---- For the keyboard and the screen reader. An update swaps whole regions, and with
  // them the element that had the focus: the focus comes back to the same control in the
  // new region (the same id, the same card, the same button of the same form), else to
  // the first control of that region; and when your turn comes while the focus is
  // nowhere, to your cards or your moves. What happened (the log's new rows, your turn)
  // is said in a polite live region that no update replaces.
  var announcer = document.getElementById("announcer");
  var FOCUSABLE = 'button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), a[href], summary, [tabindex]:not([tabindex="-1"])';
  var held = null;

  function focusKey(el) {
    if (!el || el === document.body || !page.contains(el)) { return null; }
    var regions = [];
    for (var up = el.parentElement; up && up !== page; up = up.parentElement) {
      if (up.id) { regions.push(up.id); }
    }
    return {
      id: el.id || "",
      tag: el.tagName,
      name: el.getAttribute("name") || "",
      value: el.getAttribute("value") || "",
      action: el.form ? (el.form.getAttribute("action") || "") : "",
      key: el.dataset ? (el.dataset.key || "") : "",
      text: (el.textContent || "").trim(),
      regions: regions
    };
  }
  function shown(el) { return !!(el && el.getClientRects().length && !el.closest("[hidden], .is-hidden")); }
  function findAgain(k) {
    if (k.id) {
      var same = document.getElementById(k.id);
      if (shown(same)) { return same; }
    }
    var candidates = page.querySelectorAll(k.tag.toLowerCase());
    for (var i = 0; i < candidates.length; i++) {
      var c = candidates[i];
      if (!shown(c) || c.disabled) { continue; }
      if (k.name && c.getAttribute("name") === k.name && (c.getAttribute("value") || "") === k.value) { return c; }
      if (k.key && c.dataset.key === k.key) { return c; }
      if (!k.name && k.action && c.form && c.form.getAttribute("action") === k.action
          && (c.textContent || "").trim() === k.text) { return c; }
    }
    // else the first control of the nearest region still shown; else that region itself,
    // so that the next Tab goes on from where the focus was
    for (var r = 0; r < k.regions.length; r++) {
      var region = document.getElementById(k.regions[r]);
      if (!shown(region)) { continue; }
      var first = Array.prototype.find.call(region.querySelectorAll(FOCUSABLE), shown);
      if (first) { return first; }
      if (!region.hasAttribute("tabindex")) { region.setAttribute("tabindex", "-1"); }
      return region;
    }
    return null;
  }
  function focusLost() {
    var active = document.activeElement;
    return !active || active === document.body || !document.contains(active);
  }
  function yourMoves() {
    var picks = Array.prototype.filter.call(document.querySelectorAll("#me .pick__input"), shown);
    if (picks.length) { return picks[0]; }
    var controls = document.getElementById("controls");
    return controls ? Array.prototype.find.call(controls.querySelectorAll(FOCUSABLE), shown) : null;
  }
  function words(el) { return (el.textContent || "").replace(/\s+/g, " ").trim(); }
  var sayTimer = null;
  function say(text) {
    if (!announcer || !text) { return; }
    // emptied first, so that the same words said twice are said twice
    announcer.textContent = "";
    clearTimeout(sayTimer);
    sayTimer = setTimeout(function () { announcer.textContent = text; }, 60);
  }
  function logRows() {
    var ids = {};
    document.querySelectorAll("#log .log__item[id]").forEach(function (row) { ids[row.id] = true; });
    return ids;
  }
  function holdFocus() {
    var status = document.getElementById("status");
    held = {
      focus: focusKey(document.activeElement),
      rows: logRows(),
      myTurn: !!(status && status.dataset.myTurn)
    };
  }
  function giveFocusBack() {
    var was = held;
    held = null;
    if (!was) { return; }
    var status = document.getElementById("status");
    var myTurn = !!(status && status.dataset.myTurn);
    if (focusLost()) {
      var target = was.focus ? findAgain(was.focus) : null;
      if (!target && myTurn && !was.myTurn) { target = yourMoves(); }
      if (target) { target.focus({ preventScroll: true }); }
    }
    var said = [];
    // the log lists the newest first: the new rows are said as they happened (a new game's
    // whole log is not read out, only its last rows)
    var rows = document.querySelectorAll("#log .log__item[id]");
    for (var i = rows.length - 1; i >= 0; i--) {
      if (!was.rows[rows[i].id]) { said.push(words(rows[i])); }
    }
    said = said.filter(Boolean).slice(-4);
    if (myTurn && !was.myTurn) { said.push(page.dataset.titleTurn); }
    if (said.length) { say(said.join(". ").replace(/\.\./g, ".")); }
  }
  document.body.addEventListener("htmx:wsBeforeMessage", holdFocus);
  document.body.addEventListener("htmx:wsAfterMessage", giveFocusBack);
  // a form's answer swapped in over HTTP (a notice, the chat) may take the focus's element too
  document.body.addEventListener("htmx:beforeSwap", holdFocus);
  document.body.addEventListener("htmx:afterSettle", giveFocusBack);

  // the last ten seconds of your turn are said once a turn, in the countdown's own words
  // (tick() finds them)
  var hurried = "";
  function hurry(countdown) {
    var status = document.getElementById("status");
    if (!status || !status.dataset.myTurn) { return; }
    var mark = status.dataset.game + ":" + status.dataset.version;
    if (hurried !== mark) {
      hurried = mark;
      say(words(countdown));
    }
  }

  // ---- Keyboard: number keys pick cards, a letter for each move (see the help).
  document.addEventListener("keydown", function (evt) {
    if (evt.ctrlKey || evt.metaKey || evt.altKey) { return; }
    var t = evt.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) && t.type !== "checkbox" && t.type !== "radio")) { return; }
    var key = evt.key.toLowerCase();
    if (key === "?") {
      var help = document.querySelector(".keys-help");
      if (help) { help.open = !help.open; evt.preventDefault(); }
      return;
    }
    if (/^[1-9]$/.test(key)) {
      var n = parseInt(key, 10);
      var mine = document.querySelectorAll("#me .pick__input");
      var middle = document.querySelectorAll("#middle .pick__input");
      var input = n <= 3 ? mine[n - 1] : middle[n - 4];
      if (input) {
        input.checked = input.type === "checkbox" ? !input.checked : true;
        input.dispatchEvent(new Event("change", { bubbles: true }));
        input.focus({ preventScroll: true });
        evt.preventDefault();
      }
      return;
    }
    var button = document.querySelector('.board button[data-key="' + key + '"]:not([disabled])');
    if (button) { evt.preventDefault(); button.click(); }
  });

  // ---- Invite: the full link, and a button to copy it.
  function fillInvite() {
    var input = document.getElementById("invite-link");
    if (input && input.dataset.path) { input.value = new URL(input.dataset.path, location.href).href; }
  }
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("[data-copy]");
    if (!button) { return; }
    var input = document.getElementById(button.dataset.copy);
    if (!input) { return; }
    input.select();
    if (navigator.clipboard) { navigator.clipboard.writeText(input.value).catch(function () {}); }
    button.textContent = button.dataset.copied;
  });
  document.addEventListener("focusin", function (evt) {
    if (evt.target.id === "invite-link") { evt.target.select(); }
  });

  // ---- The felt takes the height the window leaves over: your seat, your cards and your
  // moves end on the first screen whatever lands above or among them after the page is
  // drawn (the header's counts, a notice, the tools wrapping, the fonts, a longer bet
  // row). Measured, not reckoned: where your moves end says how much the felt gives up
  // or takes back (--felt-fit), and on a phone what its seats and middle need is its
  // least (--felt-least); the stylesheet's .opponents reads both.
  var fitWatch = window.ResizeObserver ? new ResizeObserver(fitFelt) : null;
  var watched = [];
  function fitFelt() {
    // the bus's line, one line or two: the middle sits over it (table.css, --bus-h)
    var bus = document.getElementById("bus");
    var busHeight = bus && !bus.classList.contains("is-hidden")
      ? Math.ceil(bus.getBoundingClientRect().height) : 0;
    if (busHeight && page.style.getPropertyValue("--bus-h") !== busHeight + "px") {
      page.style.setProperty("--bus-h", busHeight + "px");
    }
    var felt = document.getElementById("opponents");
    var me = document.getElementById("me");
    if (!felt || !me || felt.classList.contains("is-hidden")) { return; }
    var height = felt.getBoundingClientRect().height;
    var end = me.getBoundingClientRect().bottom + window.scrollY;
    if (!height || end <= 0) { return; }
    var room = window.innerHeight - end - 4;
    var want = Math.floor(height + room);
    var now = parseFloat(page.style.getPropertyValue("--felt-fit"));
    if (!(Math.abs(want - now) < 1)) { page.style.setProperty("--felt-fit", want + "px"); }
    // where the middle sits at the felt's foot, under the row of seats (a phone), the
    // felt never gives up the height the two need, whatever the middle holds (a closed
    // pot, the bus line)
    var least = 0;
    var middle = document.getElementById("middle");
    if (middle && getComputedStyle(middle).alignSelf === "end") {
      var top = felt.getBoundingClientRect().top, seats = 0;
      felt.querySelectorAll(".seat").forEach(function (seat) {
        seats = Math.max(seats, seat.getBoundingClientRect().bottom - top);
      });
      least = Math.ceil(seats + middle.getBoundingClientRect().height +
                        parseFloat(getComputedStyle(middle).marginBottom) + 6);
    }
    if (parseFloat(page.style.getPropertyValue("--felt-least")) !== least) {
      page.style.setProperty("--felt-least", least + "px");
    }
  }
  function watchFit() {
    if (!fitWatch) { return; }
    var els = [document.querySelector(".site-header"), page.querySelector(".table-head"),
               document.getElementById("notice"), document.getElementById("status"),
               document.getElementById("me"), document.getElementById("middle")];
    if (els.every(function (el, i) { return el === watched[i]; })) { return; }
    fitWatch.disconnect();
    watched = els;
    els.forEach(function (el) { if (el) { fitWatch.observe(el); } });
  }
  window.addEventListener("resize", fitFelt);
  document.body.addEventListener("htmx:wsAfterMessage", function () { watchFit(); fitFelt(); handInView(); });
  if (document.fonts && document.fonts.ready) { document.fonts.ready.then(function () { fitFelt(); handInView(); }); }

  // ---- On a wide screen the log sits right under the chat and the table's rules, down to
  // the foot of your seat: the stylesheet places it by the height of that column
  // (--side-h, measured here whenever it changes: a message, the rules opened or closed).
  // When the column leaves it less than 8rem there (the rules open, say), the page is
  // marked is-side-long instead: the column runs down beside the board, the log under it.
  var side = page.querySelector(".table-side");
  function fitSide() {
    var me = document.getElementById("me");
    var box = side.getBoundingClientRect();
    var height = Math.ceil(box.height);
    if (parseFloat(page.style.getPropertyValue("--side-h")) !== height) {
      page.style.setProperty("--side-h", height + "px");
    }
    var rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    var foot = me ? me.getBoundingClientRect().bottom : 0;
    var fits = foot - box.bottom - rem >= 8 * rem;
    var over = Math.max(0, Math.ceil(box.bottom - foot));
    if (parseFloat(page.style.getPropertyValue("--side-over")) !== over) {
      page.style.setProperty("--side-over", over + "px");
    }
    page.classList.toggle("is-side-fit", fits);
    page.classList.toggle("is-side-long", !fits && !!foot);
  }
  // (once a frame at most, and never inside the observer's own callback: what it changes
  // resizes what it observes)
  var sidePending = false;
  function scheduleSide() {
    if (sidePending) { return; }
    sidePending = true;
    requestAnimationFrame(function () { sidePending = false; fitSide(); });
  }
  if (side && window.ResizeObserver) {
    fitSide();
    var sideWatch = new ResizeObserver(scheduleSide);
    sideWatch.observe(side);
    sideWatch.observe(page);
    window.addEventListener("resize", scheduleSide);
    document.body.addEventListener("htmx:wsAfterMessage", scheduleSide);
  }

  // ---- On a phone your moves are a bar held at the window's foot. When your turn comes
  // (or a move of yours changes your cards) and that bar covers your cards, the page
  // scrolls by what they need to come out above it and no further: the table's head and
  // the header over it stay in the window as far as they can. While your cards are in view
  // already it does not scroll at all (what follows them, their value or the hints, is
  // read by scrolling: it is not worth the top of the page). Once for each, so a player
  // who scrolls back up is left there. Never while you write in the chat: and a player
  // reading the log or the chat, below the board, has the bar out of the way already (it
  // is held only while your hand is in the window).
  var phone = window.matchMedia("(max-width: 40rem)");
  var handPending = true;
  var HAND_AIR = 4;  // px between your cards and the bar, once scrolled
  function handInView() {
    if (!handPending) { return; }
    var status = document.getElementById("status");
    if (!status || !status.dataset.myTurn) { handPending = false; return; }
    var bar = document.querySelector("#controls .controls");
    var hand = document.getElementById("hand");
    if (!phone.matches || !bar || !hand) { handPending = false; return; }
    // the row of cards' own box (the cards in it may be on their way in, moved by
    // transforms), without the lines under it
    var cards = hand.querySelector(".cards--hand") || hand;
    var box = cards.getBoundingClientRect();
    if (!box.height) { return; }  // not laid out yet: next time
    handPending = false;
    var active = document.activeElement;
    if (active && active.closest && active.closest(".table-side, #log")) { return; }
    var barTop = bar.getBoundingClientRect().top;
    if (box.bottom <= barTop + 0.5) { return; }  // in view: the page stays where it is
    // just far enough, and never so far that the cards' top leaves the window
    var by = Math.min(Math.ceil(box.bottom - barTop) + HAND_AIR, Math.floor(box.top));
    if (by > 0) {
      window.scrollBy({ top: by, behavior: reduceMotion.matches ? "auto" : "smooth" });
    }
  }

  // A player invited by name: the form is emptied for the next name.
  document.body.addEventListener("stopbus:invited", function () {
    var form = document.querySelector(".invite-form");
    if (form) { form.reset(); }
  });

  fillInvite();
  watchFit();
  fitFelt();
  if (!(document.fonts && document.fonts.ready)) { handInView(); }
  foldPanels();
  markTurn();
  updateSwap();
  tick();
  var startStatus = document.getElementById("status");
  attention(!!(startStatus && startStatus.dataset.myTurn), false);
})();
