// The director's calls (docs/tournament.md, "Calling the director"): poll the list with
// its ETag, swap it in when it changed, and when a call is new, beep through the Web
// Audio API (where the browser allows: most let a page sound only after a tap on it)
// and say it in the tab's title. No audio file, nothing from the internet.
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/); English when a page has none.
  function _(text) { return window.gettext ? window.gettext(text) : text; }
  var box = document.getElementById("calls-live");
  if (!box || !box.dataset.liveUrl) { return; }
  var status = document.getElementById("calls-status");
  var title = document.title;
  var audio = null;

  function openIds() {
    var list = box.querySelector("[data-open]");
    return list ? list.getAttribute("data-open").trim().split(/\s+/).filter(Boolean) : [];
  }
  var known = openIds();

  function showCount(ids) {
    document.title = ids.length ? "(" + ids.length + ") " + title : title;
  }
  showCount(known);

  // A browser lets a page play sound once someone has tapped or typed on it.
  function unlock() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { return; }
    if (!audio) { try { audio = new Context(); } catch (e) { audio = null; return; } }
    if (audio.state === "suspended" && audio.resume) { audio.resume(); }
  }
  document.addEventListener("click", unlock);
  document.addEventListener("keydown", unlock);

  function beep() {
    if (!audio || audio.state !== "running") { return; }
    var now = audio.currentTime;
    [0, 0.25].forEach(function (start) {
      var osc = audio.createOscillator(), gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.3, now + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + 0.2);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + start);
      osc.stop(now + start + 0.22);
    });
  }

  window.huckleyPoll({
    url: box.dataset.liveUrl,
    etag: box.dataset.etag,
    fast: 3000,
    slow: 15000,
    changed: function (html) {
      box.innerHTML = html;
      var ids = openIds();
      var fresh = ids.filter(function (id) { return known.indexOf(id) < 0; });
      known = ids;
      showCount(ids);
      if (fresh.length) { beep(); }
    },
    ok: function () {
      if (status && status.dataset.lost) { status.textContent = ""; delete status.dataset.lost; }
    },
    lost: function () {
      if (status) { status.textContent = _("Reconnecting…"); status.dataset.lost = "1"; }
    }
  });
})();
