// Sitting timers (the projector, the director's page): count down to the end time the
// server keeps (data-timer-ends, ms since 1970), never from a counter of their own, so a
// screen that slept or lost its Wi-Fi shows the right time the moment it wakes. The
// screen's clock is corrected by the server's, read as the page loaded (data-server-now).
// When the end passes, the line says "Time is up". live.js may swap the line for a new
// one at any time; each tick looks the lines up again.
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/); English when a page has none.
  function _(text) { return window.gettext ? window.gettext(text) : text; }
  var root = document.querySelector("[data-server-now]");
  var skew = root ? Number(root.getAttribute("data-server-now")) - Date.now() : 0;

  function clock(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = h ? (m < 10 ? "0" : "") + m : String(m);
    return (h ? h + ":" : "") + mm + ":" + (s < 10 ? "0" : "") + s;
  }

  function tick() {
    var now = Date.now() + skew;
    var lines = document.querySelectorAll("[data-timer-ends]");
    for (var i = 0; i < lines.length; i++) {
      var line = lines[i];
      var left = Math.ceil((Number(line.getAttribute("data-timer-ends")) - now) / 1000);
      var label = line.querySelector(".timer-label"), shown = line.querySelector(".timer-clock");
      var over = left <= 0;
      line.classList.toggle("over", over);
      if (label) { label.textContent = over ? _("Time is up") : _("Time left"); }
      if (shown) { shown.textContent = clock(Math.max(0, left)); }
    }
  }

  tick();
  setInterval(tick, 250);
  // Back from sleep: show the right time at once, not at the next tick.
  document.addEventListener("visibilitychange", tick);
})();
