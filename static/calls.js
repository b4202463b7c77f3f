// The director's calls (docs/tournament.md, "Calling the director"): poll the list with
// its ETag, swap it in when it changed, and when a call is new, beep through the Web
// Audio API (where the browser allows: most let a page sound only after a tap on it)
// and say it in the tab's title. No audio file, nothing from the internet.
(function () {
  "use strict";
  var box = document.getElementById("calls-live");
  if (!box || !box.dataset.liveUrl) { return; }
  var status = document.getElementById("calls-status");
  var etag = box.dataset.etag || "";
  var fast = 3000, slow = 15000, delay = fast, timer = null, busy = false;
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

  function schedule(ms) {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(poll, ms);
  }

  function poll() {
    if (busy) { return; }
    busy = true;
    var headers = {"X-Requested-With": "live"};
    if (etag) { headers["If-None-Match"] = '"' + etag + '"'; }
    fetch(box.dataset.liveUrl, {headers: headers, cache: "no-store", credentials: "same-origin"})
      .then(function (response) {
        if (response.status === 304) { return null; }
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        var tag = (response.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
        return response.text().then(function (html) { return [tag, html]; });
      })
      .then(function (result) {
        if (result) {
          etag = result[0];
          box.innerHTML = result[1];
          var ids = openIds();
          var fresh = ids.filter(function (id) { return known.indexOf(id) < 0; });
          known = ids;
          showCount(ids);
          if (fresh.length) { beep(); }
        }
        delay = fast;
        if (status && status.dataset.lost) { status.textContent = ""; delete status.dataset.lost; }
      })
      .catch(function () {
        delay = Math.min(delay * 2, slow);
        if (status) { status.textContent = "Reconnecting…"; status.dataset.lost = "1"; }
      })
      .then(function () { busy = false; schedule(delay); });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { delay = fast; schedule(0); }
  });
  window.addEventListener("online", function () { delay = fast; schedule(0); });
  schedule(fast);
})();
