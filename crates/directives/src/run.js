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
