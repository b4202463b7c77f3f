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

  // The wall: what does not fit the screen flows into columns to the right of it
  // (.screen-flow: CSS columns as tall as the screen, the rest hidden). Show them a
  // screenful at a time, every data-pager milliseconds, then start again; the page
  // itself never scrolls. A swapped-in live part keeps the screenful shown.
  if (box.dataset.pager) {
    var shown = 0;
    var label = document.getElementById("screen-page");
    var turn = function (step) {
      var flow = box.querySelector(".screen-flow");
      if (!flow) { return; }
      var gap = parseFloat(getComputedStyle(flow).columnGap) || 0;
      var width = flow.clientWidth + gap;
      var pages = Math.max(1, Math.ceil((flow.scrollWidth + gap - 1) / width));
      shown = (shown + step) % pages;
      flow.scrollLeft = shown * width;
      if (label) { label.textContent = pages > 1 ? "Page " + (shown + 1) + " of " + pages : ""; }
    };
    turn(0);
    setInterval(function () { turn(1); }, parseInt(box.dataset.pager, 10) || 8000);
    new MutationObserver(function () { turn(0); }).observe(box, {childList: true});
  }
})();
