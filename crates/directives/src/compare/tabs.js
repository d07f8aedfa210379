// Tabbed comparisons choose together: picking a language in one selects it
// in every tabbed comparison of the page, and later pages remember it
// (localStorage). Without this script the tabs still switch (they are
// radio inputs styled by CSS); it only keeps them in step.
(function () {
  "use strict";
  var KEY = "mdbook-companion-tab";
  var INPUTS = "input.companion-tab-input[data-companion-tab]";

  function choose(label) {
    var all = document.querySelectorAll(INPUTS);
    for (var i = 0; i < all.length; i++) {
      if (all[i].getAttribute("data-companion-tab") === label) all[i].checked = true;
    }
  }

  var saved = null;
  try {
    saved = window.localStorage.getItem(KEY);
  } catch (e) {
    // Storage refused (private mode, file pages): choices last one page.
  }
  if (saved) choose(saved);

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches(INPUTS)) return;
    var label = input.getAttribute("data-companion-tab");
    // Other blocks above may change height: keep the chosen tab where the
    // reader's eyes are.
    var before = input.parentElement.getBoundingClientRect().top;
    choose(label);
    var after = input.parentElement.getBoundingClientRect().top;
    if (after !== before) window.scrollBy(0, after - before);
    try {
      window.localStorage.setItem(KEY, label);
    } catch (e) {
      // As above: the page still keeps its blocks in step.
    }
  });
})();
