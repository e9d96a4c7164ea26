/* Lazaretto outbox: a tap is never lost and never doubled.
 * Every form that records a change (it carries an idempotency key, "idem") is sent
 * with fetch, with its tap time in campaign time ("x_at": the page's campaign clock,
 * <main data-now>, moved on by the time elapsed — never the phone's own clock). When
 * there is no answer (no Wi-Fi, a lost answer) it waits in an outbox in localStorage,
 * which survives a reload or a closed tab, and is sent again, in order, with the same
 * key, on "online", on focus, on every page load and every 15 s; the server records it
 * once, at its tap time; the form gets a new key for the next tap. Waiting taps on
 * action forms go up to eight in one request (/c/{campaign}/outbox), each answered as
 * its form would be. A badge says how many wait; results and refusals are shown
 * (a refusal's page replaces <main> in place: no document.write, whose new document
 * would run live.js a second time beside the first one's timers); a waiting tap refused
 * when it is sent later stays in the badge, with its reason, until the next tap. The
 * badge sticks to the top under the offline banner, so a tap at the bottom of a long
 * form shows that it waits. */
(function () {
  "use strict";
  var KEY = "lazaretto-outbox", sending = false;
  var SAID = "lazaretto-outbox-refused";  // kept for the page reloaded after a send
  var refused = sessionStorage.getItem(SAID) || "";  // a waiting tap the server
  // refused: said until the next tap
  var ru = (document.documentElement.lang || "").indexOf("ru") === 0;

  function load() { try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; } }
  function save(q) { localStorage.setItem(KEY, JSON.stringify(q)); }
  function freshKey() {  // as the server's (16 url-safe characters); getRandomValues,
    // not randomUUID, which a field laptop served over plain http does not have
    var b = crypto.getRandomValues(new Uint8Array(12)), s = "";
    for (var i = 0; i < b.length; i++) s += String.fromCharCode(b[i]);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_");
  }
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function tapTime() {  // the campaign clock as the page knows it, as ISO (no zone), with
    // milliseconds: cut to the second, a tap made just after another record in the same
    // second was placed before it (and refused when it needed it, e.g. a new carrier)
    var el = document.querySelector("main"), s = el && el.dataset.now;
    var m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?/.exec(s || "");
    if (!m) return "";
    var ms = m[7] ? Math.floor(+(m[7] + "00000").slice(0, 6) / 1000) : 0;
    var t = Date.UTC(+m[1], m[2] - 1, +m[3], +m[4], +m[5], +m[6], ms);
    if (el.dataset.running === "1") t += Date.now() - (window.lazarettoRendered || Date.now());
    var d = new Date(t);
    return d.getUTCFullYear() + "-" + two(d.getUTCMonth() + 1) + "-" + two(d.getUTCDate()) + "T" +
      two(d.getUTCHours()) + ":" + two(d.getUTCMinutes()) + ":" + two(d.getUTCSeconds()) +
      "." + ("00" + d.getUTCMilliseconds()).slice(-3);
  }
  function note(text) {
    var el = document.getElementById("outbox");
    if (!el) {
      el = document.createElement("p");
      el.id = "outbox"; el.className = "outbox"; el.setAttribute("role", "status");
      document.body.insertBefore(el, document.body.firstChild);
    }
    el.hidden = !text;
    el.textContent = text || "";
    place();
  }
  function place() {  // under the offline banner, both stuck at the top: a tap at the
    // bottom of a long form (the outbreak's people) still shows that it waits
    var el = document.getElementById("outbox"), net = document.getElementById("net");
    if (el) el.style.top = net && !net.hidden ? net.offsetHeight + "px" : "0";
  }
  function badge(extra) {
    var n = load().length;
    var waiting = n ? (ru ? n + " ждут отправки" : n + " waiting to send") : "";
    note([waiting, extra || refused].filter(Boolean).join(" · "));
  }
  function post(item) {
    return fetch(item.url, {
      method: "POST", body: item.body, credentials: "same-origin", redirect: "follow",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html",
                 "X-Lazaretto-Outbox": "1" }
    });
  }
  function show(r) {  // the answer of a tap made on this page: go where it leads
    if (r.redirected) { location.href = r.url; return; }
    r.text().then(function (html) {  // a refusal: its page in place of this one's <main>
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.querySelector("main"), el = document.querySelector("main");
      if (!fresh || !el) { location.href = r.url; return; }
      document.title = doc.title;
      el.replaceWith(fresh);
      window.scrollTo(0, 0);
      document.dispatchEvent(new CustomEvent("lazaretto:page",
        { detail: { live: !!(doc.body && doc.body.dataset.stream) } }));
    });
  }
  var ACT = /^\/c\/([^\/]+)\/act\/([^\/?#]+)$/,
    TOGETHER = +((document.currentScript || {}).dataset || {}).together || 8;  // the server's
    // OUTBOX_MAX (8: a page saved offline before it said so)
  function act(item) {  // [campaign, action] of a tap made on an action's form, else null
    try { return ACT.exec(new URL(item.url, location.href).pathname); } catch (e) { return null; }
  }
  function together(q) {  // the first waiting taps on action forms of one campaign, at
    // most TOGETHER (as many as one user may have waiting): sent in one request, so the server
    // places them by one re-run with the other phones' (a Wi-Fi storm, issue 25)
    var first = act(q[0]), n = 0;
    while (first && n < q.length && n < TOGETHER) {
      var m = act(q[n]);
      if (!m || m[1] !== first[1]) break;
      n++;
    }
    return n >= 2 ? q.slice(0, n) : [];
  }
  function flush() {  // the waiting taps, in order, until one gets no answer
    if (sending) return;
    var q = load();
    if (!q.length) { badge(); return; }
    sending = true;
    var group = together(q);
    if (group.length) sendTogether(group); else sendOne(q[0]);
  }
  function sendTogether(group) {
    var taps = group.map(function (item) {
      return { action: decodeURIComponent(act(item)[2]), body: item.body };
    });
    fetch("/c/" + act(group[0])[1] + "/outbox", {
      method: "POST", body: JSON.stringify({ taps: taps }), credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json",
                 "X-Lazaretto-Outbox": "1" }
    }).then(function (r) {
      if (r.status >= 500) { sending = false; badge(); return; }  // all of them, later
      if (!r.ok) { sendOne(group[0]); return; }  // e.g. a stale page: the first says why
      return r.json().then(function (out) {
        var done = 0, recorded = false, why = "";
        for (; done < out.answers.length; done++) {
          var a = out.answers[done];
          if (a.status === 429) break;  // no turn: it and those after it, in order, later
          if (a.status === 200) recorded = true;
          else why = (ru ? "отказ: " : "refused: ") + group[done].what + (a.error ? " — " + a.error : "");
        }
        save(load().slice(done));  // taps made meanwhile wait after them
        if (why) { refused = why; sessionStorage.setItem(SAID, why); }
        sending = false;
        badge(why || (done ? (ru ? "отправлено" : "sent") : ""));
        if (done && load().length) flush();  // the refusal is said again after the reload
        else if (recorded) setTimeout(function () { location.reload(); }, 800);
      });
    }).catch(function () { sending = false; badge(); });
  }
  function sendOne(item) {
    post(item).then(function (r) {
      var rest = load().slice(1), sent = ru ? "отправлено" : "sent";
      save(rest);
      if (!r.ok && !r.redirected) {  // said, with the reason, until the next tap
        sent = refused = (ru ? "отказ: " : "refused: ") + item.what;
        r.text().then(function (html) {
          var why = new DOMParser().parseFromString(html, "text/html").querySelector(".error");
          if (why && refused) { refused += " — " + why.textContent.trim(); badge(); }
        });
      }
      sending = false;
      badge(sent);
      if (rest.length) flush(); else if (r.redirected) setTimeout(function () { location.reload(); }, 800);
    }).catch(function () { sending = false; badge(); });
  }
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.querySelector || !form.querySelector("input[name=idem]") ||
        (form.method || "").toLowerCase() !== "post") return;
    e.preventDefault();
    refused = "";
    sessionStorage.removeItem(SAID);
    var data = new URLSearchParams(new FormData(form));
    if (!data.get("x_at")) data.set("x_at", tapTime());
    // the tap keeps its key (a resend records it once); the form gets a new one, so a
    // second tap on the same page, offline too, is a second change, not a resend
    form.querySelector("input[name=idem]").value = freshKey();
    var button = form.querySelector("button");
    var item = { url: form.action, body: data.toString(), what: (button && button.textContent.trim()) || "",
                 at: data.get("x_at") };
    if (load().length) {  // others wait already: this one goes after them, in order
      var q = load(); q.push(item); save(q); badge(); flush(); return;
    }
    post(item).then(show).catch(function () {
      var q = load(); q.push(item); save(q); badge();
    });
  }, true);
  window.lazarettoRendered = window.lazarettoRendered || Date.now();  // live.js knows better
  window.addEventListener("online", flush);
  ["online", "offline"].forEach(function (what) {  // after live.js shows or hides the banner
    window.addEventListener(what, function () { setTimeout(place, 50); });
  });
  window.addEventListener("focus", flush);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") flush();
  });
  setInterval(flush, 15000);
  flush();
})();
