// Measures a rendered mdBook page in headless Chromium and writes the
// result as JSON into the element with id companion-test-result, which the Rust side
// reads back from `--dump-dom`. `window.companionTest` (set by the Rust side
// before this script) picks what to do: `{ mode: "screen" | "print" }`.
(function () {
  "use strict";
  const THEMES = ["light", "rust", "coal", "navy", "ayu"];
  const DIRECTIVES =
    ".companion-example, .companion-compare, .companion-exercise, .companion-reading-list, " +
    ".companion-talks, .companion-claims, .companion-quiz, .companion-error";
  // What an exercise leaves off paper by design: its hints, and its
  // solution unless the book prints solutions.
  const UNPRINTED =
    ".companion-exercise-hints, .companion-exercise-solution:not(.companion-exercise-printed), " +
    ".companion-quiz:not(.companion-quiz-printed) .companion-quiz-answer";
  const cfg = window.companionTest || { mode: "screen" };

  function rect(el) {
    const r = el.getBoundingClientRect();
    return {
      left: r.left + window.scrollX,
      top: r.top + window.scrollY,
      right: r.right + window.scrollX,
      bottom: r.bottom + window.scrollY,
      width: r.width,
      height: r.height,
    };
  }

  function shown(el) {
    return el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  }

  function describe(el) {
    let s = el.tagName.toLowerCase();
    if (el.className && typeof el.className === "string") {
      s += "." + el.className.trim().split(/\s+/).join(".");
    }
    const text = (el.textContent || "").trim().replace(/\s+/g, " ");
    return s + ' "' + text.slice(0, 40) + '"';
  }

  // Top-level directives: not nested in another directive.
  function directives(root) {
    return Array.from(root.querySelectorAll(DIRECTIVES)).filter(
      (el) => !el.parentElement.closest(DIRECTIVES),
    );
  }

  // ---- colours -----------------------------------------------------------

  function parseColor(s) {
    const m = s.match(/rgba?\(([^)]+)\)/);
    if (m) {
      const p = m[1].split(/[ ,/]+/).filter((x) => x).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    }
    // color(srgb r g b / a), as color-mix() computes.
    const c = s.match(/color\(srgb ([^)]+)\)/);
    if (c) {
      const p = c[1].split(/[ /]+/).filter((x) => x).map(Number);
      return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
    }
    return null;
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

  // The opaque colour behind an element: its own and its ancestors'
  // backgrounds composited from the canvas (white) up.
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

  function opacity(el) {
    let o = 1;
    for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
    return o;
  }

  // Every element of ours that shows text of its own, outside code blocks
  // (those keep mdBook's highlighting theme).
  function textElements(root) {
    const out = [];
    for (const d of directives(root)) {
      for (const el of [d].concat(Array.from(d.querySelectorAll("*")))) {
        if (el.closest("pre, code, input, script, style")) continue;
        const own = Array.from(el.childNodes).some(
          (n) => n.nodeType === 3 && n.textContent.trim() !== "",
        );
        if (own && shown(el)) out.push(el);
      }
    }
    return out;
  }

  // The Markdown container a directive (or element) stands in.
  function container(el) {
    const c = el.closest("main li, main blockquote, main details:not(.companion-asm), main td");
    return c ? c.tagName.toLowerCase() : "top";
  }

  // Which tab each tabbed comparison shows.
  function chosenTabs(root) {
    return Array.from(root.querySelectorAll(".companion-layout-tabs")).map((cmp) => {
      const input = cmp.querySelector("input.companion-tab-input:checked");
      return input ? input.getAttribute("data-companion-tab") : null;
    });
  }

  function contrast(root) {
    const html = document.documentElement;
    const saved = html.className;
    const result = {};
    for (const theme of THEMES) {
      THEMES.forEach((t) => html.classList.remove(t));
      html.classList.add(theme);
      const checked = [];
      for (const el of textElements(root)) {
        const bg = background(el);
        const fg = parseColor(getComputedStyle(el).color);
        if (!fg) continue;
        const eff = over([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
        checked.push({
          where: container(el),
          what: describe(el),
          ratio: Math.round(ratio(eff, bg) * 100) / 100,
          fg: getComputedStyle(el).color,
          bg: "rgb(" + bg.slice(0, 3).map(Math.round).join(", ") + ")",
        });
      }
      checked.sort((a, b) => a.ratio - b.ratio);
      // The worst of each kind of element (tag and classes).
      const seen = new Set();
      const worst = checked.filter((c) => {
        const kind = c.where + " " + c.what.split(" ")[0];
        return seen.has(kind) ? false : seen.add(kind);
      });
      result[theme] = { count: checked.length, worst: worst.slice(0, 12) };
    }
    html.className = saved;
    return result;
  }

  // ---- layout ------------------------------------------------------------

  // Each shown Run panel's stream: its lines kept whole (one row each, so
  // a diagnostic's alignment holds), scrolling inside the panel, which
  // stays inside its frame.
  // The rows a block's text takes on screen: the distinct tops of its
  // line boxes (an empty line has none).
  function rows(el) {
    const tops = new Set();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (r.width > 0) tops.add(Math.round(r.top));
      }
    }
    return tops.size;
  }

  function runStreams(main) {
    return Array.from(main.querySelectorAll("pre.companion-run-stream"))
      .filter(shown)
      .map((pre) => {
        const code = pre.querySelector("code") || pre;
        const cs = getComputedStyle(code);
        const frame = pre.closest(".companion-example");
        const p = pre.getBoundingClientRect();
        const f = frame.getBoundingClientRect();
        return {
          what: describe(pre),
          whiteSpace: cs.whiteSpace,
          lines: code.textContent.split("\n").filter((l) => l !== "").length,
          rows: rows(code),
          scrolls: pre.scrollWidth > pre.clientWidth + 1,
          overflowX: getComputedStyle(pre).overflowX,
          inside: p.left >= f.left - 1 && p.right <= f.right + 1,
        };
      });
  }

  // Elements whose box leaves the content column, outside scrolling boxes.
  function overflow(main) {
    const m = main.getBoundingClientRect();
    const cs = getComputedStyle(main);
    const left = m.left + parseFloat(cs.paddingLeft) - 1;
    const right = m.right - parseFloat(cs.paddingRight) + 1;
    const out = [];
    for (const el of main.querySelectorAll("*")) {
      if (!shown(el)) continue;
      let scrolled = false;
      for (let e = el.parentElement; e && e !== main; e = e.parentElement) {
        const o = getComputedStyle(e).overflowX;
        if (o === "auto" || o === "scroll" || o === "hidden") scrolled = true;
      }
      if (scrolled) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < left || r.right > right) {
        out.push({ what: describe(el), left: r.left, right: r.right });
      }
    }
    return {
      column: { left: left + 1, right: right - 1 },
      outside: out.slice(0, 10),
      count: out.length,
      pageScrollWidth: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
    };
  }

  function examples(root) {
    return Array.from(root.querySelectorAll(".companion-example")).map((ex) => {
      const code = ex.querySelector(":scope > pre > code");
      const pre = ex.querySelector(":scope > pre");
      return {
        title: (ex.querySelector(".companion-title") || {}).textContent || "",
        classes: ex.className,
        language: code ? code.className : "",
        playground: !!(pre && pre.classList.contains("playground")),
        playButton: !!(pre && pre.querySelector(".buttons > button.play-button")),
        runButton: !!ex.querySelector(":scope > .companion-header > button.companion-run-button"),
        badge: (ex.querySelector(".companion-badge") || {}).textContent || "",
      };
    });
  }

  function visibleSides(cmp) {
    return Array.from(cmp.querySelectorAll(":scope > .companion-sides > .companion-side"))
      .map((s, i) => (shown(s) ? i : -1))
      .filter((i) => i >= 0);
  }

  function compares(root) {
    return Array.from(root.querySelectorAll(".companion-compare")).map((cmp) => {
      const sides = Array.from(
        cmp.querySelectorAll(":scope > .companion-sides > .companion-side"),
      );
      const res = {
        title: (cmp.querySelector(".companion-title") || {}).textContent || "",
        layout: cmp.classList.contains("companion-layout-tabs") ? "tabs" : "columns",
        sides: sides.map(rect),
        visible: visibleSides(cmp),
      };
      const inputs = Array.from(cmp.querySelectorAll("input.companion-tab-input"));
      if (inputs.length) {
        res.tabs = inputs.map((input, i) => {
          const label = cmp.querySelector('label[for="' + input.id + '"]');
          input.focus({ preventScroll: true });
          const focused = document.activeElement === input;
          if (label) label.click();
          return {
            type: input.type,
            name: input.name,
            label: label ? label.textContent : null,
            labelShown: !!label && shown(label),
            focusable: focused && input.tabIndex >= 0,
            checkedAfterClick: input.checked,
            visibleAfterClick: visibleSides(cmp),
          };
        });
        inputs[0].checked = true;
        document.activeElement.blur();
      }
      return res;
    });
  }

  function cards(root) {
    return Array.from(root.querySelectorAll(".companion-cards")).map((grid) => ({
      display: getComputedStyle(grid).display,
      columns: getComputedStyle(grid).gridTemplateColumns.split(" ").filter((x) => x).length,
      cards: Array.from(grid.querySelectorAll(":scope > .companion-card")).map(rect),
    }));
  }

  // mdBook's own furniture, to compare with and without our stylesheet.
  function furniture() {
    const out = {};
    for (const sel of ["#mdbook-menu-bar", "#mdbook-sidebar", "main", "main > h1", ".nav-wide-wrapper"]) {
      const el = document.querySelector(sel);
      if (el) {
        const r = el.getBoundingClientRect();
        out[sel] = [r.left, r.top, r.width, sel === "main" ? 0 : r.height].map(Math.round);
      }
    }
    return out;
  }

  // ---- links and headings --------------------------------------------------

  function links(root) {
    const out = [];
    for (const d of directives(root)) {
      for (const a of d.querySelectorAll("a[href]")) {
        out.push({
          text: (a.innerText || "").trim(),
          label: a.getAttribute("aria-label"),
          href: a.getAttribute("href"),
        });
      }
    }
    return out;
  }

  function headings(root) {
    const inside = [];
    for (const d of directives(root)) {
      for (const h of d.querySelectorAll("h1, h2, h3, h4, h5, h6, [role=heading]")) {
        inside.push(describe(h));
      }
    }
    return inside;
  }

  // ---- print -----------------------------------------------------------

  // Turns every `@media print` rule (ours and mdBook's) into an
  // unconditional one, so the page lays out as it prints.
  function emulatePrint() {
    let rules = 0;
    for (const sheet of Array.from(document.styleSheets)) {
      if (sheet.media && sheet.media.mediaText === "print") {
        sheet.media.mediaText = "all";
        rules++;
      }
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

  function norm(s) {
    return s.replace(/\s+/g, " ").trim();
  }

  // What each directive holds (by the DOM, whatever CSS hides), and which
  // of it the rendered page leaves out (innerText follows CSS).
  function contents(root) {
    return directives(root).map((d) => {
      const pieces = [];
      const parts = d.querySelectorAll(
        ".companion-title, .companion-badge, .companion-note, .companion-output-label, " +
          ".companion-link, .companion-card-title, .companion-card-authors, " +
          ".companion-card-audience, .companion-card-note, .companion-talk-title, " +
          ".companion-talk-speakers, .companion-talk-meta, .companion-talk-link, " +
          ".companion-talk-abstract, .companion-talk-moment, .companion-schedule-date, " +
          ".companion-number, .companion-claims-summary, .companion-claims-table td, " +
          ".companion-exercise-task, pre > code",
      );
      for (const p of parts) {
        if (p.closest(UNPRINTED)) continue;
        let text;
        if (p.tagName === "CODE") {
          const copy = p.cloneNode(true);
          copy.querySelectorAll(".boring").forEach((b) => b.remove());
          text = copy.textContent;
        } else {
          text = p.textContent;
        }
        text = norm(text);
        if (text) pieces.push(text);
      }
      if (d.classList.contains("companion-error")) pieces.push(norm(d.textContent));
      const rendered = norm(d.innerText);
      return {
        what: describe(d),
        pieces: pieces.length,
        missing: pieces.filter((p) => !rendered.includes(p)).slice(0, 5),
      };
    });
  }

  function printed(root) {
    const sel = "a.companion-link, a.companion-card-link, a.companion-talk-link, a.companion-talk-time";
    return Array.from(root.querySelectorAll(sel)).map(
      (a) => ({ href: a.getAttribute("href"), after: getComputedStyle(a, "::after").content }),
    );
  }

  // ---- run -----------------------------------------------------------------

  function run() {
    const main = document.querySelector("main");
    const out = { mode: cfg.mode, width: window.innerWidth };
    if (cfg.mode === "tabs") {
      // Choose `cfg.click` in the first tabbed comparison, as a reader does.
      out.before = chosenTabs(main);
      const label = Array.from(main.querySelectorAll("label.companion-tab")).find(
        (l) => l.textContent === cfg.click,
      );
      out.clicked = !!label;
      if (label) label.click();
      out.after = chosenTabs(main);
      out.visible = compares(main)
        .filter((c) => c.layout === "tabs")
        .map((c) => c.visible);
      try {
        out.stored = window.localStorage.getItem("mdbook-companion-tab");
      } catch (e) {
        out.stored = "refused: " + e;
      }
    } else if (cfg.mode === "print") {
      out.contentsScreen = contents(main);
      out.printRules = emulatePrint();
      out.contents = contents(main);
      out.compares = compares(main).map((c) => ({ title: c.title, sides: c.sides, visible: c.visible }));
      out.tabsShown = Array.from(main.querySelectorAll(".companion-tab")).filter(shown).length;
      out.linkAfter = printed(main);
      // A closed panel's body is laid out but not painted: ask the browser.
      out.asm = Array.from(main.querySelectorAll("details.companion-asm > pre, details.companion-asm > .companion-asm-tie > pre.companion-asm-listing")).map((p) =>
        p.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true }),
      );
      // A quiz prints its questions; its answers only where printed.
      out.quizzes = Array.from(main.querySelectorAll(".companion-quiz")).map((q) => ({
        questions: Array.from(q.querySelectorAll(".companion-quiz-question legend")).filter(shown).length,
        keys: Array.from(q.querySelectorAll(".companion-quiz-key")).filter((k) =>
          k.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true }),
        ).length,
        buttons: Array.from(q.querySelectorAll("button")).filter(shown).length,
      }));
      out.contrast = contrast(main);
    } else {
      // Open the author's <details> so what stands inside is measured.
      main.querySelectorAll("details:not(.companion-asm)").forEach((d) => (d.open = true));
      out.containers = directives(main).map(container);
      out.furniture = furniture();
      out.examples = examples(main);
      out.cards = cards(main);
      out.overflow = overflow(main);
      out.runStreams = runStreams(main);
      out.compares = compares(main);
      out.links = links(main);
      out.headings = headings(main);
      out.outline = Array.from(main.querySelectorAll("h1, h2, h3, h4, h5, h6")).map((h) =>
        Number(h.tagName[1]),
      );
      out.contrast = contrast(main);
    }
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
