// Live pages (the projector, "find my table"): poll the page's live part with its ETag
// and swap it in when it changed. No reload, no framework. A failed poll (the server
// restarting, the laptop waking from sleep, Wi-Fi dropping) backs off to slower polling
// and resumes at once when the tab is shown again or the network comes back.
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box || !box.dataset.liveUrl) { return; }
  var status = document.getElementById("live-status");
  var etag = box.dataset.etag || "";
  var fast = 1500, slow = 10000, delay = fast, timer = null, busy = false;

  function say(text) { if (status) { status.textContent = text; } }

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
          box.dataset.etag = etag;
        }
        delay = fast;
        say("");
      })
      .catch(function () {
        delay = Math.min(delay * 2, slow);
        say("Reconnecting…");
      })
      .then(function () { busy = false; schedule(delay); });
  }

  // Back from sleep, a hidden tab shown again, the network back: ask at once.
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { delay = fast; schedule(0); }
  });
  window.addEventListener("online", function () { delay = fast; schedule(0); });
  window.addEventListener("focus", function () { schedule(0); });
  schedule(fast);

  // The wall: when the content is taller than the screen, scroll down slowly, rest at
  // the bottom, then start again from the top.
  if (box.dataset.autoscroll) {
    var pause = 0;
    setInterval(function () {
      var bottom = document.documentElement.scrollHeight - window.innerHeight;
      if (bottom <= 4) { return; }
      if (pause > 0) { pause -= 1; return; }
      if (window.scrollY >= bottom - 1) { window.scrollTo(0, 0); pause = 60; return; }
      window.scrollBy(0, 2);
      if (window.scrollY >= bottom - 1) { pause = 80; }
    }, 50);
  }
})();
