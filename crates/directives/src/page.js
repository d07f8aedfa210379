// The page as a keyboard and a screen reader reach it, mdBook's own parts
// as well as ours (axe-core's WCAG 2 A and AA rules):
// - a region that scrolls (a long line in a code block, a wide table, an
//   assembly listing) and holds nothing focusable gets a tab stop, so that
//   a keyboard can scroll it (`scrollable-region-focusable`); looked at
//   again when the window's width changes or a panel opens;
// - mdBook's sidebar toggle, a <label>, is a button to assistive
//   technology and to the keyboard (Enter and Space), so that its
//   aria-label and aria-controls are allowed (`aria-allowed-attr`).
(function () {
  "use strict";
  var FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";
  var SCROLLERS = "main pre, main code, main .table-wrapper, main table, " +
    "main [class^='companion'], main [class*=' companion']";

  function scrolls(el) {
    var style = window.getComputedStyle(el);
    var x = /(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
    var y = /(auto|scroll)/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1;
    return x || y;
  }

  function reachable() {
    var all = document.querySelectorAll(SCROLLERS);
    for (var i = 0; i < all.length; i++) {
      var el = all[i];
      if (el.hasAttribute("tabindex") || !scrolls(el) || el.querySelector(FOCUSABLE)) {
        continue;
      }
      el.setAttribute("tabindex", "0");
      el.setAttribute("data-companion-scroll", "");
    }
  }

  function toggleIsAButton() {
    var toggle = document.getElementById("mdbook-sidebar-toggle");
    if (!toggle || toggle.tagName !== "LABEL" || toggle.hasAttribute("role")) {
      return;
    }
    toggle.setAttribute("role", "button");
    toggle.setAttribute("tabindex", "0");
    toggle.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        toggle.click();
      }
    });
  }

  var pending = null;
  function later() {
    if (pending !== null) {
      window.clearTimeout(pending);
    }
    pending = window.setTimeout(function () {
      pending = null;
      reachable();
    }, 150);
  }

  function start() {
    toggleIsAButton();
    reachable();
    window.addEventListener("resize", later);
    document.addEventListener("toggle", later, true);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
