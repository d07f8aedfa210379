//! Issue 57: bounded under stress: a chapter of 100k blocks costs in
//! proportion to them; a quiz file's bad link is told in the file.

use crate::support::BookTest;
use snapbox::str;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The CPU time (user and system, in seconds) of the binary run with
/// `args` in `root`, or `None` when it ran past `wall` (it is then
/// killed): a run that costs the square of its blocks is told without
/// waiting for it.
#[allow(clippy::zombie_processes)] // reaped by wait4(2), which also gives its CPU time
fn cpu_seconds(root: &Path, args: &[&str], wall: Duration) -> Option<f64> {
    // The preprocessor (no arguments) reads mdBook's input from a file.
    let stdin = match args.is_empty() {
        true => std::fs::File::open(root.join("input.json"))
            .expect("input")
            .into(),
        false => std::process::Stdio::null(),
    };
    let child = Command::new(crate::support::BIN)
        .args(args)
        .current_dir(root)
        .stdin(stdin)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    let start = Instant::now();
    loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is our child, not yet reaped; both pointers are
        // to live locals.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            assert!(
                libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
                "{args:?} ended with {status}"
            );
            let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
            return Some(secs(usage.ru_utime) + secs(usage.ru_stime));
        }
        if start.elapsed() > wall {
            // SAFETY: signalling our own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            // SAFETY: reaping it, as above.
            unsafe { libc::waitpid(pid, &mut status, 0) };
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Issue 57 (item 6.1): a chapter of n `rust example ignore` blocks cost
/// `check` the square of n (each block's `--bless` target was found by
/// counting lines from the chapter's start), `check --locked` more (each
/// entry looked for its pair among all the lock's), and the build's
/// preprocessor too once the book has a lock (each claim's line counted
/// from the start). Sixteen times the blocks must cost less than forty
/// times the CPU (linear work is about sixteen; main took over a hundred,
/// and is stopped well before).
#[test]
fn a_chapter_of_many_blocks_costs_in_proportion_to_them() {
    // Prose between the blocks, as a book has: a step that counts from
    // the chapter's start for each block pays for it.
    let prose = "Some words about the example, as a chapter has them. ".repeat(8);
    let book = |n: usize| {
        let mut chapter = String::from("# One\n");
        for i in 0..n {
            chapter.push_str(&format!(
                "\n{prose}\n\n```rust example ignore\nfn main() {{ println!(\"{i}\"); }}\n```\n"
            ));
        }
        let book = BookTest::new().chapter("one.md", &chapter);
        book.write();
        // mdBook's input to the preprocessor, as `mdbook build` gives it.
        let one = serde_json::json!({"Chapter": {"name": "One", "content": chapter,
            "number": [1], "sub_items": [], "path": "one.md", "source_path": "one.md",
            "parent_names": []}});
        let context = serde_json::json!({"root": book.root(), "renderer": "html",
            "mdbook_version": "0.5.4", "config": {"book": {"title": "Case", "src": "src"},
            "preprocessor": {"companion": {"after": ["links"]}}}});
        let input = serde_json::json!([context, {"items": [one]}]);
        std::fs::write(book.root().join("input.json"), input.to_string()).unwrap();
        book
    };
    let (small, big) = (book(1_000), book(16_000));
    let mut budget = Vec::new();
    // `check` writes the lock the other two read.
    for args in [&["check"][..], &["check", "--locked"], &[]] {
        let start = Instant::now();
        let base = cpu_seconds(small.root(), args, Duration::from_secs(600)).expect("small book");
        // Generous in wall time too, on a loaded machine: eighty times.
        let wall = start.elapsed().max(Duration::from_secs(2)) * 80;
        let cost = cpu_seconds(big.root(), args, wall);
        budget.push((args, base, cost));
    }
    for (args, base, cost) in budget {
        let cost = cost.unwrap_or_else(|| panic!("{args:?}: 16,000 blocks ran past 80 times the wall time of 1,000 ({base:.2} s of CPU)"));
        eprintln!("{args:?}: 1,000 blocks {base:.2} s, 16,000 {cost:.2} s of CPU");
        assert!(
            cost < 40.0 * base,
            "{args:?}: 16,000 blocks took {cost:.2} s of CPU, 1,000 took {base:.2} s: {:.1} times",
            cost / base
        );
    }
}

/// Issue 57 (item 6.2): a link a quiz file's Markdown may not hold
/// (`javascript:`, `data:`) was told at the chapter's `{{#quiz}}` line;
/// it is told at its string in the file, wherever the string is: a
/// prompt, an explanation, a distractor, one of the right answers, a
/// `[multipart]` context.
#[test]
fn a_bad_link_in_a_quiz_file_is_told_at_its_string_in_the_file() {
    let clean = concat!(
        "[multipart]\n",
        "parts = \"Both parts.\"\n",
        "\n",
        "[[questions]]\n",
        "type = \"ShortAnswer\"\n",
        "prompt.prompt = \"Which keyword?\"\n",
        "answer.answer = \"let\"\n",
        "context = \"As the chapter says.\"\n",
        "\n",
        "[[questions]]\n",
        "type = \"MultipleChoice\"\n",
        "multipart = \"parts\"\n",
        "prompt.prompt = \"Pick.\"\n",
        "prompt.distractors = [\"a\", \"b\"]\n",
        "answer.answer = [\"c\", \"d\"]\n",
    );
    let mut table = String::new();
    for (place, text) in [
        ("a prompt", "Which keyword?"),
        ("an explanation", "As the chapter says."),
        ("a distractor", "\"b\""),
        ("a right answer", "\"d\""),
        ("a multipart context", "Both parts."),
    ] {
        let bad = match text.strip_suffix('"') {
            Some(t) => format!("{t} [x](javascript:alert(1))\""),
            None => format!("{text} [x](data:text/html,hi)"),
        };
        let book = BookTest::new()
            .chapter("quiz.md", "# Quiz\n\nBefore.\n\n{{#quiz q.toml}}\n")
            .file("src/q.toml", clean.replacen(text, &bad, 1));
        let ran = book.run(&["check"], |cmd| {
            cmd.expect_failure();
        });
        let first = ran.stdout.lines().next().unwrap_or("").to_owned();
        table.push_str(&format!("{place}: {first}\n"));
    }
    BookTest::new().check_text(table, str![[r#"
a prompt: FAILED  src/q.toml:6:17: found a link to `data:text/html,hi` in the question; expected an http(s) or relative link (asked for by src/quiz.md:5:1)
an explanation: FAILED  src/q.toml:8:11: found a link to `data:text/html,hi` in the note; expected an http(s) or relative link (asked for by src/quiz.md:5:1)
a distractor: FAILED  src/q.toml:14:28: found a link to `javascript:alert(1)` in the note; expected an http(s) or relative link (asked for by src/quiz.md:5:1)
a right answer: FAILED  src/q.toml:15:23: found a link to `javascript:alert(1)` in the note; expected an http(s) or relative link (asked for by src/quiz.md:5:1)
a multipart context: FAILED  src/q.toml:2:9: found a link to `data:text/html,hi` in the question; expected an http(s) or relative link (asked for by src/quiz.md:5:1)

"#]]);
}

/// Issue 57 (item 6.3): a quiz file's question `id` with a space made an
/// element id with a space, which HTML forbids (and no `#` link can
/// reach). mdbook-quiz takes any string, so the file keeps working: each
/// whitespace character of the id becomes `-`, as in mdBook's heading
/// anchors, and an id of whitespace alone makes no anchor.
#[test]
fn a_quiz_file_id_with_spaces_is_a_valid_anchor() {
    let toml = concat!(
        "[[questions]]\n",
        "id = \"ownership  one\\tbis\"\n",
        "type = \"ShortAnswer\"\n",
        "prompt.prompt = \"Which keyword?\"\n",
        "answer.answer = \"let\"\n",
        "\n",
        "[[questions]]\n",
        "id = \" \"\n",
        "type = \"ShortAnswer\"\n",
        "prompt.prompt = \"Which other?\"\n",
        "answer.answer = \"mut\"\n",
    );
    let book = BookTest::new()
        .chapter("quiz.md", "# Quiz\n\n{{#quiz q.toml}}\n")
        .file("src/q.toml", toml);
    let page = book.html("quiz.md");
    let ids: Vec<Option<&str>> = page
        .all("fieldset.companion-quiz-question")
        .iter()
        .map(|q| q.value().attr("id"))
        .collect();
    assert_eq!(ids, [Some("ownership--one-bis"), None]);
    for el in page.all("[id]") {
        let id = el.value().attr("id").unwrap_or("");
        assert!(
            !id.is_empty() && !id.contains(|c: char| c.is_ascii_whitespace()),
            "an invalid id: {id:?}"
        );
    }
}
