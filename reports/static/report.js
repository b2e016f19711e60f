// Filter the findings table by code, severity and site; sort it by a column.  No dependencies.
(function () {
  var table = document.getElementById("findings");
  if (!table) return;
  var body = table.tBodies[0];
  var selects = document.querySelectorAll("#filters select");
  var shown = document.getElementById("shown");
  var keys = ["code", "severity", "site"];
  function apply() {
    var want = {};
    selects.forEach(function (s, i) { want[keys[i]] = s.value; });
    var n = 0;
    Array.prototype.forEach.call(body.rows, function (r) {
      var ok = keys.every(function (k) { return !want[k] || r.dataset[k] === want[k]; });
      r.style.display = ok ? "" : "none";
      if (ok) n++;
    });
    shown.textContent = n + " of " + body.rows.length + " findings shown";
  }
  selects.forEach(function (s) { s.addEventListener("change", apply); });
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
    if (!th.classList.contains("sortable")) return;
    th.addEventListener("click", function () {
      var dir = th.dataset.dir === "asc" ? -1 : 1;
      th.dataset.dir = dir === 1 ? "asc" : "desc";
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        return a.cells[col].textContent.localeCompare(b.cells[col].textContent, undefined, {numeric: true}) * dir;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
})();
