// A new club's time zone: this device's own, in place of the default the page shows
// without JavaScript (the box's data-from-browser). Any other zone is typed or picked from
// the list; the server checks it (web/forms.py, TimeZoneInput).
(function () {
  "use strict";
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  if (!zone) return;
  document.querySelectorAll("input[data-from-browser]").forEach(function (input) {
    if (input.value === input.dataset.fromBrowser) input.value = zone;
  });
})();
