// The table page's own behaviours; htmx and its websocket extension carry the moves.
// Words shown to people come from data- attributes in the template (translated there).
(function () {
  "use strict";

  var page = document.querySelector(".table-page");
  if (!page) { return; }

  var socket = null;
  var PING_EVERY_MS = 25000;
  var reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  var baseTitle = document.title;

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

  // Keep the server's list of who is here fresh.
  setInterval(function () {
    if (socket) { socket.send(JSON.stringify({ kind: "ping" })); }
  }, PING_EVERY_MS);

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

  // Notices fade after a while so the next one is noticed.
  function fadeNotice() {
    var notice = document.getElementById("notice");
    if (notice && notice.textContent.trim()) {
      clearTimeout(notice._timer);
      notice._timer = setTimeout(function () { notice.textContent = ""; }, 6000);
    }
  }

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

  // ---- Attention: tab title, favicon and (if allowed with a click) a notification.
  var favicon = document.querySelector('link[rel="icon"]');
  var notifyToggle = document.getElementById("notify-toggle");
  if (notifyToggle && "Notification" in window) {
    notifyToggle.hidden = false;
    var showPermission = function () {
      var label = notifyToggle.querySelector("[data-label]");
      if (Notification.permission === "granted") {
        notifyToggle.setAttribute("aria-pressed", "true");
        if (label) { label.textContent = notifyToggle.dataset.granted; }
      } else if (Notification.permission === "denied" && label) {
        label.textContent = notifyToggle.dataset.denied;
      }
    };
    showPermission();
    notifyToggle.addEventListener("click", function () {
      Notification.requestPermission().then(showPermission);
    });
  }

  function attention(myTurn, becameMine) {
    document.title = myTurn ? "\u25CF " + page.dataset.titleTurn + " \u00B7 " + baseTitle : baseTitle;
    if (favicon) { favicon.href = myTurn ? page.dataset.faviconTurn : page.dataset.favicon; }
    if (becameMine && document.hidden && "Notification" in window && Notification.permission === "granted") {
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
      myTurn: !!(status && status.dataset.myTurn),
      stopped: !!document.querySelector("#bus.bus--stopped"),
      showdown: !!document.querySelector("#showdown:not(.is-hidden)"),
      over: !!document.querySelector("#standings:not(.is-hidden)"),
      version: status ? status.dataset.version : ""
    };
    var was = before || now;
    var newHand = now.hand && now.hand !== was.hand;

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
    attention(now.myTurn, now.myTurn && !was.myTurn);
    markTurn();
    updateSwap();
    tick();
    fadeNotice();
    fillInvite();
    before = null;
  }

  document.body.addEventListener("htmx:wsBeforeMessage", snapshot);
  document.body.addEventListener("htmx:wsAfterMessage", afterMessage);

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

  fillInvite();
  markTurn();
  updateSwap();
  tick();
  var startStatus = document.getElementById("status");
  attention(!!(startStatus && startStatus.dataset.myTurn), false);
})();
