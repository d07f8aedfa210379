//! `check --bless`: actual outputs written back into chapters, examples
//! and comparison sides alike, and only where the file holds them.

use super::*;
use pretty_assertions::assert_eq;

pub(super) const BLESS: &str = "\u{feff}# Bless\r\n\r\n```rust example\r\nprintln!(\"new one\");\r\nprintln!(\"new two\");\r\n```\r\n\r\n```output\r\nold\r\n```\r\n\r\nText *between*.  \r\n\r\n> ```rust example expect=panic\r\n> panic!(\"real reason\");\r\n> ```\r\n>\r\n> ```output\r\n> imagined reason\r\n> ```\r\n\r\n```rust example\r\nprintln!(\"same\");\r\n```\r\n\r\n```output\r\nsame\r\n```\r\n";

#[test]
fn bless_rewrites_only_output_blocks_and_then_passes() {
    let book = BookTest::new().chapter("bless.md", BLESS);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/bless.md:3: rust example (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1,2 @@
    -old
    +new one
    +new two
FAILED  src/bless.md:14: rust example (expect=panic): the panic message does not contain the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -imagined reason
    +real reason
ok      src/bless.md:22: rust example (expect=run)
compiler runs: 2, program runs: 4, from cache: 0
1 passed, 2 failed

"#]]);
    });
    book.run(&["check", "--bless"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/bless.md:3: rust example (expect=run)
ok      src/bless.md:15: rust example (expect=panic)
ok      src/bless.md:23: rust example (expect=run)
bless: src/bless.md:3: blessed the output block
bless: src/bless.md:14: blessed the output block
compiler runs: 0, program runs: 0, from cache: 3
3 passed, 0 failed

"#]]);
    });
    let after = std::fs::read_to_string(book.root().join("src/bless.md")).unwrap();
    let want = BLESS
        .replace(
            "```output\r\nold\r\n```",
            "```output\r\nnew one\r\nnew two\r\n```",
        )
        .replace("> imagined reason", "> real reason");
    assert_eq!(after, want);
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/bless.md:3: rust example (expect=run)
ok      src/bless.md:15: rust example (expect=panic)
ok      src/bless.md:23: rust example (expect=run)
compiler runs: 0, program runs: 0, from cache: 3
3 passed, 0 failed

"#]]);
    });
}

#[test]
fn bless_leaves_included_outputs_and_files_outside_src_alone() {
    let chapter = "```rust example\nprintln!(\"new\");\n```\n\n```output\nold\n```\n";
    let book = BookTest::new()
        .chapter(
            "inc.md",
            "```rust example\nprintln!(\"new\");\n```\n\n{{#include out.md}}\n",
        )
        .chapter("link.md", "placeholder")
        .file("src/out.md", "```output\nold\n```\n");
    book.write();
    // The link's target: in the book's root, outside its src.
    let outside = book.root().join("real.md");
    std::fs::write(&outside, chapter).unwrap();
    let link = book.root().join("src/link.md");
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    book.run(&["check", "--bless"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/inc.md:1: rust example (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -old
    +new
FAILED  src/link.md:1: rust example (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -old
    +new
bless: src/inc.md:1: not blessed: the output block comes through {{#include}}, not from the chapter file; update the included file
bless: src/link.md:1: not blessed: ./src/link.md is a symbolic link to [ROOT]/real.md, outside the book's src; expected a file inside it
compiler runs: 3, program runs: 3, from cache: 0
0 passed, 2 failed

"#]]);
    });
    assert_eq!(
        std::fs::read_to_string(book.root().join("src/out.md")).unwrap(),
        "```output\nold\n```\n"
    );
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), chapter);
}

/// Checks with `--bless`, then again without; returns the first run's
/// stdout and the second's last line, asserting it passed from the cache.
fn bless_then_recheck(book: &BookTest, blessed_code: i32) -> (String, String) {
    let (stdout, stderr, code) = check(book, &["--bless"]);
    assert_eq!(code, blessed_code, "{stdout}\n{stderr}");
    let (again, _, _) = check(book, &[]);
    assert!(
        again.contains("compiler runs: 0, program runs: 0"),
        "{again}"
    );
    (stdout, again.lines().last().unwrap_or("").to_owned())
}

pub(super) const BLESS_COMPARE: &str = "\u{feff}# Both sides wrong\r\n\r\nText *before*.  \r\n\r\n````compare title=\"Sums\"\r\n```c caption=\"C\" expect=run\r\n~ #include <stdio.h>\r\nint main(void) { printf(\"c one\\n\\nc three\\n\"); return 0; }\r\n```\r\nThe C note.\r\n```output\r\nc old\r\n```\r\n```rust caption=\"Rust\"\r\nfn main() { println!(\"rust new\"); }\r\n```\r\n\r\n```output\r\nrust old\r\nsecond old line\r\n```\r\n\r\n```c caption=\"C: UB\" expect=ub\r\n~ #include <limits.h>\r\nint main(void) { volatile int x = INT_MAX; x += 1; return 0; }\r\n```\r\n```output\r\nsome other report\r\n```\r\n````\r\n\r\n```rust example\r\nprintln!(\"untouched\");\r\n```\r\n\r\n```output\r\nuntouched\r\n```\r\n\r\nText *after*.\r\n";

#[test]
fn bless_rewrites_both_sides_of_a_comparison() {
    let book = BookTest::new().chapter("both.md", BLESS_COMPARE);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(stdout.lines().last(), Some("1 passed, 3 failed"));
    let (stdout, after) = bless_then_recheck(&book, 0);
    let notes: Vec<&str> = stdout.lines().filter(|l| l.starts_with("bless:")).collect();
    let want: Vec<String> = ["caption=\"C\"", "caption=\"Rust\"", "caption=\"C: UB\""]
        .iter()
        .map(|c| {
            format!(
                "bless: src/both.md:{}: blessed the output block",
                line_of(BLESS_COMPARE, c)
            )
        })
        .collect();
    assert_eq!(notes, want, "{stdout}");
    assert_eq!(stdout.lines().last(), Some("4 passed, 0 failed"));
    // Only the lines between the three output blocks' fences changed: the
    // byte-order mark, CRLF line ends, notes and text around are as written.
    let written = std::fs::read_to_string(book.root().join("src/both.md")).unwrap();
    let expected = BLESS_COMPARE
        .replace(
            "```output\r\nc old\r\n```",
            "```output\r\nc one\r\n\r\nc three\r\n```",
        )
        .replace(
            "```output\r\nrust old\r\nsecond old line\r\n```",
            "```output\r\nrust new\r\n```",
        )
        .replace(
            "some other report",
            "runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'",
        );
    assert_ne!(expected, BLESS_COMPARE);
    assert_eq!(written, expected);
    assert_eq!(after, "4 passed, 0 failed");
}

#[test]
fn bless_reports_a_comparison_output_that_comes_through_an_include() {
    let chapter = "# Inc\n\n````compare\n```c expect=run\n~ #include <stdio.h>\nint main(void) { puts(\"c new\"); return 0; }\n```\n{{#include c-out.md}}\n```rust\nfn main() { println!(\"rust new\"); }\n```\n```output\nrust old\n```\n````\n";
    let book = BookTest::new()
        .chapter("inc.md", chapter)
        .file("src/c-out.md", "```output\nc old\n```\n");
    book.write();
    let (stdout, after) = bless_then_recheck(&book, 1);
    let notes: Vec<&str> = stdout.lines().filter(|l| l.starts_with("bless:")).collect();
    assert_eq!(
        notes,
        [
            "bless: src/inc.md:4: not blessed: the output block comes through {{#include}}, not from the chapter file; update the included file",
            "bless: src/inc.md:9: blessed the output block",
        ]
    );
    assert_eq!(
        std::fs::read_to_string(book.root().join("src/c-out.md")).unwrap(),
        "```output\nc old\n```\n"
    );
    assert_eq!(
        std::fs::read_to_string(book.root().join("src/inc.md")).unwrap(),
        chapter.replace("rust old", "rust new")
    );
    assert_eq!(after, "1 passed, 1 failed");
}

pub(super) const TWO_COMPARES: &str = include_str!("two-compares/src/two.md");

#[test]
fn bless_composes_several_comparisons_in_one_chapter() {
    let book = BookTest::new().chapter("two.md", TWO_COMPARES);
    book.write();
    let (stdout, after) = bless_then_recheck(&book, 1);
    let at = |caption: &str| {
        format!(
            "bless: src/two.md:{}:",
            line_of(TWO_COMPARES, &format!("caption=\"{caption}\""))
        )
    };
    let notes: Vec<&str> = stdout.lines().filter(|l| l.starts_with("bless:")).collect();
    assert_eq!(
        notes,
        [
            format!("{} blessed the output block", at("1c")),
            format!("{} blessed the output block", at("1r")),
            format!(
                "bless: src/two.md:{}: blessed the output block",
                line_of(TWO_COMPARES, "rust example")
            ),
            format!("{} blessed the output block", at("2cpp")),
            format!(
                "{} not blessed: the actual output contains `~~~~`, which would close the comparison around the block; use a longer fence for the comparison",
                at("3c")
            ),
            format!("{} blessed the output block", at("3r")),
        ],
        "{stdout}"
    );
    let written = std::fs::read_to_string(book.root().join("src/two.md")).unwrap();
    let expected = TWO_COMPARES
        .replace(
            "```output
1c
```",
            "```output
first c, now much longer than before
and two lines
```",
        )
        .replace(
            "old first rust output, longer than the new one",
            "first rust",
        )
        .replace("not between", "between")
        .replace(
            "  ```output
  2cpp
  ```",
            "  ```output
  second cpp
  ```",
        )
        .replace(
            "```output
3r
```",
            "```output
third rust
```",
        );
    assert_eq!(written, expected);
    // Left failing: the C side that does not compile (nothing to bless)
    // and the one whose output would close its comparison.
    assert_eq!(after, "5 passed, 2 failed");
}

/// What guide/src/check.md says an output-only edit costs: none while the
/// block still holds (the verdict comes from what the program did), one
/// compile and run when it no longer matches (the second run that tells
/// output that varies from a wrong block).
#[test]
fn an_output_only_edit_costs_what_the_guide_says() {
    let chapter = |output: &str| {
        format!("# C\n\n```rust example\nprintln!(\"hi\");\n```\n\n```output\n{output}\n```\n")
    };
    let book = BookTest::new().chapter("c.md", &chapter("hi"));
    book.run(&["check"], |_| {});
    let path = book.root().join("src/c.md");
    std::fs::write(&path, chapter("h[..]")).unwrap();
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/c.md:3: rust example (expect=run)
compiler runs: 0, program runs: 0, from cache: 1
1 passed, 0 failed

"#]]);
    });
    std::fs::write(&path, chapter("hello")).unwrap();
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/c.md:3: rust example (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -hello
    +hi
compiler runs: 1, program runs: 1, from cache: 1
0 passed, 1 failed

"#]]);
    });
}

#[test]
fn bless_adding_an_output_block_leaves_a_lock_that_vouches_for_the_moved_blocks() {
    // The first example passes and printed with no output block: bless
    // adds one, which moves the next example down. The lock written
    // after bless must name that example at its new line, or `--locked`
    // on the blessed book fails.
    let chapter = "# Add\n\n```rust example\nprintln!(\"printed\");\n```\n\n```rust example\nprintln!(\"second\");\n```\n\n```output\nsecond\n```\n";
    let book = BookTest::new().chapter("add.md", chapter);
    book.run(&["check", "--bless"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/add.md:3: rust example (expect=run)
ok      src/add.md:11: rust example (expect=run)
bless: src/add.md:3: added an output block
compiler runs: 1, program runs: 2, from cache: 0
2 passed, 0 failed

"#]]);
    });
    book.check_file(
        "src/add.md",
        str![[r##"
# Add

```rust example
println!("printed");
```

```output
printed
```

```rust example
println!("second");
```

```output
second
```

"##]],
    );
    book.run(&["check", "--locked"], |_| {});
}
