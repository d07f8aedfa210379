// Assembly panels: pointing at a source line or an instruction (mouse or
// keyboard focus) outlines its partners on the other side. Without this
// script the shared colours still tie them.
(function () {
  "use strict";
  function partners(el, on) {
    var tie = el.closest(".companion-asm-tie");
    if (!tie) {
      return;
    }
    var line = el.getAttribute("data-line");
    var all = tie.querySelectorAll('.companion-ln[data-line="' + line + '"]');
    for (var i = 0; i < all.length; i++) {
      all[i].classList.toggle("companion-partner", on);
    }
  }
  function handler(on) {
    return function (e) {
      var el = e.target.closest && e.target.closest(".companion-ln[data-line]");
      if (el) {
        partners(el, on);
      }
    };
  }
  document.addEventListener("mouseover", handler(true));
  document.addEventListener("mouseout", handler(false));
  document.addEventListener("focusin", handler(true));
  document.addEventListener("focusout", handler(false));
})();
