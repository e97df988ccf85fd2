// Every page: a post turn's time left, in words ("3 h 12 min left"), counts down.
// The server marks each such element with its deadline (data-deadline, ISO) and the
// words' formats in the reader's language (data-words, JSON; games/templatetags/turns.py
// time_left_attrs); this words the time left again exactly as games/pace.py
// time_left_words does: whole seconds floored, then days, hours and whole minutes.
(function () {
  "use strict";

  var EVERY_MS = 15000;
  var MINUTE = 60;
  var HOUR = 3600;
  var DAY = 24 * HOUR;
  var plurals = null;

  function pluralCategory(n) {
    if (plurals === null) {
      try {
        plurals = new Intl.PluralRules(document.documentElement.lang || "en");
      } catch (e) {
        plurals = new Intl.PluralRules("en");
      }
    }
    return plurals.select(n);
  }

  // "%(hours)d h %(minutes)d min left" with {hours: 3, minutes: 12}
  function fill(format, values) {
    return format.replace(/%\((\w+)\)d/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  }

  function words(formats, seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    if (seconds < MINUTE) { return formats.less; }
    var days = Math.floor(seconds / DAY);
    var rest = seconds - days * DAY;
    var hours = Math.floor(rest / HOUR);
    var minutes = Math.floor((rest - hours * HOUR) / MINUTE);
    if (days) {
      var forms = formats.days || {};
      var format = forms[pluralCategory(days)] || forms.other || forms.one;
      return fill(format, { days: days, hours: hours });
    }
    if (hours) { return fill(formats.hours, { hours: hours, minutes: minutes }); }
    return fill(formats.minutes, { minutes: minutes });
  }

  function update() {
    var now = Date.now();
    document.querySelectorAll("[data-deadline][data-words]").forEach(function (el) {
      var deadline = Date.parse(el.dataset.deadline);
      var formats = el._timeLeftFormats;
      if (!formats || el._timeLeftSource !== el.dataset.words) {
        try {
          formats = JSON.parse(el.dataset.words);
        } catch (e) {
          return;
        }
        el._timeLeftFormats = formats;
        el._timeLeftSource = el.dataset.words;
      }
      if (isNaN(deadline) || !formats) { return; }
      var text = words(formats, (deadline - now) / 1000);
      if (text && el.textContent !== text) { el.textContent = text; }
    });
  }

  update();
  setInterval(update, EVERY_MS);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { update(); }
  });
  ["htmx:afterSwap", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach(function (name) {
    document.body.addEventListener(name, update);
  });
})();
