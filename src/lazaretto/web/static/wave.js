/* The wave screen: the people ticked go in the order they were ticked (A-W-22: when a
 * wave's stickers run short, the first met get them), kept in the form's "order" field
 * and shown by each row. Without the script the server takes the list's order. Listens
 * on the document, so a refusal's page put in place by the outbox works the same. */
(function () {
  "use strict";
  document.addEventListener("change", function (e) {
    var box = e.target, form = box.form;
    if (!box.matches || !box.matches("input[data-met]") || !form) return;
    var field = form.querySelector("input[name=order]"), ids;
    if (!field) return;
    try { ids = JSON.parse(field.value || "[]"); } catch (err) { ids = []; }
    ids = ids.filter(function (id) { return id !== box.value; });
    if (box.checked) ids.push(box.value);
    field.value = JSON.stringify(ids);
    Array.prototype.forEach.call(form.querySelectorAll("input[data-met]"), function (b) {
      var mark = b.parentNode.querySelector("[data-order]"), n = ids.indexOf(b.value);
      if (mark) mark.textContent = n < 0 ? "" : String(n + 1);
    });
  });
})();
