//! Issue 57: `--locked` is never skipped: under `--chapter` and
//! `--partition` it judges the chosen blocks' entries, and it fails where
//! the HTML renderer would.

use crate::support::BookTest;
use snapbox::str;

/// The `FAILED` lines of a report, each cut before what it quotes (a
/// listing, a toolchain), one per line; `-` when none.
fn failures(report: &str) -> String {
    let cut = |l: &str| {
        let end = [l.find(": \""), l.find(';')].into_iter().flatten().min();
        l[..end.unwrap_or(l.len())].to_owned()
    };
    let lines: Vec<String> = report
        .lines()
        .filter(|l| l.starts_with("FAILED"))
        .map(cut)
        .collect();
    match lines.is_empty() {
        true => "-".to_owned(),
        false => lines.join("\n    "),
    }
}

/// Issue 57 (item 5): `check --locked` under `--chapter` or `--partition`
/// passed with a note that the lock was not compared, even with no lock.
/// It compares the chosen blocks' entries and assembly panels with the
/// lock and fails where they differ or are missing; the other blocks'
/// are not judged.
#[test]
fn locked_judges_the_chosen_blocks_under_chapter_and_partition() {
    let one =
        "# One\n\n```rust example\nfn main() { println!(\"1\"); }\n```\n\n```output\n1\n```\n";
    let two = "# Two\n\n```rust example\nfn main() { println!(\"2\"); }\n```\n\n```output\n2\n```\n\n```rust example asm\npub fn f(x: u32) -> u32 { x * 2 }\nfn main() { println!(\"{}\", f(2)); }\n```\n\n```output\n4\n```\n";
    let book = BookTest::new()
        .chapter("one.md", one)
        .chapter("two.md", two);
    let mut table = String::new();
    let mut runs = |when: &str| {
        for args in [
            &["--chapter", "one.md"][..],
            &["--chapter", "two.md"],
            &["--partition", "hash:1/2"],
            &["--partition", "hash:2/2"],
        ] {
            let ran = book.run(&[&["check", "--locked"][..], args].concat(), |cmd| {
                cmd.expect_any_status();
            });
            let said = failures(&ran.stdout);
            table.push_str(&format!("{when} {args:?} ended {}: {said}\n", ran.code));
        }
    };
    runs("no lock:");
    book.run(&["check"], |_| {});
    runs("locked:");
    // The entry of one.md's block and the panel of two.md's second.
    let lock = book.read("companion.lock");
    let forged = lock.replacen("\n1\n\"\"\"", "\nFORGED\n\"\"\"", 1);
    assert_ne!(forged, lock, "one.md's recorded output");
    let lock = forged;
    let at = lock.find("[[assembly]]").expect("a panel");
    let panel = lock[at..].replacen("toolchain = \"", "toolchain = \"FORGED ", 1);
    std::fs::write(
        book.root().join("companion.lock"),
        format!("{}{panel}", &lock[..at]),
    )
    .unwrap();
    runs("forged:");
    book.check_text(table, str![[r#"
no lock: ["--chapter", "one.md"] ended 1: FAILED  --locked: companion.lock is missing
no lock: ["--chapter", "two.md"] ended 1: FAILED  --locked: companion.lock is missing
no lock: ["--partition", "hash:1/2"] ended 1: FAILED  --locked: companion.lock is missing
no lock: ["--partition", "hash:2/2"] ended 1: FAILED  --locked: companion.lock is missing
locked: ["--chapter", "one.md"] ended 0: -
locked: ["--chapter", "two.md"] ended 0: -
locked: ["--partition", "hash:1/2"] ended 0: -
locked: ["--partition", "hash:2/2"] ended 0: -
forged: ["--chapter", "one.md"] ended 1: FAILED  --locked: src/one.md:3: rust example: run.stdout
forged: ["--chapter", "two.md"] ended 1: FAILED  --locked: src/two.md:11: rust example: assembly.toolchain
forged: ["--partition", "hash:1/2"] ended 1: FAILED  --locked: src/two.md:11: rust example: assembly.toolchain
forged: ["--partition", "hash:2/2"] ended 1: FAILED  --locked: src/one.md:3: rust example: run.stdout

"#]]);
}

/// Issue 57 (item 5): `mdbook build` failed where `check --locked`
/// passed when a file `[output.html]` names was gone (the companion
/// stylesheet, a script, the 404 page), when book.toml named a theme
/// directory that is not there, or when a template of the theme was not
/// UTF-8. `check` fails on each, at the value of book.toml that names
/// the file (the template at its own bad byte), also for one chapter.
#[test]
fn check_fails_where_the_html_renderer_would() {
    /// A case, a file removed, book.toml added, a file written.
    type Case = (
        &'static str,
        &'static str,
        &'static str,
        (&'static str, &'static [u8]),
    );
    let cases: [Case; 6] = [
        ("nothing missing", "", "", ("", b"")),
        ("no stylesheet", "theme/companion.css", "", ("", b"")),
        ("no script", "theme/companion.js", "", ("", b"")),
        ("a theme named, gone", "", "theme = \"mytheme\"", ("", b"")),
        (
            "a 404 page named, gone",
            "",
            "input-404 = \"nope.md\"",
            ("", b""),
        ),
        (
            "a template not UTF-8",
            "",
            "",
            ("theme/index.hbs", b"<html>\n  \xff</html>\n"),
        ),
    ];
    let mut table = String::new();
    for (case, gone, toml, (file, bytes)) in cases {
        let mut book = BookTest::new().chapter("c.md", "# C\n\nNo directive.\n");
        if !toml.is_empty() {
            book = book.toml(&format!("[output.html]\n{toml}"));
        }
        if !file.is_empty() {
            book = book.file(file, bytes);
        }
        book.write();
        if !gone.is_empty() {
            std::fs::remove_file(book.root().join(gone)).unwrap();
        }
        // Real mdBook on the book as it stands (`BookTest::build` would
        // write the removed file again).
        let built = match mdbook_driver::MDBook::load(book.root()).and_then(|b| b.build()) {
            Ok(()) => "passes",
            Err(_) => "fails",
        };
        for args in [&["check"][..], &["check", "--locked", "--chapter", "c.md"]] {
            let ran = book.run(args, |cmd| {
                cmd.expect_any_status();
            });
            let said = failures(&ran.stdout);
            table.push_str(&format!(
                "{case}: build {built}; {args:?} ended {}: {said}\n",
                ran.code
            ));
        }
    }
    BookTest::new().check_text(table, str![[r#"
nothing missing: build passes; ["check"] ended 0: -
nothing missing: build passes; ["check", "--locked", "--chapter", "c.md"] ended 0: -
no stylesheet: build fails; ["check"] ended 1: FAILED  book.toml:10:19: found theme/companion.css, which [output.html] additional-css names, but there is no such file
no stylesheet: build fails; ["check", "--locked", "--chapter", "c.md"] ended 1: FAILED  book.toml:10:19: found theme/companion.css, which [output.html] additional-css names, but there is no such file
no script: build fails; ["check"] ended 1: FAILED  book.toml:11:18: found theme/companion.js, which [output.html] additional-js names, but there is no such file
no script: build fails; ["check", "--locked", "--chapter", "c.md"] ended 1: FAILED  book.toml:11:18: found theme/companion.js, which [output.html] additional-js names, but there is no such file
a theme named, gone: build fails; ["check"] ended 1: FAILED  book.toml:11:9: found no directory mytheme, which [output.html] theme names
a theme named, gone: build fails; ["check", "--locked", "--chapter", "c.md"] ended 1: FAILED  book.toml:11:9: found no directory mytheme, which [output.html] theme names
a 404 page named, gone: build fails; ["check"] ended 1: FAILED  book.toml:11:13: found src/nope.md, which [output.html] input-404 names, but there is no such file
a 404 page named, gone: build fails; ["check", "--locked", "--chapter", "c.md"] ended 1: FAILED  book.toml:11:13: found src/nope.md, which [output.html] input-404 names, but there is no such file
a template not UTF-8: build fails; ["check"] ended 1: FAILED  theme/index.hbs:2:3: found bytes that are not UTF-8 in a template of the theme
a template not UTF-8: build fails; ["check", "--locked", "--chapter", "c.md"] ended 1: FAILED  theme/index.hbs:2:3: found bytes that are not UTF-8 in a template of the theme

"#]]);
}
