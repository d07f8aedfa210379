/* mdbook-companion 0.1.0 (written by `mdbook-companion install`; run it again after upgrading) */
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

// The Run button of examples and comparison sides (Rust, and C or C++
// sides whose program runs, which replay only what the check recorded:
// their output, how they ended and their checker's report). The preprocessor
// marks each frame whose code we run with `data-companion-run` (JSON: the
// book's `run` mode, the Playground address, the edition, and the output
// the build recorded; for an exercise's starter, the code Run joins around
// the reader's: the tests and their runner) and keeps mdBook's own play
// button off it, so mdBook never asks a server on its behalf. Unedited code shows the recorded
// output at once, with no request; edited code (or code with nothing
// recorded) goes to the book's Playground, unless the book said
// `run = "recorded"`. Nothing happens at page load but adding the buttons:
// no request, no timer.
(function () {
  "use strict";
  var TIMEOUT_MS = 6000;
  var crateLists = {};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function editorOf(code) {
    if (window.ace && code.classList.contains("editable")) {
      try {
        return window.ace.edit(code);
      } catch (e) {
        return null;
      }
    }
    return null;
  }

  function textOf(code) {
    var editor = editorOf(code);
    return editor ? editor.getValue() : code.textContent;
  }

  // As mdBook's play button sends it: code without `fn main` runs inside one.
  function program(text) {
    if (/fn main|quick_main!/.test(text)) return text;
    var lines = text.split("\n");
    var head = [];
    while (lines.length && /^\s*(#!\[.*)?$/.test(lines[0])) head.push(lines.shift());
    return head.join("\n") + (head.length ? "\n" : "") + "fn main() {\n" + lines.join("\n") + "\n}\n";
  }

  function host(url) {
    var m = /^https?:\/\/([^/]+)/.exec(url);
    return m ? m[1] : url;
  }

  function withTimeout(promise, what) {
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () {
        reject(new Error(what + " did not answer within " + TIMEOUT_MS / 1000 + " seconds"));
      }, TIMEOUT_MS);
      promise.then(
        function (v) {
          clearTimeout(timer);
          resolve(v);
        },
        function (e) {
          clearTimeout(timer);
          reject(e);
        }
      );
    });
  }

  function askJson(url, options, what) {
    var call = fetch(url, options).then(
      function (response) {
        if (!response.ok) throw new Error(what + " answered with an error (HTTP " + response.status + ")");
        return response.json().catch(function () {
          throw new Error(what + " answered with something that is not a result");
        });
      },
      function () {
        throw new Error(what + " could not be reached");
      }
    );
    return withTimeout(call, what);
  }

  function crateList(base, what) {
    if (!crateLists[base]) {
      crateLists[base] = askJson(base + "meta/crates", { method: "GET", mode: "cors" }, what).then(
        function (r) {
          return (r.crates || []).map(function (c) {
            return c.id;
          });
        }
      );
      crateLists[base].catch(function () {
        delete crateLists[base];
      });
    }
    return crateLists[base];
  }

  // One stream of output under its label; `cls` names its kind.
  function stream(into, label, text, cls) {
    into.appendChild(el("div", "companion-run-label", label));
    var pre = el("pre", "companion-run-stream " + cls);
    pre.appendChild(el("code", "", text));
    into.appendChild(pre);
  }

  function showRecorded(into, rec, label) {
    into.appendChild(el("div", "companion-run-source", label + (rec.toolchain ? " (" + rec.toolchain + ")" : "")));
    if (!rec.compiled) {
      stream(into, "Compiler error", rec.stderr, "companion-run-stderr");
      return;
    }
    if (rec.stdout === "" && rec.stderr === "") {
      into.appendChild(el("div", "companion-run-note", "No output"));
    }
    if (rec.stdout !== "") stream(into, "Output", rec.stdout, "companion-run-stdout");
    if (rec.stderr !== "") stream(into, "Standard error", rec.stderr, "companion-run-stderr");
    // A C or C++ program: how it ended, and its checker's report (read
    // from the checker's own log, not from what the program printed).
    if (rec.report) stream(into, "Sanitizer report", rec.report, "companion-run-report");
    if (rec.status) into.appendChild(el("div", "companion-run-note companion-run-status", "The program " + rec.status + "."));
  }

  function setup(frame) {
    var spec;
    try {
      spec = JSON.parse(frame.getAttribute("data-companion-run"));
    } catch (e) {
      return;
    }
    var pre = null;
    for (var i = 0; i < frame.children.length; i++) {
      if (frame.children[i].tagName === "PRE") {
        pre = frame.children[i];
        break;
      }
    }
    var code = pre && pre.querySelector("code");
    var header = frame.querySelector(".companion-header");
    var rec = spec.recorded || null;
    var playground = spec.mode === "auto" ? spec.playground || null : null;
    if (!code || !header || (!rec && !playground)) return;

    var button = el("button", "companion-run-button", "Run");
    button.type = "button";
    button.title = rec ? "Show the output the build recorded" : "Run this code on the Playground";
    header.appendChild(button);
    var result = el("div", "companion-run-result");
    result.setAttribute("role", "status");
    result.setAttribute("aria-live", "polite");
    pre.parentNode.insertBefore(result, pre.nextSibling);

    // An exercise's starter: the editor holds what the reader sees; the
    // lines the page does not show (the tests and their runner) are
    // joined around it when it runs.
    function joined(text) {
      if (!spec.join) return text;
      var below = spec.join[1];
      var nl = below === "" || /\n$/.test(text) ? "" : "\n";
      return spec.join[0] + text + nl + below;
    }

    var editor = editorOf(code);
    var original = editor && editor.originalCode !== undefined ? editor.originalCode : textOf(code);
    var running = false;

    function run() {
      if (running) return;
      var text = textOf(code);
      var edited = text !== original;
      result.textContent = "";
      if (!edited && rec) {
        showRecorded(result, rec, "Output recorded by the book's build");
        return;
      }
      if (!playground) {
        result.appendChild(
          el(
            "div",
            "companion-run-note",
            spec.mode === "recorded"
              ? "Edited code cannot run here: this book shows only the output its build recorded, and sends no code to any server. Undo your changes to see it again."
              : spec.needs
                ? "Edited code cannot run here: it needs " + spec.needs + ", which the Playground does not offer."
                : "Edited code cannot run here: this book names no Playground to run it on."
          )
        );
        return;
      }
      var where = "The Playground at " + host(playground);
      var source = program(joined(text));
      var wanted = [];
      var re = /extern\s+crate\s+([a-zA-Z_0-9]+)\s*;/g;
      var m;
      while ((m = re.exec(source))) wanted.push(m[1]);
      running = true;
      button.disabled = true;
      result.appendChild(el("div", "companion-run-note", "Running on " + host(playground) + "…"));
      var ready = wanted.length ? crateList(playground, where) : Promise.resolve(null);
      ready
        .then(function (crates) {
          var missing = crates
            ? wanted.filter(function (c) {
                return crates.indexOf(c) < 0;
              })
            : [];
          if (missing.length) throw new Error(where + " does not offer the crate " + missing.join(", "));
          return askJson(
            playground + "evaluate.json",
            {
              method: "POST",
              mode: "cors",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify({
                version: source.indexOf("#![feature") >= 0 ? "nightly" : "stable",
                optimize: spec.release ? "3" : "0",
                code: source,
                edition: String(spec.edition || 2021),
                tests: false,
              }),
            },
            where
          );
        })
        .then(
          function (answer) {
            result.textContent = "";
            result.appendChild(el("div", "companion-run-source", "Output from the Playground at " + host(playground)));
            if (typeof answer.error === "string" && answer.error !== "") {
              stream(result, "Errors", answer.error, "companion-run-stderr");
            } else if (typeof answer.result === "string" && answer.result.trim() !== "") {
              stream(result, "Output", answer.result, "companion-run-stdout");
            } else {
              result.appendChild(el("div", "companion-run-note", "No output"));
            }
          },
          function (error) {
            result.textContent = "";
            result.appendChild(el("div", "companion-run-note companion-run-failed", error.message + "."));
            if (rec) {
              showRecorded(result, rec, edited ? "The output the build recorded for the code as the book shows it" : "Output recorded by the book's build");
            }
          }
        )
        .then(function () {
          running = false;
          button.disabled = false;
        });
    }

    button.addEventListener("click", run);
    if (editor && editor.commands) {
      editor.commands.addCommand({
        name: "companion-run",
        bindKey: { win: "Ctrl-Enter", mac: "Ctrl-Enter" },
        exec: run,
      });
      var undo = el("button", "companion-run-button companion-run-undo", "Undo changes");
      undo.type = "button";
      undo.addEventListener("click", function () {
        editor.setValue(original);
        editor.clearSelection();
      });
      header.appendChild(undo);
    }
  }

  var frames = document.querySelectorAll("[data-companion-run]");
  for (var f = 0; f < frames.length; f++) setup(frames[f]);
})();

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

// Quizzes: check the reader's answers on the page, with no request.
// Each question is a <fieldset data-companion-kind data-companion-key>;
// its key and explanations are the HTML of a closed <details>, kept in
// its data-companion-answer attribute (mdBook's search indexes text, not
// attributes) and put inside it here, hidden, never in the page's visible
// text until the reader checks. Right or wrong is said in words in the question's live region,
// with the explanation, and the right answer after a wrong one; a score;
// Try again. Answers are kept in localStorage under the quiz's content
// hash, so an edited quiz starts fresh.
(function () {
  "use strict";

  function words(quiz) {
    try {
      return JSON.parse(quiz.getAttribute("data-companion-words") || "{}");
    } catch (e) {
      return {};
    }
  }

  function storageKey(quiz) {
    return "companion-quiz:" + quiz.getAttribute("data-companion-quiz");
  }

  function load(quiz) {
    try {
      var s = window.localStorage.getItem(storageKey(quiz));
      return s ? JSON.parse(s) : null;
    } catch (e) {
      return null;
    }
  }

  function save(quiz, state) {
    try {
      if (state) window.localStorage.setItem(storageKey(quiz), JSON.stringify(state));
      else window.localStorage.removeItem(storageKey(quiz));
    } catch (e) {
      /* storage may be off: answers are then not kept */
    }
  }

  function questions(quiz) {
    return Array.prototype.slice.call(quiz.querySelectorAll(".companion-quiz-question"));
  }

  function key(q) {
    try {
      return JSON.parse(q.getAttribute("data-companion-key") || "{}");
    } catch (e) {
      return {};
    }
  }

  function inputs(q, selector) {
    return Array.prototype.slice.call(q.querySelectorAll(selector));
  }

  // What the reader gave for a question (also what is kept).
  function given(q) {
    var kind = q.getAttribute("data-companion-kind");
    if (kind === "one" || kind === "all") {
      return inputs(q, ".companion-quiz-options input").filter(function (i) {
        return i.checked;
      }).map(function (i) {
        return Number(i.value);
      });
    }
    if (kind === "text") {
      var t = q.querySelector(".companion-quiz-text");
      return t ? t.value : "";
    }
    var chosen = inputs(q, ".companion-quiz-outcomes input[type=radio]").filter(function (i) {
      return i.checked;
    })[0];
    var prints = q.querySelector(".companion-quiz-prints");
    var line = q.querySelector(".companion-quiz-line");
    return {
      outcome: chosen ? chosen.value : "",
      prints: prints ? prints.value : "",
      line: line ? line.value : "",
    };
  }

  function restore(q, value) {
    var kind = q.getAttribute("data-companion-kind");
    if (value === undefined || value === null) return;
    if (kind === "one" || kind === "all") {
      inputs(q, ".companion-quiz-options input").forEach(function (i) {
        i.checked = value.indexOf(Number(i.value)) >= 0;
      });
    } else if (kind === "text") {
      var t = q.querySelector(".companion-quiz-text");
      if (t) t.value = value;
    } else {
      inputs(q, ".companion-quiz-outcomes input[type=radio]").forEach(function (i) {
        i.checked = i.value === value.outcome;
      });
      var prints = q.querySelector(".companion-quiz-prints");
      if (prints) prints.value = value.prints || "";
      var line = q.querySelector(".companion-quiz-line");
      if (line) line.value = value.line || "";
    }
  }

  function answered(kind, value) {
    if (kind === "one" || kind === "all") return value.length > 0;
    if (kind === "text") return value.trim() !== "";
    return value.outcome !== "";
  }

  function fold(s) {
    return s.trim().replace(/\s+/g, " ").toLowerCase();
  }

  // Output as the build compares it: lines without trailing blanks, no
  // blank lines at either end.
  function output(s) {
    var lines = s.replace(/\r\n?/g, "\n").split("\n").map(function (l) {
      return l.replace(/\s+$/, "");
    });
    while (lines.length && lines[0] === "") lines.shift();
    while (lines.length && lines[lines.length - 1] === "") lines.pop();
    return lines.join("\n");
  }

  function right(kind, k, value) {
    if (kind === "one" || kind === "all") {
      var want = (k.right || []).slice().sort();
      var got = value.slice().sort();
      return want.length === got.length && want.every(function (v, i) {
        return v === got[i];
      });
    }
    if (kind === "text") {
      return (k.accepted || []).some(function (a) {
        return fold(a) === fold(value);
      });
    }
    if (value.outcome !== k.outcome) return false;
    if (k.outcome === "prints") return output(value.prints) === output(k.output || "");
    // Any line the first error labels is right (the key's own, and with
    // the build's recorded compile, the others it labels).
    if (k.outcome === "compile-fail") return (k.lines || [k.line]).indexOf(Number(value.line)) >= 0;
    return true;
  }

  function clear(q) {
    var feedback = q.querySelector(".companion-quiz-feedback");
    if (feedback) feedback.textContent = "";
    q.classList.remove("companion-quiz-is-right", "companion-quiz-is-wrong");
    inputs(q, ".companion-quiz-option").forEach(function (l) {
      l.classList.remove("companion-quiz-right", "companion-quiz-chosen-wrong");
    });
  }

  // Says right or wrong in words, with the explanations, and the right
  // answer after a wrong one; returns whether it was right.
  function judge(q, w) {
    var kind = q.getAttribute("data-companion-kind");
    var k = key(q);
    var value = given(q);
    var ok = answered(kind, value) && right(kind, k, value);
    clear(q);
    q.classList.add(ok ? "companion-quiz-is-right" : "companion-quiz-is-wrong");
    var feedback = q.querySelector(".companion-quiz-feedback");
    var answer = q.querySelector(".companion-quiz-answer");
    if (!feedback || !answer) return ok;
    var verdict = document.createElement("p");
    verdict.className = "companion-quiz-verdict";
    verdict.textContent = ok ? w.right || "Right." : answered(kind, value) ? w.wrong || "Not quite." : w.none || "Not answered.";
    feedback.appendChild(verdict);
    if (!ok) {
      var keyed = answer.querySelector(".companion-quiz-key");
      if (keyed) feedback.appendChild(keyed.cloneNode(true));
    }
    inputs(answer, ".companion-quiz-why").forEach(function (why) {
      var option = why.getAttribute("data-companion-option");
      // An option's explanation where the reader chose it or it is right.
      if (option !== null && (kind === "one" || kind === "all")) {
        var n = Number(option);
        if (value.indexOf(n) < 0 && (k.right || []).indexOf(n) < 0) return;
      }
      feedback.appendChild(why.cloneNode(true));
    });
    if (kind === "one" || kind === "all") {
      inputs(q, ".companion-quiz-option").forEach(function (l) {
        var i = l.querySelector("input");
        var n = Number(i.value);
        if ((k.right || []).indexOf(n) >= 0) l.classList.add("companion-quiz-right");
        else if (i.checked) l.classList.add("companion-quiz-chosen-wrong");
      });
    }
    return ok;
  }

  function setUp(quiz) {
    var w = words(quiz);
    var check = quiz.querySelector(".companion-quiz-check");
    var again = quiz.querySelector(".companion-quiz-again");
    var score = quiz.querySelector(".companion-quiz-score");
    var qs = questions(quiz);
    // The script checks: the disclosures are filled from their
    // attribute, and stay hidden.
    qs.forEach(function (q) {
      var answer = q.querySelector(".companion-quiz-answer");
      if (!answer) return;
      var html = answer.getAttribute("data-companion-answer");
      if (html !== null) {
        answer.insertAdjacentHTML("beforeend", html);
        answer.removeAttribute("data-companion-answer");
      }
      answer.hidden = true;
    });
    if (check) check.hidden = false;

    function keep(checked) {
      save(quiz, {
        answers: qs.map(given),
        checked: checked,
      });
    }

    function checkAll() {
      var n = 0;
      qs.forEach(function (q) {
        if (judge(q, w)) n += 1;
      });
      if (score) {
        score.textContent = (w.score || "{n} of {total} right")
          .replace("{n}", String(n))
          .replace("{total}", String(qs.length));
      }
      if (again) again.hidden = false;
      keep(true);
    }

    function reset() {
      qs.forEach(function (q) {
        clear(q);
        inputs(q, "input, textarea").forEach(function (i) {
          if (i.type === "radio" || i.type === "checkbox") i.checked = false;
          else i.value = "";
        });
      });
      if (score) score.textContent = "";
      if (again) again.hidden = true;
      save(quiz, null);
      var first = quiz.querySelector(".companion-quiz-question input, .companion-quiz-question textarea");
      if (first) first.focus();
    }

    if (check) check.addEventListener("click", checkAll);
    if (again) again.addEventListener("click", reset);
    quiz.addEventListener("input", function () {
      keep(false);
    });
    quiz.addEventListener("change", function () {
      keep(false);
    });
    // Typing a line or an output chooses its outcome.
    qs.forEach(function (q) {
      [".companion-quiz-prints", ".companion-quiz-line"].forEach(function (sel) {
        var field = q.querySelector(sel);
        if (!field) return;
        field.addEventListener("input", function () {
          var value = sel === ".companion-quiz-prints" ? "prints" : "compile-fail";
          var radio = q.querySelector(".companion-quiz-outcomes input[value=\"" + value + "\"]");
          if (radio && field.value !== "") radio.checked = true;
        });
      });
    });
    var state = load(quiz);
    if (state && state.answers && state.answers.length === qs.length) {
      qs.forEach(function (q, i) {
        restore(q, state.answers[i]);
      });
      if (state.checked) checkAll();
    }
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll(".companion-quiz"), setUp);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
