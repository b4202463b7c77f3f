// Huckley's service worker (docs/tournament.md, "Scoring without a network"), served from
// the site root by web.views.offline so that its scope is the whole site.
//
// - The pages a table needs (a table's score sheet, a session's page with "find my
//   table") are asked of the network first, always: online, the page shown is the
//   current one. A copy of each answer is kept, under a key that carries the page's
//   generation (its ETag, or the X-Huckley-Generation header), replacing the older copy.
// - Offline, the kept copy is shown with a line at the top saying that it is the last
//   copy seen and when; never as the current page.
// - The site's static files (style, scripts, icons) are asked of the network first too,
//   with the kept copy when offline.
// Nothing else is kept: sign-in, the director's pages and every POST go to the network;
// signing out forgets the kept pages.
"use strict";

var PAGES = "huckley-pages-v1";
var FILES = "huckley-files-v1";
var KEPT_PAGES = [/^\/tables\/\d+\/$/, /^\/sessions\/\d+\/$/, /^\/sessions\/\d+\/found\/$/];
var GENERATION = "sw-generation";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

function keptPage(url) {
  return url.origin === self.location.origin &&
    KEPT_PAGES.some(function (pattern) { return pattern.test(url.pathname); });
}
function staticFile(url) {
  return url.origin === self.location.origin && url.pathname.indexOf("/static/") === 0;
}

// The page's address without the generation: what a kept copy answers offline.
function bare(href) {
  var url = new URL(href);
  url.searchParams.delete(GENERATION);
  url.hash = "";
  return url.href;
}

function generationOf(response) {
  var tag = response.headers.get("X-Huckley-Generation") || response.headers.get("ETag") || "";
  return tag.replace(/^W\//, "").replace(/"/g, "") || "none";
}

// Keep this answer as the page's one copy: under its generation, the older ones dropped.
function keep(request, response) {
  var url = new URL(bare(request.url));
  url.searchParams.set(GENERATION, generationOf(response));
  return response.text().then(function (body) {
    var headers = new Headers({
      "Content-Type": response.headers.get("Content-Type") || "text/html; charset=utf-8",
      "X-Huckley-Saved-At": new Date().toISOString()
    });
    return caches.open(PAGES).then(function (cache) {
      return cache.keys().then(function (keys) {
        var mine = bare(request.url);
        return Promise.all(keys.filter(function (key) {
          return bare(key.url) === mine && key.url !== url.href;
        }).map(function (key) { return cache.delete(key); }));
      }).then(function () {
        return cache.put(url.href, new Response(body, {status: 200, headers: headers}));
      });
    });
  });
}

function lastCopy(request) {
  var mine = bare(request.url);
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (keys) {
      var key = keys.filter(function (k) { return bare(k.url) === mine; })[0];
      return key ? cache.match(key) : undefined;
    });
  });
}

function twoDigits(n) { return (n < 10 ? "0" : "") + n; }

// The note's words when the kept page has none of its own (a page of an older version).
var NOTE = "<strong>No network.</strong> This is the last copy of this page seen on this " +
  "phone, at {time} on {date}: it may not be current. Rounds entered here are kept on " +
  "this phone and sent when the network is back.";

// The kept copy, with a line at the top of the page saying what it is: in the page's own
// language (a service worker has no catalogue: every page carries the note's words,
// translated, in <template id="offline-note">, and says its language in <html lang>).
function offlineCopy(copy) {
  var saved = new Date(copy.headers.get("X-Huckley-Saved-At") || Date.now());
  return copy.text().then(function (body) {
    var lang = (body.match(/<html lang="([^"]+)"/) || [])[1] || "en-US";
    var words = (body.match(/<template id="offline-note">([\s\S]*?)<\/template>/) || [])[1];
    var time = twoDigits(saved.getHours()) + ":" + twoDigits(saved.getMinutes());
    var date = saved.getFullYear() + "-" + twoDigits(saved.getMonth() + 1) + "-" +
      twoDigits(saved.getDate());
    if (words && lang.toLowerCase() !== "en-us") {
      try { date = saved.toLocaleDateString(lang); } catch (e) { /* the ISO date */ }
    }
    var note = '<p class="card offline-copy" role="status">' +
      (words || NOTE).trim().replace("{time}", time).replace("{date}", date) + "</p>";
    var shown = body.replace("<main>", "<main>" + note);
    return new Response(shown, {
      status: 200,
      headers: {"Content-Type": copy.headers.get("Content-Type") || "text/html; charset=utf-8"}
    });
  });
}

function page(event) {
  var request = event.request;
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic" &&
        (response.headers.get("Content-Type") || "").indexOf("text/html") === 0) {
      event.waitUntil(keep(request, response.clone()));
    }
    return response;
  }).catch(function (error) {
    return lastCopy(request).then(function (copy) {
      if (!copy) { throw error; }
      return offlineCopy(copy);
    });
  });
}

function file(event) {
  var request = event.request;
  return fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      event.waitUntil(caches.open(FILES).then(function (cache) { return cache.put(request, copy); }));
    }
    return response;
  }).catch(function (error) {
    return caches.open(FILES).then(function (cache) { return cache.match(request); })
      .then(function (copy) { if (!copy) { throw error; } return copy; });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method === "POST" && url.origin === self.location.origin &&
      url.pathname === "/accounts/logout/") {
    // Signing out forgets the pages kept: a shared phone shows nobody's copies offline.
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (request.method !== "GET") { return; }
  if (request.mode === "navigate" && keptPage(url)) {
    event.respondWith(page(event));
  } else if (staticFile(url)) {
    event.respondWith(file(event));
  }
});
