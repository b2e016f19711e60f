// The report's progressive enhancements, no dependencies: filter the findings table by code,
// severity and site; sort any table with sortable headers (buttons: keyboard too; aria-sort says
// the order); search hand ids, players, files and codes over search-index.js.  Text from the
// hand histories is only ever set with textContent.
(function () {
  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  var table = document.getElementById("findings");
  if (table) {
    var body = table.tBodies[0];
    var selects = document.querySelectorAll("#filters select");
    var shown = document.getElementById("shown");
    var keys = ["code", "severity", "site"];
    var apply = function () {
      var want = {};
      each(selects, function (s, i) { want[keys[i]] = s.value; });
      var n = 0;
      each(body.rows, function (r) {
        var ok = keys.every(function (k) { return !want[k] || r.dataset[k] === want[k]; });
        r.style.display = ok ? "" : "none";
        if (ok) n++;
      });
      shown.textContent = n + " of " + body.rows.length + " findings shown";
    };
    each(selects, function (s) { s.addEventListener("change", apply); });
  }

  each(document.querySelectorAll("table.sortable-table"), function (t) {
    var heads = t.tHead.rows[0].cells;
    each(heads, function (th, col) {
      if (!th.classList.contains("sortable")) return;
      var b = th.querySelector("button") || th;
      b.addEventListener("click", function () {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        each(heads, function (h) { if (h.classList.contains("sortable")) h.setAttribute("aria-sort", "none"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var dir = asc ? 1 : -1;
        var tb = t.tBodies[0];
        var rows = Array.prototype.slice.call(tb.rows);
        rows.sort(function (a, c) {
          return a.cells[col].textContent.trim().localeCompare(c.cells[col].textContent.trim(), undefined,
            {numeric: true}) * dir;
        });
        rows.forEach(function (r) { tb.appendChild(r); });
      });
    });
  });

  var form = document.getElementById("search");
  var index = window.hhauditSearch;
  if (form && index && index.rows) {
    form.hidden = false;
    var q = document.getElementById("q");
    var out = document.getElementById("search-results");
    var status = document.getElementById("search-status");
    var F = {};
    index.fields.forEach(function (f, i) { F[f] = i; });
    var entry = function (r) {
      return [r[F.hand], r[F.players], r[F.file], r[F.code]].join("\n").toLowerCase();
    };
    var hay = index.rows.map(entry);
    // A large report's index comes in parts (search-index-<n>.js), loaded at the first search.
    var parts = (index.parts || []).slice();
    var total = parts.length;
    var loading = false;
    window.hhauditSearchPart = function (rows) {
      rows.forEach(function (r) { index.rows.push(r); hay.push(entry(r)); });
    };
    var load = function () {
      loading = true;
      if (!parts.length) { loading = false; run(); return; }
      status.textContent = "Loading the search index (part " + (total - parts.length + 1) + " of " + total + ")…";
      var s = document.createElement("script");
      s.src = parts.shift();
      s.onload = load;
      s.onerror = function () { status.textContent = "The search index could not be loaded (" + s.src + ")."; };
      document.body.appendChild(s);
    };
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    var run = function () {
      var words = q.value.toLowerCase().split(/\s+/).filter(Boolean);
      out.textContent = "";
      if (!words.length) { status.textContent = ""; return; }
      if (loading) return;  // the search runs when the last part is in
      if (parts.length) { load(); return; }
      var hits = [];
      for (var i = 0; i < hay.length; i++) {
        if (words.every(function (w) { return hay[i].indexOf(w) >= 0; })) hits.push(index.rows[i]);
      }
      status.textContent = hits.length + " finding" + (hits.length === 1 ? "" : "s") + " match" +
        (hits.length > 100 ? " (the first 100 are listed)" : "");
      hits.slice(0, 100).forEach(function (r) {
        var li = document.createElement("li");
        var a = document.createElement(r[F.href] ? "a" : "span");
        if (r[F.href]) a.setAttribute("href", r[F.href]);
        a.textContent = r[F.code] + " " + (r[F.hand] ? "hand " + r[F.hand] : r[F.file]);
        li.appendChild(a);
        var rest = document.createElement("span");
        rest.className = "muted";
        rest.textContent = " · " + r[F.file] + (r[F.line] ? ":" + r[F.line] : "") +
          (r[F.players] ? " · " + r[F.players] : "") + " · " + r[F.message];
        li.appendChild(rest);
        out.appendChild(li);
      });
    };
    q.addEventListener("input", run);
  }
})();
