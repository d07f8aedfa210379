// Measures assembly panels: colour contrast of every line in every theme
// (plain, coloured, and outlined as a partner), partners highlighted both
// ways by mouse and by keyboard focus, colours without script, graphs'
// themed strokes and their width against the page. Writes JSON into
// <pre id="companion-test-result">.
(function () {
  "use strict";
  const THEMES = ["light", "rust", "coal", "navy", "ayu"];

  function parseColor(s) {
    const m = s.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter((x) => x).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  }
  function over(top, bottom) {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  }
  function luminance(c) {
    const l = c.slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
  }
  function ratio(a, b) {
    const x = luminance(a);
    const y = luminance(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }
  function background(el) {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parseColor(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) {
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    let bg = [255, 255, 255, 1];
    for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
    return bg;
  }

  function lineContrast(main) {
    const html = document.documentElement;
    const saved = html.className;
    const out = {};
    for (const theme of THEMES) {
      THEMES.forEach((t) => html.classList.remove(t));
      html.classList.add(theme);
      let worst = { ratio: 99 };
      let count = 0;
      const colours = new Set();
      const els = main.querySelectorAll(
        ".companion-ln, .companion-lno, .companion-asm-claims li, .companion-asm-claims-head, .companion-cfg figcaption",
      );
      for (const el of els) {
        if (!el.textContent.trim()) continue;
        const bg = background(el);
        const fg = parseColor(getComputedStyle(el).color);
        const r = ratio(over(fg, bg), bg);
        count++;
        if (el.matches("[data-line]")) colours.add(getComputedStyle(el).backgroundColor);
        if (r < worst.ratio) {
          worst = { ratio: Math.round(r * 100) / 100, text: el.textContent.slice(0, 40), cls: el.className };
        }
      }
      const edge = main.querySelector("path.companion-cfg-taken");
      out[theme] = {
        count: count,
        worst: worst,
        colours: colours.size,
        edge: edge ? getComputedStyle(edge).stroke : null,
        box: (function () {
          const r = main.querySelector("rect.companion-cfg-block");
          return r ? getComputedStyle(r).stroke : null;
        })(),
      };
    }
    html.className = saved;
    return out;
  }

  // Points at the first tied line of `side` and counts the outlined
  // partners on the other side, by mouse or by focus.
  function partners(main, side, how) {
    const tie = main.querySelector(".companion-asm-tie");
    const from = tie.querySelector(".companion-asm-" + side + " .companion-ln[data-line]");
    const line = from.getAttribute("data-line");
    const other = side === "src" ? "listing" : "src";
    if (how === "mouse") {
      from.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
    } else {
      from.focus();
    }
    const lit = tie.querySelectorAll(".companion-asm-" + other + ' .companion-ln.companion-partner[data-line="' + line + '"]').length;
    const expected = tie.querySelectorAll(".companion-asm-" + other + ' .companion-ln[data-line="' + line + '"]').length;
    const outline = getComputedStyle(tie.querySelector(".companion-asm-" + other + ' .companion-ln[data-line="' + line + '"]')).outlineStyle;
    if (how === "mouse") {
      from.dispatchEvent(new MouseEvent("mouseout", { bubbles: true }));
    } else {
      from.blur();
    }
    const after = tie.querySelectorAll(".companion-partner").length;
    return { line: line, lit: lit, expected: expected, outline: outline, after: after };
  }

  // Turns every `@media print` rule into an unconditional one.
  function emulatePrint() {
    let rules = 0;
    for (const sheet of Array.from(document.styleSheets)) {
      let list;
      try {
        list = sheet.cssRules;
      } catch (e) {
        continue;
      }
      for (const rule of Array.from(list)) {
        if (rule.media && rule.media.mediaText === "print") {
          rule.media.mediaText = "all";
          rules++;
        }
      }
    }
    return rules;
  }

  function run() {
    const main = document.querySelector("main");
    if (window.companionTest.print) {
      window.companionPrintRules = emulatePrint();
    }
    main.querySelectorAll("details").forEach((d) => (d.open = true));
    const out = { width: window.innerWidth, printRules: window.companionPrintRules || 0 };
    const tie = main.querySelector(".companion-asm-tie");
    out.printColorAdjust = tie ? getComputedStyle(tie).printColorAdjust : null;
    out.ties = main.querySelectorAll(".companion-asm-tie").length;
    out.claims = Array.from(main.querySelectorAll(".companion-asm-claims")).map((c) => c.innerText);
    out.graphs = main.querySelectorAll("svg.companion-cfg-svg").length;
    out.contrast = lineContrast(main);
    out.script = typeof window.companionAsmLoaded !== "undefined" || !!document.querySelector("script[src*='companion']");
    if (window.companionTest.partners) {
      out.partners = {
        srcMouse: partners(main, "src", "mouse"),
        listingMouse: partners(main, "listing", "mouse"),
        srcFocus: partners(main, "src", "focus"),
        listingFocus: partners(main, "listing", "focus"),
      };
    }
    // The page never scrolls sideways; a wide graph scrolls in its box.
    out.pageWidth = document.documentElement.scrollWidth;
    out.graphBoxes = Array.from(main.querySelectorAll(".companion-cfg-scroll")).map((b) => ({
      right: b.getBoundingClientRect().right,
      scrolls: b.scrollWidth > b.clientWidth,
      overflowX: getComputedStyle(b).overflowX,
    }));
    let pre = document.getElementById("companion-test-result");
    if (!pre) {
      pre = document.createElement("pre");
      pre.id = "companion-test-result";
      document.body.appendChild(pre);
    }
    pre.textContent = JSON.stringify(out);
  }

  window.addEventListener("load", function () {
    setTimeout(function () {
      try {
        run();
      } catch (e) {
        const pre = document.createElement("pre");
        pre.id = "companion-test-result";
        pre.textContent = JSON.stringify({ error: String(e && e.stack ? e.stack : e) });
        document.body.appendChild(pre);
      }
    }, 100);
  });
})();
