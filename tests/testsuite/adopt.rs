//! `mdbook-companion adopt`: a book's passing plain blocks become
//! examples with the output they printed; the diff, `--write` (nothing
//! else changes, a second run changes nothing), the blocks left as they
//! are, and the book afterwards (check passes on every adopted block, the
//! play buttons stay).

use crate::anybook::{check_json, verdicts};
use crate::support::BookTest;
use pretty_assertions::assert_eq;
use similar::{DiffOp, TextDiff};
use snapbox::str;
use std::collections::BTreeMap;
use std::path::Path;

/// Every file of the book (but the cache, the lock and the build), by path.
fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read_dir") {
            let path = entry.expect("entry").path();
            let rel = path
                .strip_prefix(root)
                .expect("inside")
                .to_string_lossy()
                .into_owned();
            if [".companion-cache", "companion.lock", "book"].contains(&rel.as_str()) {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                out.insert(rel, std::fs::read(&path).expect("read"));
            }
        }
    }
    out
}

/// Play buttons per page of the built book.
fn play_buttons(book: &BookTest) -> BTreeMap<String, usize> {
    let root = book.root();
    book.run(&["build"], |_| {});
    // mdBook's play button, or ours (a frame with a recorded run: its
    // fence is then noplayground, so mdBook leaves it to us).
    let selector =
        scraper::Selector::parse("pre.playground, [data-companion-run]").expect("selector");
    let mut counts = BTreeMap::new();
    for (file, bytes) in files(&root.join("book")) {
        if file.ends_with(".html") && !file.ends_with("print.html") {
            let html = scraper::Html::parse_document(&String::from_utf8_lossy(&bytes));
            counts.insert(file, html.select(&selector).count());
        }
    }
    let _ = std::fs::remove_dir_all(root.join("book"));
    counts
}

#[test]
fn adopt_prints_a_diff_and_writes_only_the_info_strings_and_outputs() {
    let book = BookTest::from_dir("anybook/plain");
    let root = book.root();
    let original = files(root);
    let buttons = play_buttons(&book);
    let (before, _) = check_json(&book, &[]);

    // The diff, and nothing written; on stderr, the blocks left as they
    // are, and why: includes, failures, what examples cannot say.
    let diff = book
        .run(&["adopt"], |cmd| {
            cmd.expect_stdout(str![[r#"
--- a/src/run.md
+++ b/src/run.md
@@ -1,7 +1,11 @@
 # Run
 
-```rust
+```rust example
 fn main() {
     println!("hi");
 }
 ```
+
+```output
+hi
+```
--- a/src/loose.md
+++ b/src/loose.md
@@ -2,7 +2,7 @@
 
 Unlabelled, and no `fn main`:
 
-```
+```rust example
 let x = 2;
 assert_eq!(x, 2);
 ```
--- a/src/hidden.md
+++ b/src/hidden.md
@@ -1,9 +1,13 @@
 # Hidden lines
 
-```rust
+```rust example
 ##[derive(Debug)]
 # struct Hidden;
 # fn main() {
 println!("{:?}", Hidden);
 # }
 ```
+
+```output
+Hidden
+```
--- a/src/panics.md
+++ b/src/panics.md
@@ -1,5 +1,9 @@
 # Panics
 
-```should_panic
+```rust example expect=panic
 panic!("boom");
 ```
+
+```output
+boom
+```
--- a/src/no_run.md
+++ b/src/no_run.md
@@ -1,5 +1,5 @@
 # No run
 
-```rust,no_run
+```rust example expect=no-run
 loop {}
 ```
--- a/src/compile_fail.md
+++ b/src/compile_fail.md
@@ -1,5 +1,5 @@
 # Compile fail
 
-```compile_fail
+```rust example expect=compile-fail error=E0308
 let x: i32 = "a";
 ```
--- a/src/compile_fail_code.md
+++ b/src/compile_fail_code.md
@@ -1,5 +1,5 @@
 # Compile fail with its code
 
-```compile_fail,E0308
+```rust example expect=compile-fail error=E0308
 let x: i32 = "a";
 ```
--- a/src/edition2015.md
+++ b/src/edition2015.md
@@ -1,6 +1,10 @@
 # Edition 2015
 
-```rust,edition2015
+```rust example edition=2015
 let async = 1;
 println!("{}", async);
 ```
+
+```output
+1
+```
--- a/src/book_edition.md
+++ b/src/book_edition.md
@@ -1,6 +1,6 @@
 # The book's edition
 
-```rust
+```rust example
 async fn f() {}
 let _ = f();
 ```
--- a/src/crate_name.md
+++ b/src/crate_name.md
@@ -1,6 +1,6 @@
 # Crate name
 
-```rust
+```rust example
 #![crate_name = "renamed"]
 fn main() {}
 ```
--- a/src/sub/nested.md
+++ b/src/sub/nested.md
@@ -1,6 +1,6 @@
 # Nested
 
-```rust
+```rust example
 use std::collections::HashMap;
 let mut m = HashMap::new();
 m.insert(1, 2);

"#]]).expect_stderr(str![[r#"
left as they are:
  src/no_panic.md:3: fails (the program exited successfully; the block is marked should_panic)
  src/fails.md:3: fails (the program panicked: assertion `left == right` failed)
  src/wrong_code.md:3: fails (does not compile, but with E0308 instead of E0382 (rustdoc checks error codes only on nightly; mdbook test on stable would pass this block))
  src/compiles.md:3: fails (compiled, but the block is marked compile_fail)
  src/ignore.md:3: ignored
  src/harness.md:3: test_harness (an example has no test harness)
  src/harness_fails.md:3: fails (the program exited with code 101)
  src/result.md:3: ends in `Ok(())`, which rustdoc returns from a wrapped `main` and mdBook does not
  src/include.md:5: comes from {{#include}}; left as it is
  src/indented.md:5: an indented block (examples are fenced)
  src/stray_semicolon.md:3: `fn main` is found differently by rustdoc and mdBook
  src/main_then_code.md:3: `fn main` is found differently by rustdoc and mdBook
mdbook-companion adopt: 11 block(s) would become examples; 12 left as they are

"#]]);
        })
        .stdout;
    assert_eq!(files(root), original);

    // --write: the same change, and nothing else in any file.
    let written = book.run(&["adopt", "--write"], |_| {}).stdout;
    assert_eq!(written, diff);
    let after = files(root);
    for (file, old) in &original {
        let new = &after[file];
        if file.ends_with("book.toml") {
            assert!(new.starts_with(old), "book.toml keeps its text");
            assert!(String::from_utf8_lossy(new).contains("[preprocessor.companion]"));
            continue;
        }
        let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(new));
        let lines = TextDiff::from_lines(&*old, &*new);
        let (old_lines, new_lines): (Vec<&str>, Vec<&str>) = (
            old.split_inclusive('\n').collect(),
            new.split_inclusive('\n').collect(),
        );
        for op in lines.ops() {
            match *op {
                DiffOp::Equal { .. } => {}
                DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => {
                    assert_eq!((old_len, new_len), (1, 1), "{file}: one info line");
                    let (o, n) = (old_lines[old_index], new_lines[new_index]);
                    assert!(
                        o.starts_with("```") && n.starts_with("```rust example"),
                        "{file}: {o:?} -> {n:?}"
                    );
                }
                DiffOp::Insert {
                    new_index, new_len, ..
                } => {
                    let inserted: String = new_lines[new_index..new_index + new_len].concat();
                    assert!(
                        inserted.starts_with("\n```output\n") && inserted.ends_with("```\n"),
                        "{file}: {inserted:?}"
                    );
                }
                DiffOp::Delete { .. } => panic!("{file}: a line was deleted"),
            }
        }
    }

    // A second run changes nothing.
    book.run(&["adopt"], |cmd| {
        cmd.expect_stdout(str![""]);
    });
    book.run(&["adopt", "--write"], |_| {});
    assert_eq!(files(root), after);

    // check: every adopted block passes, the same blocks fail as before.
    let (json, _) = check_json(&book, &[]);
    let failing = |j: &serde_json::Value| -> Vec<(String, u64)> {
        verdicts(j)
            .into_iter()
            .filter(|v| v.2 == "failed")
            .map(|v| (v.0, v.1))
            .collect()
    };
    assert_eq!(failing(&json), failing(&before));
    let examples: Vec<&serde_json::Value> = json["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| {
            r["what"]
                .as_str()
                .is_some_and(|w| w.starts_with("rust example"))
        })
        .collect();
    assert_eq!(examples.len(), 11);
    assert!(examples.iter().all(|r| r["status"] == "passed"), "{json:#}");

    // Every play button the book had is still there.
    let now = play_buttons(&book);
    for (page, n) in &buttons {
        assert!(
            now.get(page).copied().unwrap_or(0) >= *n,
            "{page}: {n} before, {now:?} after"
        );
    }
}

/// A plain block whose run N (counted in a file under `dir`) prints `body`
/// (Rust code that may read `n`).
fn counting_block(dir: &Path, name: &str, body: &str) -> String {
    let file = dir.join(format!("runs-{name}"));
    format!(
        "```rust\nuse std::io::Write;\nlet path = {path:?};\nlet mut f = std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap();\nwriteln!(f, \"run\").unwrap();\nlet n = std::fs::read_to_string(path).unwrap().lines().count();\n{body}\n```\n",
        path = file.display().to_string()
    )
}

#[test]
fn adopt_runs_each_program_again_and_records_only_what_is_stable() {
    // The programs count their runs in files in the book's root, which
    // the chapters then name as `[ROOT]`: outside a box, the only place
    // a program keeps something from one run to the next.
    let mut book = BookTest::new();
    let counts = book.root().to_path_buf();
    let dir = counts.as_path();
    book = book
        .companion("isolation = \"off\"")
        .chapter(
            "order.md",
            &format!(
                "# Order\n\n{}",
                counting_block(
                    dir,
                    "order",
                    "let words = [\"alpha\", \"beta\", \"gamma\"];\nfor i in 0..3 {\n    println!(\"{}\", words[(i + n) % 3]);\n}"
                )
            ),
        )
        .chapter(
            "span.md",
            &format!(
                "# Span\n\n{}",
                counting_block(dir, "span", "println!(\"run {n} of the program\");\nprintln!(\"done\");")
            ),
        )
        .chapter(
            "lines.md",
            &format!(
                "# Lines\n\n{}",
                counting_block(dir, "lines", "for _ in 0..n {\n    println!(\"tick\");\n}")
            ),
        )
        .chapter(
            "steady.md",
            "# Steady\n\n```rust\nprintln!(\"always\");\n```\n",
        )
        .chapter(
            "channel.md",
            &format!(
                "# Channel\n\n{}",
                counting_block(
                    dir,
                    "channel",
                    "// The fourth run sends in another order.\nlet n = std::thread::spawn(move || n).join().unwrap();\nlet ids = if n <= 3 { [0, 1] } else { [1, 0] };\nprintln!(\"sent\");\nprintln!(\"{:?}\", ids.map(Ok::<i32, ()>));"
                )
            ),
        )
        .chapter(
            "hash.md",
            &format!(
                "# Hash\n\n{}",
                counting_block(
                    dir,
                    "hash",
                    "// A HashMap's order is the process's own; here the fourth run's.\nlet _m: std::collections::HashMap<u8, u8> = Default::default();\nlet keys = if n <= 3 { [\"a\", \"b\"] } else { [\"b\", \"a\"] };\nfor k in keys {\n    println!(\"{k}\");\n}"
                )
            ),
        )
        .chapter(
            "threads.md",
            "# Threads\n\n```rust\nfor i in 0..2 {\n    std::thread::spawn(move || println!(\"thread {i}\")).join().unwrap();\n}\n```\n",
        );
    let root = book.root();
    // Two runs agreed for hash.md; a program that uses a HashMap is run
    // until the order changes.
    book.run(&["adopt", "--write"], |cmd| {
        cmd.expect_stderr(str![[r#"
output that varies between runs (each program was run twice, one that starts threads or hashes with a random key up to 24 times):
  src/order.md:3: its lines come in another order: recorded as ```output unordered
  src/span.md:3: parts of its lines change: recorded with [..] for them
  src/lines.md:3: it changes otherwise: no output block recorded
  src/channel.md:3: parts of its lines change: recorded with [..] for them
  src/hash.md:3: its lines come in another order: recorded as ```output unordered
  src/threads.md:3: it starts threads, whose lines may come in any order: recorded as ```output unordered
mdbook-companion adopt: wrote src/order.md
mdbook-companion adopt: wrote src/span.md
mdbook-companion adopt: wrote src/lines.md
mdbook-companion adopt: wrote src/steady.md
mdbook-companion adopt: wrote src/channel.md
mdbook-companion adopt: wrote src/hash.md
mdbook-companion adopt: wrote src/threads.md
mdbook-companion adopt: checked the book and wrote companion.lock: 7 passed, 0 failed
mdbook-companion adopt: 7 block(s) became examples; 0 left as they are

"#]]);
    });
    book.check_file(
        "src/order.md",
        str![[r##"
# Order

```rust example edition=2015
use std::io::Write;
let path = "[ROOT]/runs-order";
let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap();
writeln!(f, "run").unwrap();
let n = std::fs::read_to_string(path).unwrap().lines().count();
let words = ["alpha", "beta", "gamma"];
for i in 0..3 {
    println!("{}", words[(i + n) % 3]);
}
```

```output unordered
beta
gamma
alpha
```

"##]],
    );
    // `[..]` is a wildcard to snapbox too: the text itself is checked.
    let span = book.read("src/span.md");
    assert!(
        span.contains("```output\nrun [..] of the program\ndone\n```"),
        "{span}"
    );
    // No output block recorded.
    book.check_file(
        "src/lines.md",
        str![[r##"
# Lines

```rust example edition=2015
use std::io::Write;
let path = "[ROOT]/runs-lines";
let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap();
writeln!(f, "run").unwrap();
let n = std::fs::read_to_string(path).unwrap().lines().count();
for _ in 0..n {
    println!("tick");
}
```

"##]],
    );
    book.check_file(
        "src/steady.md",
        str![[r##"
# Steady

```rust example edition=2015
println!("always");
```

```output
always
```

"##]],
    );
    book.check_file(
        "src/threads.md",
        str![[r##"
# Threads

```rust example edition=2015
for i in 0..2 {
    std::thread::spawn(move || println!("thread {i}")).join().unwrap();
}
```

```output unordered
thread 0
thread 1
```

"##]],
    );
    // Two runs agreed; the fourth did not, and a program that starts
    // threads is run until it shows.
    book.check_file(
        "src/hash.md",
        str![[r##"
# Hash

```rust example edition=2015
use std::io::Write;
let path = "[ROOT]/runs-hash";
let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap();
writeln!(f, "run").unwrap();
let n = std::fs::read_to_string(path).unwrap().lines().count();
// A HashMap's order is the process's own; here the fourth run's.
let _m: std::collections::HashMap<u8, u8> = Default::default();
let keys = if n <= 3 { ["a", "b"] } else { ["b", "a"] };
for k in keys {
    println!("{k}");
}
```

```output unordered
a
b
```

"##]],
    );
    let channel = book.read("src/channel.md");
    assert!(
        channel.contains("```output\nsent\n[Ok([..])]\n```"),
        "{channel}"
    );
    // check then passes, cold, run after run (each run counts on).
    for _ in 0..3 {
        let _ = std::fs::remove_dir_all(root.join(".companion-cache"));
        let (json, code) = check_json(&book, &[]);
        assert_eq!(code, 0, "{json:#}");
        let statuses: Vec<String> = verdicts(&json).into_iter().map(|v| v.2).collect();
        assert_eq!(statuses, ["passed"; 7], "{json:#}");
    }
}

/// A book of passing plain blocks, in two chapters: output blocks
/// inserted move the blocks after them.
fn passing_book() -> BookTest {
    BookTest::new()
        .toml("[rust]\nedition = \"2021\"")
        .chapter(
            "first.md",
            "# First\n\n```rust\nprintln!(\"one\");\n```\n\nAnd then:\n\n```rust\nlet x = 2;\nassert_eq!(x + x, 4);\nprintln!(\"{x}\");\n```\n\n```compile_fail\nlet x: i32 = \"a\";\n```\n",
        )
        .chapter(
            "second.md",
            "# Second\n\n```rust,ignore\nnot checked\n```\n\n```rust\nprintln!(\"two\");\n```\n",
        )
}

/// After `adopt --write`, `companion.lock` is the one `check` writes for
/// the adopted book: a single `check --locked` passes, with no other
/// command between, and a `check` leaves the lock as it is.
#[test]
fn adopt_write_leaves_a_locked_book() {
    let book = passing_book();
    let root = book.root();
    let ran = book.run(&["adopt", "--write"], |_| {});
    assert!(book.read("src/first.md").contains("```rust example\n"));
    book.run(&["check", "--locked"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/first.md:3: rust example (expect=run)
ok      src/first.md:13: rust example (expect=run)
ok      src/first.md:23: rust example (expect=compile-fail)
ignored src/second.md:3: rust block (ignore): not checked
ok      src/second.md:7: rust example (expect=run)
compiler runs: 0, program runs: 0, from cache: 4
4 passed, 0 failed, 1 ignored

"#]]);
    });
    assert!(
        ran.stderr.contains(
            "mdbook-companion adopt: checked the book and wrote companion.lock: 4 passed, 0 failed, 1 ignored\n"
        ),
        "{}",
        ran.stderr
    );
    let lock = std::fs::read(root.join("companion.lock")).expect("the lock");
    book.run(&["check"], |_| {});
    assert_eq!(
        std::fs::read(root.join("companion.lock")).expect("lock"),
        lock
    );
}

/// A block whose output the book shows already in the block after it (a
/// "will print" fence of any of the kinds that show output) gets no
/// output block: the page would show it twice. A block the next fence
/// shows something else for gets its own.
#[test]
fn adopt_adds_no_output_block_the_next_block_shows() {
    let book = BookTest::new().toml("[rust]\nedition = \"2021\"").chapter(
        "shown.md",
        "# Shown\n\n```rust\nprintln!(\"a\");\nprintln!(\"b\");\n```\n\nwill yield\n\n```text\na  \nb\n\n```\n\n```rust\nprintln!(\"c\");\n```\n\n```console\n$ cargo run\nc\n```\n\n```rust\nprintln!(\"d\");\n```\n\n```sh\nd\n```\n",
    );
    book.run(&["adopt", "--write"], |cmd| {
        cmd.expect_stderr(str![[r#"
output the book already shows (no output block added):
  src/shown.md:3: the ```text block after it shows its output already
  src/shown.md:25: the ```sh block after it shows its output already
mdbook-companion adopt: wrote src/shown.md
mdbook-companion adopt: checked the book and wrote companion.lock: 3 passed, 0 failed
mdbook-companion adopt: 3 block(s) became examples; 0 left as they are

"#]]);
    });
    book.check_file(
        "src/shown.md",
        str![[r##"
# Shown

```rust example
println!("a");
println!("b");
```

will yield

```text
a  
b

```

```rust example
println!("c");
```

```output
c
```

```console
$ cargo run
c
```

```rust example
println!("d");
```

```sh
d
```

"##]],
    );
    book.run(&["check", "--locked"], |_| {});
    // `check` asks for no output block there either, and `--bless` adds
    // none: the page shows the output once.
    let adopted = book.read("src/shown.md");
    let ran = book.run(&["check", "--bless"], |_| {});
    assert!(!ran.stdout.contains("output not claimed"), "{}", ran.stdout);
    assert_eq!(book.read("src/shown.md"), adopted);
}
