/* Lazaretto live page: countdowns and server-sent updates. No framework.
 * Every [data-deadline] counts down on the campaign clock: <main data-now> is the
 * server's campaign time when the page was rendered, so a phone whose clock is wrong
 * still shows the right time left. On a "changed" event from the campaign stream the
 * page fetches itself and swaps <main>; EventSource reconnects by itself. */
(function () {
  "use strict";
  var base = 0, rendered = 0, running = false, seen = 0, busy = false, again = false;
  var pending = false, tries = 0;

  function parse(s) {
    var m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?/.exec(s || "");
    if (!m) return NaN;
    var ms = m[7] ? Math.floor(Number((m[7] + "00").slice(0, 3))) : 0;
    return Date.UTC(+m[1], m[2] - 1, +m[3], +m[4], +m[5], +m[6], ms);
  }
  function main() { return document.querySelector("main"); }
  function sync() {
    var el = main();
    base = parse(el && el.dataset.now);
    rendered = Date.now();
    running = !!el && el.dataset.running === "1";
  }
  function now() { return running ? base + (Date.now() - rendered) : base; }
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function fmt(ms) {
    var s = Math.max(0, Math.floor(ms / 1000)), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
    return (h ? h + ":" + two(m) : m) + ":" + two(s % 60);
  }
  function tick() {
    if (isNaN(base)) return;
    var t = now(), els = document.querySelectorAll("[data-deadline]"), i, left;
    for (i = 0; i < els.length; i++) {
      left = parse(els[i].dataset.deadline) - t;
      els[i].textContent = fmt(left);
      els[i].classList.toggle("due", left <= 0);
      els[i].classList.toggle("soon", left > 0 && left < 300000);
    }
    var clock = document.querySelector("[data-clock]");
    if (clock) {
      var d = new Date(t);
      clock.textContent = two(d.getUTCHours()) + ":" + two(d.getUTCMinutes()) + ":" + two(d.getUTCSeconds());
    }
  }
  function typing() {
    var a = document.activeElement, el = main();
    return a && el && el.contains(a) && /^(INPUT|TEXTAREA|SELECT)$/.test(a.tagName);
  }
  function refresh() {
    if (typing()) { pending = true; return; }
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) {
        if (r.redirected) { location.href = r.url; return null; }  // e.g. logged out
        return r.ok ? r.text() : null;
      })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        var el = main();
        if (fresh && el) { el.replaceWith(fresh); sync(); tick(); }
      })
      .catch(function () {})
      .then(function () {
        busy = false;
        var v = Number(main().dataset.version || 0);
        if (again || (v < seen && tries++ < 3)) { again = false; setTimeout(refresh, 500); }
        else if (v >= seen) tries = 0;
      });
  }
  document.addEventListener("focusout", function () {
    setTimeout(function () { if (pending && !typing()) { pending = false; refresh(); } }, 0);
  });
  sync();
  tick();
  setInterval(tick, 1000);
  var url = document.body.dataset.stream;
  if (url && window.EventSource) {
    var es = new EventSource(url);
    es.addEventListener("changed", function (e) {
      var v = 0;
      try { v = JSON.parse(e.data).version; } catch (err) { return; }
      seen = Math.max(seen, v);
      if (v > Number(main().dataset.version || 0)) refresh();
    });
  }
})();
