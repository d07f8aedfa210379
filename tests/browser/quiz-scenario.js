// Drives a page's quiz as a reader would and reports what happened to the
// test's local server: what the page shows before any answer, every
// control's label and focus, a wrong answer to every question checked,
// then the right ones, then a reload (the answers kept), then Try again.
// The report of the first load is kept in sessionStorage across the
// reload; the recorder in <head> logged requests and console errors.
(function () {
  "use strict";
  var PHASE = "companion-quiz-scenario";

  function quiz() {
    return document.querySelector(".companion-quiz");
  }

  function questions() {
    return Array.prototype.slice.call(quiz().querySelectorAll(".companion-quiz-question"));
  }

  function text(el) {
    return (el ? el.innerText : "").replace(/\s+/g, " ").trim();
  }

  function choose(q, values) {
    Array.prototype.forEach.call(q.querySelectorAll("input[type=radio], input[type=checkbox]"), function (i) {
      i.checked = values.indexOf(i.value) >= 0;
      i.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }

  function type(q, selector, value) {
    var field = q.querySelector(selector);
    field.value = value;
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function answer(qs, answers) {
    answers.forEach(function (a, i) {
      var q = qs[i];
      if (a.choose) choose(q, a.choose);
      if (a.text !== undefined) type(q, ".companion-quiz-text", a.text);
      if (a.prints !== undefined) type(q, ".companion-quiz-prints", a.prints);
      if (a.line !== undefined) type(q, ".companion-quiz-line", a.line);
    });
  }

  function verdicts(qs) {
    return qs.map(function (q) {
      return {
        feedback: text(q.querySelector(".companion-quiz-feedback")),
        live: q.querySelector(".companion-quiz-feedback").getAttribute("aria-live"),
        marked: Array.prototype.map.call(q.querySelectorAll(".companion-quiz-option"), function (l) {
          return l.classList.contains("companion-quiz-right") ? "right" : l.classList.contains("companion-quiz-chosen-wrong") ? "wrong" : "";
        }),
      };
    });
  }

  function controls() {
    var ours = ".companion-quiz-question input, .companion-quiz-question textarea, .companion-quiz-actions button";
    return Array.prototype.slice.call(quiz().querySelectorAll(ours)).filter(function (el) {
      return el.getClientRects().length > 0;
    });
  }

  function first() {
    var report = {};
    var qs = questions();
    report.before = text(quiz());
    report.checkShown = !quiz().querySelector(".companion-quiz-check").hidden;
    report.controls = controls().map(function (el) {
      el.focus();
      return {
        tag: el.tagName.toLowerCase(),
        type: el.type || "",
        focused: document.activeElement === el,
        tabIndex: el.tabIndex,
        label: el.labels && el.labels.length ? text(el.labels[0]) : el.getAttribute("aria-label") || (el.tagName === "BUTTON" ? el.textContent : ""),
      };
    });
    var s = window.companionScenario;
    answer(qs, s.wrong);
    quiz().querySelector(".companion-quiz-check").click();
    report.wrong = verdicts(qs);
    report.wrongScore = text(quiz().querySelector(".companion-quiz-score"));
    answer(qs, s.right);
    quiz().querySelector(".companion-quiz-check").click();
    report.right = verdicts(qs);
    report.rightScore = text(quiz().querySelector(".companion-quiz-score"));
    report.stored = Object.keys(window.localStorage).filter(function (k) {
      return k.indexOf("companion-quiz:") === 0;
    });
    report.errors = window.companionRecorder.errors.slice();
    report.requests = window.companionRecorder.requests.slice();
    sessionStorage.setItem(PHASE, JSON.stringify(report));
    location.reload();
  }

  function second(report) {
    sessionStorage.removeItem(PHASE);
    var qs = questions();
    report.restoredScore = text(quiz().querySelector(".companion-quiz-score"));
    report.restoredText = qs[1].querySelector(".companion-quiz-text").value;
    report.restoredChosen = Array.prototype.map.call(qs[0].querySelectorAll("input"), function (i) {
      return i.checked;
    });
    quiz().querySelector(".companion-quiz-again").click();
    report.afterAgain = {
      score: text(quiz().querySelector(".companion-quiz-score")),
      anyChecked: Array.prototype.some.call(quiz().querySelectorAll("input"), function (i) {
        return i.checked || (i.type !== "radio" && i.type !== "checkbox" && i.value !== "");
      }),
      feedback: verdicts(qs).map(function (v) {
        return v.feedback;
      }),
      stored: Object.keys(window.localStorage).filter(function (k) {
        return k.indexOf("companion-quiz:") === 0;
      }),
      focused: document.activeElement ? document.activeElement.tagName.toLowerCase() : "",
      againShown: !quiz().querySelector(".companion-quiz-again").hidden,
    };
    report.errors = report.errors.concat(window.companionRecorder.errors);
    report.requests = report.requests.concat(window.companionRecorder.requests);
    window.companionRecorder.send(JSON.stringify(report));
  }

  window.addEventListener("load", function () {
    setTimeout(function () {
      var saved = sessionStorage.getItem(PHASE);
      try {
        if (saved) second(JSON.parse(saved));
        else first();
      } catch (e) {
        window.companionRecorder.send(JSON.stringify({ failure: String(e && e.stack ? e.stack : e) }));
      }
    }, 100);
  });
})();
