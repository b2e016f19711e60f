// hhaudit serve: drop a hand-history file onto the paste box (progressive enhancement: without
// JavaScript the file field does the same).  No dependencies, no requests of its own.
(function () {
  var box = document.getElementById("text");
  var file = document.getElementById("file");
  if (!box || !file) return;
  function stop(e) { e.preventDefault(); e.stopPropagation(); }
  ["dragenter", "dragover"].forEach(function (t) {
    box.addEventListener(t, function (e) { stop(e); box.classList.add("drop"); });
  });
  ["dragleave", "drop"].forEach(function (t) {
    box.addEventListener(t, function (e) { stop(e); box.classList.remove("drop"); });
  });
  box.addEventListener("drop", function (e) {
    var files = e.dataTransfer && e.dataTransfer.files;
    if (!files || !files.length) return;
    file.files = files;  // the form uploads the file itself: the server reads any encoding
    box.value = "";
    box.placeholder = "File " + files[0].name + " chosen: press Audit.";
  });
})();
