// Drives a page's Run buttons as a reader would and reports what happened
// to the test's local server. `window.companionScenario` (set by the test)
// lists the steps: which frame (by title), whether to edit its code
// first, then a click (or a Ctrl-Enter in the editor). The recorder in
// <head> (companionRecorder) has logged every request the page's scripts
// made and every console error since the page began.
(function () {
  "use strict";
  var scenario = window.companionScenario;
  var report = { frames: [], steps: [], errors: null, requests: null };

  function frameTitled(title) {
    var frames = document.querySelectorAll(".companion-example, .companion-exercise");
    for (var i = 0; i < frames.length; i++) {
      var t = frames[i].querySelector(".companion-title, .companion-caption");
      if (t && t.textContent.indexOf(title) >= 0) return frames[i];
    }
    return null;
  }

  function describe(frame) {
    var button = frame.querySelector(".companion-run-button:not(.companion-run-undo)");
    var title = frame.querySelector(".companion-title, .companion-caption");
    var out = {
      title: title ? title.textContent : "",
      button: !!button,
      mdbookPlay: !!frame.querySelector(".play-button"),
      playgroundPre: !!frame.querySelector("pre.playground"),
    };
    // What mdBook's editor (Ace) holds, and the lines it draws.
    var code = frame.querySelector("pre > code");
    if (code && window.ace && code.classList.contains("editable")) {
      out.editor = window.ace.edit(code).getValue();
      out.editorPlay = !!code.parentElement.querySelector(".play-button");
      out.editorLines = Array.prototype.map.call(code.querySelectorAll(".ace_line"), function (l) {
        return l.textContent;
      });
    }
    if (button) {
      button.focus();
      out.focusable = document.activeElement === button;
      var box = button.getBoundingClientRect();
      out.visible = box.width > 0 && box.height > 0 && getComputedStyle(button).visibility === "visible";
      out.label = button.textContent;
      var result = frame.querySelector(".companion-run-result");
      out.live = result ? result.getAttribute("aria-live") : null;
    }
    return out;
  }

  function resultOf(frame) {
    var r = frame.querySelector(".companion-run-result");
    if (!r) return null;
    function texts(sel) {
      return Array.prototype.map.call(r.querySelectorAll(sel), function (e) {
        return e.textContent;
      });
    }
    return {
      text: r.textContent,
      source: texts(".companion-run-source"),
      notes: texts(".companion-run-note"),
      labels: texts(".companion-run-label"),
      stdout: texts(".companion-run-stdout"),
      stderr: texts(".companion-run-stderr"),
      report: texts(".companion-run-report"),
    };
  }

  function settled(frame) {
    var button = frame.querySelector(".companion-run-button");
    var r = frame.querySelector(".companion-run-result");
    return button && !button.disabled && r && r.textContent !== "";
  }

  function step(i) {
    if (i >= scenario.steps.length) return finish();
    var s = scenario.steps[i];
    var frame = frameTitled(s.frame);
    if (!frame) {
      report.steps.push({ frame: s.frame, missing: true });
      return step(i + 1);
    }
    var code = frame.querySelector("pre > code");
    if (s.edit !== undefined) {
      if (window.ace && code.classList.contains("editable")) window.ace.edit(code).setValue(s.edit);
      else code.textContent = s.edit;
    }
    var started = Date.now();
    var button = frame.querySelector(".companion-run-button");
    if (s.keyboard) {
      window.ace.edit(code).execCommand("companion-run");
    } else if (button) {
      button.click();
    }
    var immediate = resultOf(frame);
    (function wait() {
      if (settled(frame) || Date.now() - started > 20000) {
        report.steps.push({
          frame: s.frame,
          immediate: immediate,
          result: resultOf(frame),
          ms: Date.now() - started,
        });
        return step(i + 1);
      }
      setTimeout(wait, 50);
    })();
  }

  function finish() {
    report.errors = window.companionRecorder.errors;
    report.requests = window.companionRecorder.requests;
    window.companionRecorder.send(JSON.stringify(report));
  }

  try {
    (scenario.describe || []).forEach(function (title) {
      var f = frameTitled(title);
      report.frames.push(f ? describe(f) : { title: title, missing: true });
    });
    step(0);
  } catch (e) {
    report.failure = String(e && e.stack ? e.stack : e);
    finish();
  }
})();
