/* Lazaretto live page: countdowns and server-sent updates. No framework.
 * Every [data-deadline] counts down on the campaign clock: <main data-now> is the
 * server's campaign time when the page was rendered, so a phone whose clock is wrong
 * still shows the right time left. On a "changed" event from the campaign stream the
 * page fetches itself and swaps <main>. Without the network (or a lost answer) it
 * keeps trying with backoff (1 s doubling to 30 s), refreshes on reconnect and on
 * focus, and says so: "offline — last updated 12:41:07"; countdowns keep ticking
 * from the last known deadlines, marked as possibly out of date. A page the service
 * worker (sw.js, registered here) shows from its copy carries <body data-copy> (when it
 * was fetched): its clock runs from then and it says "offline — copy from 12:41:07". */
(function () {
  "use strict";
  var base = 0, rendered = 0, running = false, seen = 0, busy = false, again = false;
  var pending = false, wait = 1000, retry = null, lastOk = Date.now(), offline = false;
  var copyAt = Number(document.body.dataset.copy) || 0, still = false, es = null;
  var copyNote = copyAt && document.getElementById("net") ? document.getElementById("net").textContent : "";
  if (copyAt) lastOk = copyAt;
  var ru = (document.documentElement.lang || "").indexOf("ru") === 0;

  function hms(d) { return two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds()); }
  function banner() {
    var el = document.getElementById("net");
    if (!el) {
      el = document.createElement("p");
      el.id = "net"; el.setAttribute("role", "status"); el.className = "net";
      document.body.insertBefore(el, document.body.firstChild);
    }
    return el;
  }
  function state(down) {  // down: no contact with the server now
    offline = down;
    document.body.classList.toggle("stale", down);
    var el = banner(), when = hms(new Date(lastOk));
    var head = copyNote || (ru ? "нет связи — обновлено в " : "offline — last updated ") + when;
    el.hidden = !down;
    el.textContent = down ? head + (ru ? "; отсчёты могут быть неточны" : "; countdowns may be out of date") : "";
  }
  function ok() {
    lastOk = Date.now(); wait = 1000;
    if (copyAt) { copyAt = 0; copyNote = ""; delete document.body.dataset.copy; }
    if (offline) state(false);
  }
  function later() {  // try again, ever more patiently, until it works
    if (retry) return;
    state(true);
    retry = setTimeout(function () { retry = null; refresh(); }, wait);
    wait = Math.min(wait * 2, 30000);
  }

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
    rendered = copyAt || Date.now();  // a copy's campaign clock was read when it was fetched
    window.lazarettoRendered = rendered;  // the outbox reads the campaign clock the same way
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
  var failed = false;
  function keep(old, fresh) {  // open sections stay open across a refresh
    var open = old.querySelectorAll("details[open]"), i, sum, same;
    for (i = 0; i < open.length; i++) {
      sum = open[i].querySelector("summary");
      same = sum && Array.prototype.find.call(fresh.querySelectorAll("details summary"),
        function (s) { return s.textContent === sum.textContent; });
      if (same) same.parentNode.open = true;
    }
    // the confirmation of what was just recorded (and its Undo) stays until one leaves
    var told = old.querySelectorAll(":scope > p.ok[role=status], :scope > form.undo");
    if (told.length && !fresh.querySelector(":scope > p.ok[role=status]")) {
      for (i = told.length - 1; i >= 0; i--) fresh.insertBefore(told[i], fresh.firstChild);
    }
  }
  function refresh() {
    if (still) return;
    if (typing()) { pending = true; return; }
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) {
        if (r.redirected) { location.href = r.url; return null; }  // e.g. logged out
        if (!r.ok) throw new Error("status " + r.status);
        return r.text();
      })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        var el = main();
        if (fresh && el) { keep(el, fresh); el.replaceWith(fresh); sync(); tick(); }
        ok();
      })
      .catch(function () { failed = true; })
      .then(function () {
        busy = false;
        var v = Number(main().dataset.version || 0);
        if (failed || v < seen) { failed = false; later(); }
        else if (again) { again = false; setTimeout(refresh, 0); }
      });
  }
  document.addEventListener("focusout", function () {
    setTimeout(function () { if (pending && !typing()) { pending = false; refresh(); } }, 0);
  });
  sync();
  tick();
  if (copyAt) state(true);
  setInterval(tick, 1000);
  document.addEventListener("lazaretto:page", function (e) {  // outbox.js showed an answer in place
    sync(); tick();
    if (!e.detail || !e.detail.live) { still = true; if (es) es.close(); }  // a form, not a live page
  });
  window.addEventListener("online", refresh);
  window.addEventListener("offline", function () { state(true); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") refresh();
  });
  var url = document.body.dataset.stream;
  function listen() {
    if (still) return;
    es = new EventSource(url);
    es.addEventListener("open", function () { if (offline) refresh(); else ok(); });
    es.addEventListener("changed", function (e) {
      var v = 0;
      try { v = JSON.parse(e.data).version; } catch (err) { return; }
      ok();
      seen = Math.max(seen, v);
      if (v > Number(main().dataset.version || 0)) refresh();
    });
    es.addEventListener("error", function () {
      state(true);
      if (es.readyState === 2) {  // closed for good (the server said no): start again
        setTimeout(listen, wait);
        wait = Math.min(wait * 2, 30000);
      }
    });
  }
  if (url && window.EventSource) listen();
  var sw = window.isSecureContext && navigator.serviceWorker;  // https, or this machine
  if (sw) {
    sw.register("/sw.js").then(function () {
      if (!sw.controller && !copyAt) {  // this page came before the worker: keep it too
        sw.ready.then(function (r) { if (r.active) r.active.postMessage({ keep: location.href }); });
      }
    }).catch(function () { /* no worker: pages just need the network */ });
  }
  if (window.caches && !document.querySelector("form[action='/logout']")) {
    caches.delete("lazaretto-pages");  // nobody is logged in here: no one's copies may stay
    if (sw && sw.controller) sw.controller.postMessage({ wipe: true });
  }
})();
