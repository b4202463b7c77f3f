// Check-in in place on the manage page (docs/tournament.md, "Check-in"): each row's
// button posts its own form with fetch and the server answers with the row, the count
// and the Start box drawn again, so the page neither reloads nor jumps to the top, and
// the focus stays on the row's button. A search box filters the list as you type; Enter
// in it goes to the first player shown, Escape clears it. Without JavaScript the forms
// post as before and the page comes back at the player's row. No inline script (CSP).
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
  var status = document.getElementById("checkin-status");
  var count = document.getElementById("checkin-count");
  var search = document.getElementById("checkin-search");

  function say(text, error) {
    status.textContent = text;
    status.className = error ? "error" : "muted";
  }

  function fragment(html) {
    var template = document.createElement("template");
    template.innerHTML = html.trim();
    return template.content.firstElementChild;
  }
  function row(html) {
    // A <tr> parses only inside a table.
    var table = fragment("<table><tbody>" + html + "</tbody></table>");
    return table.querySelector("tr");
  }

  function folded(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function filter() {
    var wanted = folded(search.value.trim());
    var shown = 0;
    Array.prototype.forEach.call(list.querySelectorAll("tr.checkin-row"), function (tr) {
      var match = !wanted || folded(tr.dataset.name).indexOf(wanted) >= 0;
      tr.hidden = !match;
      if (match) { shown += 1; }
    });
    if (wanted) {
      say(shown === 0 ? interpolate(_("No player on the roster matches “%(text)s”."), {text: search.value.trim()}) :
        interpolate(ngettext("%(count)s player shown.", "%(count)s players shown.", shown), {count: shown}));
    } else {
      say("");
    }
  }

  list.addEventListener("submit", function (event) {
    var form = event.target.closest("form.check-in");
    if (!form) { return; }
    event.preventDefault();
    var button = form.querySelector("button");
    button.disabled = true;
    fetch(form.action, {
      method: "POST", body: new FormData(form), credentials: "same-origin",
      headers: {"X-Requested-With": "fetch", "Accept": "application/json"}
    }).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) { throw new Error(answer.error || _("The check-in was not saved.")); }
        return answer;
      });
    }).then(function (answer) {
      var old = form.closest("tr");
      var fresh = row(answer.row);
      fresh.hidden = old.hidden;
      old.replaceWith(fresh);
      fresh.querySelector("button").focus();
      count.textContent = String(answer.count);
      var start = document.getElementById("start");
      if (start) { start.replaceWith(fragment(answer.start)); }
      say(answer.message);
    }).catch(function (error) {
      button.disabled = false;
      // The network or the server failed: the plain post says what happened.
      if (error instanceof TypeError || error instanceof SyntaxError) { form.submit(); return; }
      say(error.message, true);
    });
  });

  if (search) {
    search.closest(".checkin-search").hidden = false;
    search.addEventListener("input", filter);
    search.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { search.value = ""; filter(); }
      if (event.key === "Enter") {
        event.preventDefault();
        var first = list.querySelector("tr.checkin-row:not([hidden]) form.check-in button");
        if (first) { first.focus(); }
      }
    });
  }
})();
