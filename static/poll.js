// The one poll loop of every live page (the projector and "find my table", follow my
// table, the director's calls and check-in list): ask `url` with the ETag the page has
// (the server answers an empty 304 while nothing changed), hand a changed answer to
// `changed(body, etag)`, back off to slower polling while the server cannot be reached
// (restarting, the laptop asleep, Wi-Fi gone), and ask again at once when the tab is
// shown or the network is back. No framework, nothing from the internet.
//
// huckleyPoll({url, etag, fast, slow, json, focus, changed, ok, lost})
//   json:  read the answer as JSON (else as text);  focus: ask again when the window
//   gets the focus;  ok(): after each answer;  lost(): after each failed ask.
// Returns {stop()}: the seat page (static/play.js) stops polling once its WebSocket is back.
window.huckleyPoll = function (options) {
  "use strict";
  var etag = options.etag || "";
  var delay = options.fast, timer = null, busy = false, stopped = false;

  function schedule(ms) {
    if (timer) { clearTimeout(timer); }
    if (stopped) { return; }
    timer = setTimeout(poll, ms);
  }

  function poll() {
    if (busy) { return; }
    busy = true;
    var headers = {"X-Requested-With": "live"};
    if (options.json) { headers.Accept = "application/json"; }
    if (etag) { headers["If-None-Match"] = '"' + etag + '"'; }
    fetch(options.url, {headers: headers, cache: "no-store", credentials: "same-origin"})
      .then(function (response) {
        if (response.status === 304) { return null; }
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        var tag = (response.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
        var body = options.json ? response.json() : response.text();
        return body.then(function (read) { return [tag, read]; });
      })
      .then(function (result) {
        if (result && !stopped) {
          etag = result[0];
          options.changed(result[1], etag);
        }
        delay = options.fast;
        if (options.ok) { options.ok(); }
      })
      .catch(function () {
        delay = Math.min(delay * 2, options.slow);
        if (options.lost) { options.lost(); }
      })
      .then(function () { busy = false; schedule(delay); });
  }

  function now() { delay = options.fast; schedule(0); }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { now(); } });
  window.addEventListener("online", now);
  if (options.focus) { window.addEventListener("focus", function () { schedule(0); }); }
  schedule(options.fast);
  return {
    stop: function () {
      stopped = true;
      if (timer) { clearTimeout(timer); timer = null; }
    }
  };
};
