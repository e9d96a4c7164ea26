/* Lazaretto's service worker: pages already opened open without the network.
 *
 * Our own small worker, not Workbox: Workbox reaches a page either from its CDN (the
 * field site has no internet) or bundled by a build step (rollup/webpack) we do not
 * have, and what the field needs is a few rules, each easier to read than to configure:
 *   - pages ("/" and "/c/..."): network first; an answer is kept as the last copy with
 *     the time it was fetched; without an answer (or none within 6 s) the copy is shown,
 *     marked "offline — copy from 12:41:07";
 *   - static files (their URLs carry a content hash): cache first;
 *   - nothing else is kept: no POST (sent through as it is; a form sent offline gets a
 *     page saying it was not sent, a tap is kept by the outbox), no /api answer (the
 *     live stream, JSON), no login page;
 *   - the copies are deleted when the user taps "Log out", and again whenever the login
 *     or register page is opened (after a logout, or when a session ran out), so a
 *     shared phone never shows the previous user's cards.
 * The server (web/views_offline.py) serves this file at /sw.js, scope "/" (one origin),
 * with `var LZ = {...}` in front: the version (the package's and every static file's
 * hash, so a new server means a new worker, which drops the old files), the static URLs
 * to keep from the start, and the offline texts in English and Russian. */
"use strict";
var PAGES = "lazaretto-pages", STATIC = "lazaretto-static-" + LZ.version, WAIT = 6000;
var generation = 0;  // bumped by every wipe: a copy fetched before it is not kept

self.addEventListener("install", function (e) {
  e.waitUntil(caches.open(STATIC).then(function (c) { return c.addAll(LZ.assets); })
    .then(function () { return self.skipWaiting(); }));
});
self.addEventListener("activate", function (e) {
  e.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) {
      return n.indexOf("lazaretto-static-") === 0 && n !== STATIC;
    }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function two(n) { return (n < 10 ? "0" : "") + n; }
function hms(d) { return two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds()); }
function esc(s) { return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;"); }
function isPage(url) { return url.pathname === "/" || url.pathname.indexOf("/c/") === 0; }
function html(r) { return /^text\/html/.test(r.headers.get("Content-Type") || ""); }

function wipe() { generation += 1; return caches.delete(PAGES); }
function keep(url, r, at) {  // the last copy of a page, with the time its answer came
  var mine = generation;
  return r.text().then(function (body) {
    if (mine !== generation) return null;
    return caches.open(PAGES).then(function (c) {
      return mine === generation && c.put(url, new Response(body, { headers: {
        "Content-Type": "text/html; charset=utf-8", "X-Lazaretto-Fetched": String(at) } }));
    });
  });
}
function mark(body, at) {  // the copy says it is one, in its own language, before any script runs
  var lang = /<html lang="ru/.test(body) ? "ru" : "en";
  var note = LZ.texts[lang].copy.replace("{time}", hms(new Date(at)));
  return body.replace(/<body([^>]*)>/, function (all, attrs) {
    return "<body" + attrs + ' data-copy="' + at + '"><p id="net" class="net" role="status">' +
      esc(note) + "</p>";
  });
}
function copy(url) {
  return caches.open(PAGES).then(function (c) { return c.match(url); }).then(function (r) {
    if (!r) return null;
    var at = Number(r.headers.get("X-Lazaretto-Fetched")) || Date.now();
    return r.text().then(function (body) {
      return new Response(mark(body, at), { headers: {
        "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
    });
  });
}
function none() { return say("none", 503); }  // offline, and no copy of this page here
function say(what, status) {  // a page of its own, in both languages (no cookie to read here)
  var t = LZ.texts, lines = ["en", "ru"].map(function (l) {
    return '<p class="net" role="status">' + esc(t[l][what]) + "</p>";
  }).join("");
  return new Response('<!doctype html><html lang="en"><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Lazaretto</title>' +
    '<link rel="stylesheet" href="' + LZ.css + '"><body><main>' + lines + '<p><a href="/">' +
    esc(t.en.home) + " / " + esc(t.ru.home) + "</a></p></main></body></html>",
    { status: status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

function unsent() {  // a form (not a tap the outbox keeps) sent without the network
  return say("unsent", 503);
}

function page(e) {  // network first; a navigation falls back to the copy
  var req = e.request;
  var net = fetch(req).then(function (r) {
    if (r.status === 200 && r.type === "basic" && html(r)) e.waitUntil(keep(req.url, r.clone(), Date.now()));
    else if (r.status === 401 || r.status === 403 || r.status === 404) {
      e.waitUntil(caches.open(PAGES).then(function (c) { return c.delete(req.url); }));
    }
    return r;
  });
  if (req.mode !== "navigate") return net;  // a live page's refresh must see that it failed
  return new Promise(function (resolve) {
    var done = false;
    function give(r) { if (!done && r) { done = true; resolve(r); } }
    var slow = setTimeout(function () { copy(req.url).then(give); }, WAIT);
    net.then(function (r) { clearTimeout(slow); give(r); }, function () {
      clearTimeout(slow);
      copy(req.url).then(function (c) { give(c || none()); });
    });
  });
}
function asset(req) {  // cache first: the URL names the file's content
  return caches.match(req).then(function (hit) {
    return hit || fetch(req).then(function (r) {
      if (r.ok && /[?&]v=/.test(req.url)) {
        var c = r.clone();
        caches.open(STATIC).then(function (s) { return s.put(req, c); });
      }
      return r;
    }, function (err) {  // a copy made by an older server names an older file: the newest will do
      return caches.match(req, { ignoreSearch: true }).then(function (old) {
        if (old) return old;
        throw err;
      });
    });
  });
}
function anonymous(e) {  // the login page: nobody is logged in here, so no copy may stay
  return wipe().then(function () { return fetch(e.request); }).catch(function () { return none(); });
}

self.addEventListener("fetch", function (e) {
  var req = e.request, url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.method !== "GET") {  // sent through, never kept
    if (url.pathname === "/logout") e.waitUntil(wipe());
    // a form sent without the network gets a page saying so, not the browser's error;
    // a tap's failure goes back to the outbox, which keeps it
    e.respondWith(req.mode === "navigate" ? fetch(req).catch(unsent) : fetch(req));
    return;
  }
  if (url.pathname.indexOf("/static/") === 0) e.respondWith(asset(req));
  else if (/^\/(login|register)$/.test(url.pathname) && req.mode === "navigate") e.respondWith(anonymous(e));
  else if (isPage(url) && (req.mode === "navigate" || /text\/html/.test(req.headers.get("Accept") || ""))) {
    e.respondWith(page(e));
  }
});
self.addEventListener("message", function (e) {
  var d = e.data || {};
  if (d.wipe) e.waitUntil(wipe());
  else if (d.keep) {  // a page opened before this worker ran: keep its copy too
    var url = new URL(d.keep, self.location.href);
    if (url.origin !== self.location.origin || !isPage(url)) return;
    e.waitUntil(fetch(url.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { return r.status === 200 && !r.redirected && html(r) ? keep(url.href, r, Date.now()) : null; })
      .catch(function () { return null; }));
  }
});
