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
