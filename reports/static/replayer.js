// The hand replayer: step forward and back through a hand's actions.  No dependencies, no inline
// code: each .replayer section names a <script type="application/json"> block holding its steps.
// Player names and actions are set with textContent only (they are attacker-controlled text).
(function () {
  function each(list, fn) { Array.prototype.forEach.call(list, fn); }
  function cardSpans(el, board) {
    el.textContent = "";
    if (!board.length) { el.textContent = "–"; return; }
    board.forEach(function (c) {
      var s = document.createElement("span");
      s.className = "card-s suit-" + c[1];
      s.textContent = c[0];
      el.appendChild(s);
    });
  }
  function setup(root) {
    var src = document.getElementById(root.getAttribute("data-replay"));
    if (!src) return;
    var data;
    try { data = JSON.parse(src.textContent); } catch (e) { return; }
    var steps = data.steps, cur = data.current;
    var first = -1;
    steps.forEach(function (s, i) { if (first < 0 && s.offending) first = i; });
    var controls = root.querySelector(".controls");
    controls.hidden = false;
    if (first < 0) controls.querySelector("[data-go=finding]").hidden = true;
    var q = function (sel) { return root.querySelector(sel); };
    function show(i) {
      cur = Math.max(0, Math.min(steps.length - 1, i));
      var s = steps[cur];
      q("[data-pot]").textContent = s.pot;
      cardSpans(q("[data-board]"), s.board);
      q("[data-line]").textContent = s.line;
      q("[data-actor]").textContent = s.player;
      q("[data-action]").textContent = s.action;
      var notes = q("[data-notes]");
      notes.textContent = "";
      s.notes.forEach(function (n) {
        var f = document.createElement("span");
        f.className = "flag";
        f.textContent = n;
        notes.appendChild(f);
      });
      q("[data-pos]").textContent = cur + 1;
      each(root.querySelectorAll("li.seat"), function (li) {
        var k = +li.getAttribute("data-seat");
        li.querySelector(".seat-stack").textContent = s.stacks[k];
        li.querySelector("[data-bet]").textContent = s.bets[k];
        li.classList.toggle("folded", !!s.folded[k]);
        li.classList.toggle("acting", steps[cur].player !== "" && li.querySelector(".seat-name").textContent === s.player);
      });
      root.classList.toggle("at-finding", !!s.offending);
      each(root.querySelectorAll("tr[data-step]"), function (tr) {
        var on = +tr.getAttribute("data-step") === cur;
        tr.classList.toggle("current", on);
        if (on) tr.setAttribute("aria-current", "step"); else tr.removeAttribute("aria-current");
      });
    }
    var go = {
      first: function () { show(0); },
      prev: function () { show(cur - 1); },
      next: function () { show(cur + 1); },
      last: function () { show(steps.length - 1); },
      finding: function () { if (first >= 0) show(first); }
    };
    each(controls.querySelectorAll("button[data-go]"), function (b) {
      b.addEventListener("click", function () { go[b.getAttribute("data-go")](); });
    });
    root.addEventListener("keydown", function (e) {
      if (e.key === "ArrowRight") { go.next(); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { go.prev(); e.preventDefault(); }
    });
    each(root.querySelectorAll("tr[data-step]"), function (tr) {
      tr.addEventListener("click", function (e) {
        if (e.target.tagName === "A") return;
        show(+tr.getAttribute("data-step"));
      });
    });
    show(cur);
  }
  each(document.querySelectorAll(".replayer[data-replay]"), setup);
})();
