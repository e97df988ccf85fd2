// Notification settings: the time zone the daily email's hour is read in.
// When none is saved yet, the browser's own zone is offered (pre-selected, saved only
// with the form); the hour's label follows the zone chosen.
(function () {
  "use strict";

  var select = document.getElementById("time-zone");
  if (!select) return;

  function show(zone) {
    if (!zone) return;
    document.querySelectorAll("[data-zone-name]").forEach(function (el) {
      el.textContent = zone;
    });
  }

  select.addEventListener("change", function () {
    show(select.value || select.getAttribute("data-site-zone"));
  });

  if (select.hasAttribute("data-offer-browser-zone") && select.value === "") {
    var browserZone = "";
    try {
      browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (e) {
      browserZone = "";
    }
    var offered = Array.prototype.some.call(select.options, function (option) {
      return option.value !== "" && option.value === browserZone;
    });
    if (offered) {
      select.value = browserZone;
      show(browserZone);
    }
  }
})();
