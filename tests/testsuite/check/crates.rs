//! Examples that use crates: `[preprocessor.companion.dependencies]` and
//! `cargo-manifest`, built once by real Cargo from path crates (no
//! network), checked, cached by the set's fingerprint, located errors, the
//! Playground's note, and `mdbook test -L` on the same book.

use super::{check, check_json, line_of};
use crate::support::{BookTest, inside};
use serde_json::Value;
use snapbox::str;
use std::path::Path;
use std::process::Command;

/// The fixture book's chapter and crates (`tests/crates-book`).
const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/crates-book");

fn fixture(path: &str) -> String {
    std::fs::read_to_string(Path::new(FIXTURE).join(path)).expect("fixture file")
}

/// A case book with the fixture's chapter and its two path crates copied
/// in (so a test may edit them), declared as the fixture declares them.
fn crates_book() -> BookTest {
    crates_book_with("", &fixture("src/crates.md"))
}

/// [`crates_book`] with more `[preprocessor.companion]` lines and another
/// chapter.
fn crates_book_with(companion: &str, chapter: &str) -> BookTest {
    let mut book = BookTest::new()
        .companion(companion)
        .chapter("crates.md", chapter)
        .toml(
            "[preprocessor.companion.dependencies]\nmylib = { path = \"crates/mylib\" }\nrand = { path = \"crates/rand\", features = [\"small\"] }\n",
        );
    for file in [
        "crates/mylib/Cargo.toml",
        "crates/mylib/src/lib.rs",
        "crates/rand/Cargo.toml",
        "crates/rand/src/lib.rs",
    ] {
        book = book.file(file, fixture(file));
    }
    book
}

fn statuses(report: &serde_json::Value) -> Vec<(String, String)> {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["what"].as_str().unwrap_or_default().to_owned(),
                r["status"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn crates_are_built_once_and_a_warm_check_starts_no_tool() {
    let book = crates_book();
    book.write();
    let (cold, code) = check_json(&book, &[]);
    assert_eq!(code, 0, "{cold:#}");
    assert_eq!(
        statuses(&cold),
        [
            ("rust example \"Doubling with mylib\"", "passed"),
            ("rust example \"A number in a range\"", "passed"),
            ("rust example \"Overflow inside mylib\"", "passed"),
        ]
        .map(|(w, s)| (w.to_owned(), s.to_owned()))
    );
    assert_eq!(cold["dependency_builds"], 1, "{cold:#}");
    assert!(book.root().join(".companion-cache/.gitignore").is_file());
    let lock = std::fs::read_to_string(book.root().join("companion.Cargo.lock")).expect("lock");
    assert!(lock.contains("name = \"mylib\""), "{lock}");
    let (warm, code) = check_json(&book, &[]);
    assert_eq!(code, 0);
    assert_eq!(
        (
            warm["dependency_builds"].as_u64(),
            warm["compiler_runs"].as_u64()
        ),
        (Some(0), Some(0)),
        "{warm:#}"
    );
    assert_eq!(warm["cache_hits"], 3);
    // The lock names the crates' examples by the set's fingerprint.
    let (stdout, _, code) = check(&book, &["--locked"]);
    assert_eq!(code, 0, "{stdout}");
    // Each alone gives the same verdicts, from a build of its own.
    std::fs::remove_dir_all(book.root().join(".companion-cache")).expect("rm cache");
    let (alone, _) = check_json(&book, &["--no-merge"]);
    assert_eq!(statuses(&alone), statuses(&cold));
    assert_eq!(alone["dependency_builds"], 1);
}

#[test]
fn two_runs_in_one_process_count_their_own_dependency_builds() {
    // The crates are per run: a second check in the same process finds
    // the libraries the first built (and the cache its verdicts), and
    // reports no build of its own.
    let book = crates_book();
    book.write();
    let check_here =
        || mdbook_companion::commands::check::run(book.root(), &Default::default()).expect("check");
    let first = check_here();
    assert_eq!(first.counters.dependency_builds, 1, "{:?}", first.counters);
    let second = check_here();
    assert_eq!(
        second.counters.dependency_builds, 0,
        "{:?}",
        second.counters
    );
    assert_eq!(second.counters.compiler_runs, 0, "{:?}", second.counters);
}

#[test]
fn editing_a_path_crate_checks_its_examples_again() {
    let book = crates_book();
    book.write();
    let (_, code) = check_json(&book, &[]);
    assert_eq!(code, 0);
    std::fs::write(
        book.root().join("crates/mylib/src/lib.rs"),
        fixture("crates/mylib/src/lib.rs").replace("x * 2", "x * 3"),
    )
    .expect("edit");
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/crates.md:5: rust example "Doubling with mylib" (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -42
    +63
ok      src/crates.md:19: rust example "A number in a range" (expect=run)
ok      src/crates.md:32: rust example "Overflow inside mylib" (expect=panic)
note: the book's crates are built in [ROOT]/.companion-cache/crates/lib-debug; `mdbook test -L [ROOT]/.companion-cache/crates/lib-debug` finds them
compiler runs: 2, program runs: 4, from cache: 0, dependency builds: 1
2 passed, 1 failed

"#]]);
    });
}

#[test]
fn a_crate_the_book_does_not_declare_is_located_and_names_the_table() {
    let chapter = "# Undeclared\n\n```rust example title=\"serde\"\n# fn main() {\nlet x = 1;\n  let v = serde_json::to_string(&x);\n# }\n```\n";
    let book = BookTest::new().chapter("u.md", chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/u.md:3: rust example "serde" (expect=run): src/u.md:6:11: uses the crate `serde_json`, which the book does not declare; add it to [preprocessor.companion.dependencies] in book.toml, such as `serde_json = "1"` or `serde_json = { path = "../serde_json" }`
...
compiler runs: 1, program runs: 0, from cache: 0
0 passed, 1 failed

"#]]);
    });
    // A book that declares no crates starts no Cargo at all.
    assert!(!book.root().join(".companion-cache/crates").exists());
    // A build with `verify = true` places the crate's use on the same
    // line of the chapter as `check` does.
    let verified = BookTest::new()
        .companion("verify = true")
        .chapter("u.md", chapter);
    let err = verified
        .build_in_process()
        .expect_err("an undeclared crate");
    assert!(
        err.contains("src/u.md:6:11: uses the crate `serde_json`"),
        "{err}"
    );
}

#[test]
fn bad_entries_are_located_in_book_toml() {
    // The table of errors: each entry (on book.toml's line 9), what
    // check said and what the build said.
    let mut table = String::new();
    let mut last = None;
    for entry in [
        "mylib = { path = \"crates/mylib\", feature = [\"x\"] }",
        "rand = \"latest\"",
    ] {
        let book = BookTest::new()
            .chapter("a.md", "# A\n")
            .toml(&format!("[preprocessor.companion.dependencies]\n{entry}\n"));
        let checked = book.run(&["check"], |cmd| {
            cmd.expect_failure();
        });
        let toml = std::fs::read_to_string(book.root().join("book.toml")).expect("toml");
        assert_eq!(line_of(&toml, entry), 9, "{toml}");
        let err = book.build_in_process().expect_err("bad entry");
        table.push_str(&format!(
            "{entry}\n--- check\n{}--- build\n{err}\n",
            checked.stderr
        ));
        last = Some(book);
    }
    last.expect("a book").check_text(table, str![[r#"
mylib = { path = "crates/mylib", feature = ["x"] }
--- check
mdbook-companion: error: book.toml:9:34: [preprocessor.companion] dependencies.mylib: unknown field `feature`, expected one of `version`, `path`, `git`, `branch`, `tag`, `rev`, `features`, `default-features`, `package`
--- build
book.toml:9:34: [preprocessor.companion] dependencies.mylib: unknown field `feature`, expected one of `version`, `path`, `git`, `branch`, `tag`, `rev`, `features`, `default-features`, `package`
rand = "latest"
--- check
mdbook-companion: error: book.toml:9:1: [preprocessor.companion] dependencies.rand: version `latest` is not a version requirement (unexpected character 'l' while parsing major version number); expected one such as "0.8" or "=1.2.3"
--- build
book.toml:9:1: [preprocessor.companion] dependencies.rand: version `latest` is not a version requirement (unexpected character 'l' while parsing major version number); expected one such as "0.8" or "=1.2.3"

"#]]);
}

#[test]
fn cargo_manifest_checks_examples_against_the_library_and_its_dependencies() {
    // The library beside the chapters, as a book in a library's
    // repository has it; its own dependency is a path crate.
    let book = BookTest::new()
        .companion("cargo-manifest = \"lib/Cargo.toml\"")
        .chapter(
            "a.md",
            "# A\n\n```rust example\nprintln!(\"{} {}\", shapes::area(3), helper::ONE);\n```\n\n```output\n9 1\n```\n",
        )
        .file(
            "lib/Cargo.toml",
            "[package]\nname = \"shapes\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nhelper = { path = \"helper\" }\n",
        )
        .file("lib/src/lib.rs", "pub fn area(side: u32) -> u32 { side * side }\n")
        .file(
            "lib/helper/Cargo.toml",
            "[package]\nname = \"helper\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file("lib/helper/src/lib.rs", "pub const ONE: u32 = 1;\n");
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/a.md:3: rust example (expect=run)
note: the book's crates are built in [ROOT]/.companion-cache/crates/lib-debug; `mdbook test -L [ROOT]/.companion-cache/crates/lib-debug` finds them
compiler runs: 1, program runs: 1, from cache: 0, dependency builds: 1
1 passed, 0 failed

"#]]);
    });
    // What the library's folder holds beside its sources (a book, its
    // output) is not the library: the check stays warm.
    std::fs::write(book.root().join("lib/index.html"), "<p>built</p>").expect("write");
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/a.md:3: rust example (expect=run)
note: the book's crates are built in [ROOT]/.companion-cache/crates/lib-debug; `mdbook test -L [ROOT]/.companion-cache/crates/lib-debug` finds them
compiler runs: 0, program runs: 0, from cache: 1
1 passed, 0 failed

"#]]);
    });
    // A manifest that is not there is an error naming it.
    let book = BookTest::new()
        .companion("cargo-manifest = \"nowhere/Cargo.toml\"")
        .chapter("a.md", "# A\n\n```rust example\nfn main() {}\n```\n");
    book.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stderr(str![[r#"
mdbook-companion: error: book.toml:7:1: [preprocessor.companion] cargo-manifest `nowhere/Cargo.toml` cannot be read: No such file or directory (os error 2)

"#]]);
    });
}

#[test]
fn playground_links_only_where_the_playground_has_the_crates() {
    let book = crates_book();
    let page = book.html("crates.md");
    let frames = page.all(".companion-example");
    assert_eq!(frames.len(), 3);
    let links = |i: usize| -> Vec<String> {
        inside(frames[i], ".companion-links a")
            .iter()
            .map(|a| a.text().collect::<String>())
            .collect()
    };
    let notes = |i: usize| -> Vec<String> {
        inside(frames[i], ".companion-link-note")
            .iter()
            .map(|n| n.text().collect::<String>())
            .collect()
    };
    let playground = |i: usize| inside(frames[i], "pre.playground").len();
    // Our Run button's description, when it takes the block (mdBook's
    // play button never does).
    let run = |frames: &[scraper::ElementRef<'_>], i: usize| -> Option<Value> {
        frames[i]
            .value()
            .attr("data-companion-run")
            .map(|a| serde_json::from_str(a).expect("JSON"))
    };
    // mylib: no Playground link, a note, and no Run button (nothing
    // recorded, and the Playground cannot run it).
    assert_eq!(links(0), Vec::<String>::new());
    assert_eq!(
        notes(0),
        [
            "needs mylib, not on the Playground",
            "needs mylib, not on Compiler Explorer"
        ]
    );
    assert_eq!(playground(0), 0);
    assert_eq!(run(&frames, 0), None);
    let code = inside(frames[0], "code.language-rust");
    assert!(
        code[0].value().classes().any(|c| c == "noplayground"),
        "{:?}",
        code[0].value()
    );
    // rand is on the Playground's list: the link stays, and our Run
    // button sends the code there (nothing is recorded: never checked).
    assert_eq!(links(1), ["Playground"]);
    assert_eq!(notes(1), ["needs rand, not on Compiler Explorer"]);
    assert_eq!(playground(1), 0);
    let button = run(&frames, 1).expect("a Run button");
    assert_eq!(button["playground"], "https://play.rust-lang.org/");
    assert_eq!(button.get("recorded"), None);
    // Both: the one the Playground lacks is named.
    assert_eq!(notes(2)[0], "needs mylib, not on the Playground");
    // `playground-crates` replaces the list.
    let book = crates_book().companion("playground-crates = [\"mylib\"]");
    let page = book.html("crates.md");
    let frames = page.all(".companion-example");
    assert_eq!(inside(frames[0], ".companion-links a").len(), 1);
    assert!(run(&frames, 0).is_some());
    assert_eq!(run(&frames, 1), None);
}

#[test]
fn mdbook_test_passes_with_the_library_path_check_prints() {
    let book = crates_book();
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    let dir = stdout
        .lines()
        .find_map(|l| l.split("`mdbook test -L ").nth(1))
        .and_then(|rest| rest.split('`').next())
        .unwrap_or_else(|| panic!("no -L path in {stdout}"))
        .to_owned();
    let mdbook = crate::tools::tool("mdbook");
    let run = |args: &[&str]| {
        Command::new(&mdbook)
            .arg("test")
            .arg(book.root())
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("running {}: {e}", mdbook.display()))
    };
    let with = run(&["-L", &dir]);
    assert!(
        with.status.success(),
        "{}",
        String::from_utf8_lossy(&with.stderr)
    );
    // Without the path rustdoc cannot find the crates: the path is what
    // makes it pass.
    let without = run(&[]);
    assert!(!without.status.success());
    let said = String::from_utf8_lossy(&without.stdout).into_owned()
        + &String::from_utf8_lossy(&without.stderr);
    assert!(said.contains("E0463"), "{said}");
}

#[test]
fn verify_and_assembly_use_the_same_build() {
    let chapter = fixture("src/crates.md").replace(
        "```rust example title=\"Doubling with mylib\"",
        "```rust example title=\"Doubling with mylib\" asm",
    );
    let book = crates_book_with("verify = true", &chapter);
    let page = book.html("crates.md");
    let asm = page.all("details.companion-asm");
    assert_eq!(asm.len(), 1);
    let listing: String = asm[0].text().collect();
    assert!(listing.contains("main"), "{listing}");
    // Every claim held during the build (a failure would fail it).
    assert!(book.root().join("companion.Cargo.lock").is_file());
    assert!(
        book.root()
            .join(".companion-cache/crates/lib-debug")
            .is_dir()
    );
}

#[test]
fn a_crate_cargo_cannot_fetch_fails_each_example_with_cargos_words() {
    // A git source that is not there: Cargo fails offline, then fetching
    // (a `file://` address needs no network), and says why.
    let book = BookTest::new()
        .chapter(
            "g.md",
            "# G\n\n```rust example title=\"gone\"\nfn main() { gone::f(); }\n```\n",
        )
        .toml("[preprocessor.companion.dependencies]\ngone = { git = \"file:///nonexistent/gone.git\" }\n");
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("FAILED  src/g.md:3: rust example \"gone\" (expect=run): uses the book's dependencies, which did not build"),
        "{stdout}"
    );
    assert!(stdout.contains("/nonexistent/gone.git"), "{stdout}");
    // One build, offline; `cargo fetch` (not a build) then fails.
    assert!(stdout.contains("dependency builds: 1"), "{stdout}");
}

#[test]
fn a_comparison_whose_rust_side_needs_a_crate_gets_a_note_for_its_link() {
    let chapter = "# C\n\n````compare title=\"Doubling\"\n```c caption=\"C\"\nint twice(int x) { return 2 * x; }\n```\n```rust caption=\"Rust\"\npub fn twice(x: i32) -> i32 { mylib::double(x) }\n# fn main() { println!(\"{}\", twice(2)); }\n```\n````\n";
    let book = crates_book_with("", chapter);
    let page = book.html("crates.md");
    let row = page.one(".companion-compare-links");
    assert_eq!(
        row.text().collect::<String>(),
        "needs mylib, not on Compiler Explorer"
    );
    assert!(inside(row, "a").is_empty());
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
}

#[test]
fn a_fresh_clone_builds_with_verify_from_the_locks_without_cargo() {
    let book = crates_book_with("verify = true", &fixture("src/crates.md"));
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    // What a clone has: the chapters, companion.lock and
    // companion.Cargo.lock, no cache; and here no Cargo at all.
    std::fs::remove_dir_all(book.root().join(".companion-cache")).expect("rm cache");
    book.run(&["build"], |cmd| {
        cmd.arg(book.root()).env("CARGO", "/nonexistent/cargo");
    });
    assert!(
        !book
            .root()
            .join(".companion-cache/crates/lib-debug")
            .exists()
    );
    assert!(book.root().join("book/crates.html").is_file());
}

#[test]
fn a_path_crate_outside_the_book_or_behind_a_link_is_found() {
    // `path = "../mylib"`, as a book beside its library writes it: Cargo
    // names the crate by its canonical path, the book by `..`.
    let beside = tempfile::tempdir().expect("tempdir");
    let lib = beside.path().join("mylib");
    std::fs::create_dir_all(lib.join("src")).expect("mkdir");
    std::fs::write(lib.join("Cargo.toml"), fixture("crates/mylib/Cargo.toml")).expect("write");
    std::fs::write(lib.join("src/lib.rs"), fixture("crates/mylib/src/lib.rs")).expect("write");
    let book = BookTest::new();
    let up = format!(
        "../{}/mylib",
        beside.path().file_name().expect("name").to_string_lossy()
    );
    let book = book
        .chapter(
            "a.md",
            "# A\n\n```rust example\nprintln!(\"{}\", mylib::double(21));\n```\n\n```output\n42\n```\n",
        )
        .toml(&format!(
            "[preprocessor.companion.dependencies]\nmylib = {{ path = \"{up}\" }}\n"
        ));
    book.write();
    assert!(book.root().join(&up).join("Cargo.toml").is_file(), "{up}");
    let (stdout, stderr, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.ends_with("1 passed, 0 failed\n"), "{stdout}");
    // The same crate through a symbolic link in the book.
    #[cfg(unix)]
    {
        let linked = BookTest::new()
            .chapter(
                "a.md",
                "# A\n\n```rust example\nprintln!(\"{}\", mylib::double(2));\n```\n\n```output\n4\n```\n",
            )
            .toml("[preprocessor.companion.dependencies]\nmylib = { path = \"linked\" }\n");
        linked.write();
        std::os::unix::fs::symlink(&lib, linked.root().join("linked")).expect("symlink");
        let (stdout, stderr, code) = check(&linked, &[]);
        assert_eq!(code, 0, "{stdout}{stderr}");
    }
}

#[test]
fn a_remembered_chapter_follows_an_edited_path_crate() {
    let book = crates_book_with(
        "verify = true\non-failure = \"continue\"",
        &fixture("src/crates.md"),
    );
    book.write();
    let rebuild = || {
        let md = mdbook_driver::MDBook::load(book.root()).expect("load");
        md.build().expect("build");
        book.page("crates.md")
    };
    // The first build makes the cache; the second remembers the chapter.
    for _ in 0..2 {
        assert!(rebuild().all(".companion-verify").is_empty());
    }
    assert!(book.root().join(".companion-cache/chapter").is_dir());
    std::fs::write(
        book.root().join("crates/mylib/src/lib.rs"),
        fixture("crates/mylib/src/lib.rs").replace("x * 2", "x * 3"),
    )
    .expect("edit");
    // Not replayed: the example is checked again, and fails.
    assert!(!rebuild().all(".companion-verify").is_empty());
}

/// A plain block of definitions that links the book's crates runs (a
/// crate's code may run before `main`); one that links none does not.
#[test]
fn blocks_of_definitions_that_use_the_books_crates_run() {
    let chapter = fixture("src/crates.md")
        + "\n```rust\nuse mylib::double;\n```\n\n```rust\nuse std::fmt;\n```\n";
    let book = crates_book_with("", &chapter).toml("[rust]\nedition = \"2021\"\n");
    book.write();
    let (cold, code) = check_json(&book, &[]);
    assert_eq!(code, 0, "{cold:#}");
    // The three examples and the block that uses mylib ran.
    assert_eq!(cold["runs_certain"], 1, "{cold:#}");
    assert_eq!(cold["program_runs"], 4, "{cold:#}");
}
