// Live pages (the projector, "find my table"): poll the page's live part with its ETag
// and swap it in when it changed. No reload, no framework. A failed poll (the server
// restarting, the laptop waking from sleep, Wi-Fi dropping) backs off to slower polling
// and resumes at once when the tab is shown again or the network comes back.
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/); English when a page has none.
  function _(text) { return window.gettext ? window.gettext(text) : text; }
  function interpolate(text, values) {
    return window.interpolate ? window.interpolate(text, values, true) :
      text.replace(/%\((\w+)\)s/g, function (match, key) { return String(values[key]); });
  }
  var box = document.getElementById("live");
  if (!box || !box.dataset.liveUrl) { return; }
  var status = document.getElementById("live-status");

  function say(text) { if (status) { status.textContent = text; } }

  window.huckleyPoll({
    url: box.dataset.liveUrl,
    etag: box.dataset.etag,
    fast: 1500,
    slow: 10000,
    focus: true,
    changed: function (html, tag) {
      box.innerHTML = html;
      box.dataset.etag = tag;
    },
    ok: function () { say(""); },
    lost: function () { say(_("Reconnecting…")); }
  });

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
      if (label) { label.textContent = pages > 1 ? interpolate(_("Page %(page)s of %(pages)s"), {page: shown + 1, pages: pages}) : ""; }
    };
    turn(0);
    setInterval(function () { turn(1); }, parseInt(box.dataset.pager, 10) || 8000);
    new MutationObserver(function () { turn(0); }).observe(box, {childList: true});
  }
})();
