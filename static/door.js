// The manage page's check-in list, live (docs/tournament.md, "Self check-in at the
// door"): every 2 s it asks for the list with the ETag it has (the session's live
// version; a 304 while nothing changed) and puts in the rows that changed, so players
// who check themselves in at the door appear without a reload. Unchanged rows stay
// where they are (a button keeps its focus, the search keeps filtering). Undoing a
// check-in asks first. No inline script (CSP); without JavaScript the page works as
// before, reloaded by hand.
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/); English when a page has none.
  function _(text) { return window.gettext ? window.gettext(text) : text; }
  function ngettext(one, many, n) {
    return window.ngettext ? window.ngettext(one, many, n) : (n === 1 ? one : many);
  }
  function interpolate(text, values) {
    return window.interpolate ? window.interpolate(text, values, true) :
      text.replace(/%\((\w+)\)s/g, function (match, key) { return String(values[key]); });
  }
  var list = document.getElementById("checkin-list");
  if (!list || !window.fetch) { return; }
  var body = list.tBodies[0];
  var url = list.dataset.liveUrl;
  var arrivals = document.getElementById("door-arrivals");
  var count = document.getElementById("checkin-count");
  var search = document.getElementById("checkin-search");

  // Undo asks first, before checkin.js sends it (capture runs before its listener).
  list.addEventListener("submit", function (event) {
    var form = event.target.closest("form.check-in");
    if (!form || form.elements.checked_in.value !== "0") { return; }
    var name = form.closest("tr").dataset.name;
    if (!window.confirm(interpolate(_("Undo the check-in of %(name)s?"), {name: name}))) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  function rows(html) {
    var template = document.createElement("template");
    template.innerHTML = "<table><tbody>" + html + "</tbody></table>";
    return Array.prototype.slice.call(template.content.querySelectorAll("tr"));
  }

  function apply(answer) {
    var arrived = [];
    var fresh = rows(answer.rows);
    var at = body.firstElementChild;
    fresh.forEach(function (tr) {
      var old = tr.id ? document.getElementById(tr.id) : null;
      var node = tr;
      if (old && old.dataset.state === tr.dataset.state) {
        node = old;
      } else {
        if (tr.dataset.state === "in-door" && (!old || old.dataset.state !== "in-door")) {
          arrived.push(tr.dataset.name);
        }
        if (old) {
          tr.hidden = old.hidden;
          if (old === at) { at = at.nextElementSibling; }
          old.remove();
        }
      }
      if (node !== at) { body.insertBefore(node, at); } else { at = at.nextElementSibling; }
    });
    while (at) { var next = at.nextElementSibling; at.remove(); at = next; }
    if (count) { count.textContent = String(answer.count); }
    var start = document.getElementById("start");
    if (start && answer.start) {
      var box = document.createElement("template");
      box.innerHTML = answer.start.trim();
      start.replaceWith(box.content.firstElementChild);
    }
    if (search && search.value) { search.dispatchEvent(new Event("input")); }
    if (arrived.length && arrivals) {
      arrivals.textContent = interpolate(ngettext("%(names)s checked in at the door.", "%(names)s checked in at the door.",
        arrived.length), {names: arrived.join(", ")});
    }
  }

  window.huckleyPoll({
    url: url,
    etag: list.dataset.etag,
    fast: 2000,
    slow: 15000,
    json: true,
    changed: function (answer) {
      if (answer.reload) { window.location.reload(); return; }
      apply(answer);
    }
  });
})();
