//! The report's totals add up in every format: blocks passed, failed and
//! ignored make the blocks; `--locked`'s differences are counted apart
//! (a block that fails and whose entry differs is one of each), each
//! with the advice its cause needs; and a cold check takes nothing from
//! the cache.

use super::run::{check, check_json};
use crate::support::BookTest;
use quick_xml::events::Event;
use snapbox::str;
use std::collections::BTreeMap;

/// Two examples that pass, one that prints what its output block says
/// (`three`), and one ignored.
const TOTALS: &str = r#"# Totals

```rust example title="one"
println!("one");
```

```output
one
```

```rust example title="two"
println!("two");
```

```output
two
```

```rust example title="three"
println!("three");
```

```output
three
```

```rust example title="skipped" ignore
fn main() { loop {} }
```
"#;

/// The book locked as [`TOTALS`], then edited: `two` renamed (it passes;
/// its entry is stale) and `three`'s output block changed (it fails now,
/// where the lock records that it passed).
fn edited_after_locking() -> BookTest {
    let mut book = BookTest::new().chapter("totals.md", TOTALS);
    book.run(&["check"], |_| {});
    let edited = TOTALS
        .replace("title=\"two\"", "title=\"second\"")
        .replace("```output\nthree\n```", "```output\n3\n```");
    book.set_chapter("totals.md", &edited);
    book
}

/// Per JUnit test suite: (test cases, failures, skipped).
fn junit_suites(xml: &str) -> BTreeMap<String, (usize, usize, usize)> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut suites = BTreeMap::new();
    let mut suite = String::new();
    loop {
        let (name, start) = match reader.read_event().expect("well-formed XML") {
            Event::Eof => break,
            Event::Start(e) => (e.name().into_inner().to_owned(), e),
            Event::Empty(e) => (e.name().into_inner().to_owned(), e),
            _ => continue,
        };
        let counts: &mut (usize, usize, usize) = suites.entry(suite.clone()).or_default();
        match name.as_str() {
            "testsuite" => {
                let attr = start
                    .try_get_attribute("name")
                    .expect("attributes")
                    .expect("a name");
                suite = attr.value.into_owned();
            }
            "testcase" => counts.0 += 1,
            "failure" => counts.1 += 1,
            "skipped" => counts.2 += 1,
            _ => {}
        }
    }
    suites.remove("");
    suites
}

#[test]
fn totals_add_up_and_lock_differences_are_their_own_count_in_every_format() {
    let book = edited_after_locking();
    let (text, _, code) = check(&book, &["--locked"]);
    assert_eq!(code, 1, "{text}");
    book.check_text(
        text,
        str![[r#"
ok      src/totals.md:3: rust example "one" (expect=run)
ok      src/totals.md:11: rust example "second" (expect=run)
FAILED  src/totals.md:19: rust example "three" (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -3
    +three
ignored src/totals.md:27: rust example "skipped": not checked
FAILED  --locked: src/totals.md:11: rust example "second": what: "rust example \"two\"" in companion.lock, "rust example \"second\"" now; run `mdbook-companion check` and commit companion.lock
FAILED  --locked: src/totals.md:19: rust example "three": hash: its code, what it claims or how this version of mdbook-companion builds it changed since companion.lock was written; verdict: "passed" in companion.lock, "failed" now; the block fails now: fix it (or accept what it does with `mdbook-companion check --bless`), then commit the companion.lock `check` writes
compiler runs: 1, program runs: 1, from cache: 3
2 passed, 1 failed, 1 ignored; 2 lock entries differ

"#]],
    );

    let (json, _) = check_json(&book, &["--locked"]);
    let n = |key: &str| {
        json[key]
            .as_u64()
            .unwrap_or_else(|| panic!("{key}: {json:#}"))
    };
    assert_eq!(
        (n("blocks"), n("passed"), n("failed"), n("ignored")),
        (4, 2, 1, 1),
        "{json:#}"
    );
    assert_eq!(n("passed") + n("failed") + n("ignored"), n("blocks"));
    assert_eq!(json["results"].as_array().map(Vec::len), Some(4));
    assert_eq!(n("lock_differences"), 2);
    assert_eq!(json["lock_errors"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        json["summary"],
        "2 passed, 1 failed, 1 ignored; 2 lock entries differ"
    );

    // JUnit: the chapter's suite holds the blocks, the lock's its own.
    let ran = book.run(&["check", "--locked", "--format", "junit"], |cmd| {
        cmd.expect_code(1);
    });
    let suites = junit_suites(&ran.stdout);
    assert_eq!(
        suites,
        BTreeMap::from([
            ("src/totals.md".to_owned(), (4, 1, 1)),
            ("companion.lock".to_owned(), (2, 2, 0)),
        ]),
        "{}",
        ran.stdout
    );

    // GitHub: an error at the failing block, one per lock difference,
    // the summary last.
    let ran = book.run(&["check", "--locked", "--format", "github"], |cmd| {
        cmd.expect_code(1);
    });
    let lines: Vec<&str> = ran.stdout.lines().collect();
    let count = |prefix: &str| lines.iter().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(
        count("::error file=src/totals.md,line=19,"),
        1,
        "{}",
        ran.stdout
    );
    assert_eq!(count("::error file="), 1, "{}", ran.stdout);
    assert_eq!(count("::error title=companion.lock::"), 2, "{}", ran.stdout);
    assert_eq!(
        lines.last(),
        Some(&"2 passed, 1 failed, 1 ignored; 2 lock entries differ")
    );
}

/// `--locked` on a book whose lock agrees but for the stale entry: the
/// blocks all pass, the run fails on the lock alone, and says to check
/// and commit; fixing the block that fails needs the block fixed.
#[test]
fn locked_advice_follows_the_cause() {
    let book = BookTest::new().chapter("totals.md", TOTALS);
    book.run(&["check"], |_| {});
    let lock = book.root().join("companion.lock");
    let text = std::fs::read_to_string(&lock).expect("the lock");
    let forged = text.replace("'rust example \"one\"'", "'rust example \"uno\"'");
    assert_ne!(forged, text, "{text}");
    std::fs::write(&lock, forged).expect("write");
    let (text, _, code) = check(&book, &["--locked"]);
    assert_eq!(code, 1, "{text}");
    let last: Vec<&str> = text.lines().rev().take(4).collect();
    assert_eq!(
        last,
        [
            "3 passed, 0 failed, 1 ignored; 1 lock entry differs",
            "compiler runs: 0, program runs: 0, from cache: 3",
            "FAILED  --locked: src/totals.md:3: rust example \"one\": what: \"rust example \\\"uno\\\"\" in companion.lock, \"rust example \\\"one\\\"\" now; run `mdbook-companion check` and commit companion.lock",
            "ignored src/totals.md:27: rust example \"skipped\": not checked",
        ],
        "{text}"
    );
}

/// The first check of a book, with nothing in its cache, takes nothing
/// from it, though two claims of an exercise share one job (answered
/// once, by the compiler).
#[test]
fn a_cold_check_takes_nothing_from_the_cache() {
    let book = BookTest::new().chapter(
        "cold.md",
        "# Cold\n\n```rust example\nprintln!(\"hi\");\n```\n\n```output\nhi\n```\n\n```rust example\nprintln!(\"hi\");\n```\n\n```output\nhi\n```\n",
    );
    let (json, code) = check_json(&book, &[]);
    assert_eq!(code, 0, "{json:#}");
    assert_eq!(json["passed"], 2, "{json:#}");
    assert_eq!(json["cache_hits"], 0, "{json:#}");
    assert_eq!(json["compiler_runs"], 1, "one job: {json:#}");
    let cached: Vec<&serde_json::Value> = (json["results"].as_array().into_iter().flatten())
        .map(|r| &r["cached"])
        .collect();
    assert_eq!(cached, [false, false]);
    // Warm: both from the cache.
    let (json, _) = check_json(&book, &[]);
    assert_eq!(json["cache_hits"], 2, "{json:#}");
}
