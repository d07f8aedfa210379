//! `check` as a drop-in for `mdbook test`: its options (`-L` /
//! `--library-path` with a support crate built by real Cargo, `-c` /
//! `--chapter`) and their errors.

use super::check_json;
use crate::support::BookTest;
use pretty_assertions::assert_eq;
use serde_json::Value;
use snapbox::str;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `(file, status)` of every result.
fn statuses(report: &Value) -> Vec<(String, String)> {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["file"].as_str().unwrap_or_default().to_owned(),
                r["status"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// Builds the support crate `support` under `dir` with real Cargo
/// (offline: it has no dependency), first without and then with its
/// feature `two`, so that `target/debug/deps` holds two builds of it, the
/// newer one's `answer()` being 2. Returns the deps directory.
fn support_crate_built_twice(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir.join("src")).expect("mkdir");
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"support\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[features]\ntwo = []\n\n[workspace]\n",
    )
    .expect("Cargo.toml");
    std::fs::write(
        dir.join("src/lib.rs"),
        "#[cfg(not(feature = \"two\"))]\npub fn answer() -> u32 { 1 }\n#[cfg(feature = \"two\")]\npub fn answer() -> u32 { 2 }\n",
    )
    .expect("lib.rs");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    for features in [&[][..], &["--features", "two"][..]] {
        let out = Command::new(&cargo)
            .current_dir(dir)
            .args(["build", "--offline", "--lib"])
            .args(features)
            .arg("--target-dir")
            .arg(dir.join("target"))
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("RUSTFLAGS")
            .output()
            .expect("run cargo");
        assert!(
            out.status.success(),
            "cargo build: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Builds a second apart, so that "the newest" is plain.
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let deps = dir.join("target/debug/deps");
    let builds = std::fs::read_dir(&deps)
        .expect("deps")
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with("libsupport-") && n.ends_with(".rlib")
        })
        .count();
    assert_eq!(builds, 2, "two builds of the support crate in {deps:?}");
    deps
}

/// A book of two chapters whose blocks use the support crate.
fn support_book() -> BookTest {
    BookTest::new()
        .toml("[rust]\nedition = \"2021\"\n")
        .chapter(
            "uses.md",
            "# Uses\n\n```rust\nassert_eq!(support::answer(), 2);\n```\n",
        )
        .chapter(
            "old.md",
            "# Old\n\n```rust\nextern crate support;\nuse support::answer;\nfn main() { assert_eq!(answer(), 2); }\n```\n",
        )
}

#[test]
fn library_path_passes_the_newest_build_of_a_crate_it_holds() {
    let book = support_book();
    let support = tempfile::tempdir().expect("tempdir");
    let deps = support_crate_built_twice(support.path());
    let deps = deps.to_string_lossy().into_owned();
    // Without the directory the crate is not found (rustc's words).
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/uses.md:3: rust block (expect=run): src/uses.md:4:12: uses the crate `support`, which the book does not declare; add it to [preprocessor.companion.dependencies] in book.toml, such as `support = "1"` or `support = { path = "../support" }`
    | error[E0433]: [..]
...
FAILED  src/old.md:3: rust block (expect=run): src/old.md:4:1: uses the crate `support`, which the book does not declare; add it to [preprocessor.companion.dependencies] in book.toml, such as `support = "1"` or `support = { path = "../support" }`
    | error[E0463]: [..]
...
compiler runs: 2, program runs: 0, from cache: 0
0 passed, 2 failed

"#]]);
    });
    // With it, each block gets the newest of the two builds (rustdoc,
    // given both, stops at E0464).
    book.run(&["check", "-L", &deps], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/uses.md:3: rust block (expect=run)
ok      src/old.md:3: rust block (expect=run)
compiler runs: 1, program runs: 2, from cache: 0
2 passed, 0 failed

"#]]);
    });
    // Warm: no compiler start.
    book.run(&["check", "--library-path", &deps], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/uses.md:3: rust block (expect=run)
ok      src/old.md:3: rust block (expect=run)
compiler runs: 0, program runs: 0, from cache: 2
2 passed, 0 failed

"#]]);
    });
    // Comma-separated and repeated directories (one of them holding no
    // crate) mean the same.
    let empty = tempfile::tempdir().expect("tempdir");
    let empty = empty.path().to_string_lossy().into_owned();
    book.run(
        &["check", "-L", &format!("{empty},{deps}"), "-L", &empty],
        |cmd| {
            cmd.expect_stdout(str![[r#"
ok      src/uses.md:3: rust block (expect=run)
ok      src/old.md:3: rust block (expect=run)
compiler runs: 0, program runs: 0, from cache: 2
2 passed, 0 failed

"#]]);
        },
    );
    // A new build of the crate checks its blocks again.
    std::fs::write(
        support.path().join("src/lib.rs"),
        "pub fn answer() -> u32 { 3 }\n",
    )
    .expect("lib.rs");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let built = Command::new(&cargo)
        .current_dir(support.path())
        .args(["build", "--offline", "--lib", "--features", "two"])
        .arg("--target-dir")
        .arg(support.path().join("target"))
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    book.run(&["check", "-L", &deps], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/uses.md:3: rust block (expect=run): the program panicked: assertion `left == right` failed
  left: 3
 right: 2
    | 
    | thread 'main' ([THREAD_ID]) panicked at src/uses.md:4:1:
    | assertion `left == right` failed
    |   left: 3
    |  right: 2
    | note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
FAILED  src/old.md:3: rust block (expect=run): the program panicked: assertion `left == right` failed
  left: 3
 right: 2
    | 
    | thread 'main' ([THREAD_ID]) panicked at src/old.md:6:13:
    | assertion `left == right` failed
    |   left: 3
    |  right: 2
    | note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
compiler runs: 1, program runs: 2, from cache: 0
0 passed, 2 failed

"#]]);
    });
}

/// Blocks that use a `-L` crate, with the Rust book's `extern crate
/// trpl; // required for mdbook test` or by its path, share merged
/// builds linked with `--extern` for the crates they use.
#[test]
fn blocks_that_use_a_library_crate_are_merged() {
    let mut book = BookTest::new().toml("[rust]\nedition = \"2021\"\n");
    for n in 0..4 {
        book = book.chapter(
            &format!("extern{n}.md"),
            &format!("# E{n}\n\n```rust\nextern crate support; // required for mdbook test\n\nfn main() {{\n    assert_eq!(support::answer() + {n}, 2 + {n});\n}}\n```\n"),
        );
    }
    let book = book
        .chapter(
            "path.md",
            "# P\n\n```rust\nassert_eq!(support::answer(), 2);\n```\n",
        )
        .chapter(
            "fails.md",
            "# F\n\n```rust\nextern crate support;\n\nfn main() {\n    let n: String = support::answer();\n}\n```\n",
        );
    book.write();
    let support = tempfile::tempdir().expect("tempdir");
    let deps = support_crate_built_twice(support.path());
    let deps = deps.to_string_lossy().into_owned();
    let (merged, code) = check_json(&book, &["-L", &deps]);
    assert_eq!(code, 1, "{merged:#}");
    assert_eq!(merged["summary"], "5 passed, 1 failed", "{merged:#}");
    // Six blocks in one build per worker, the failure told by one, and
    // the blocks beside it built again.
    assert!(
        merged["compiler_runs"].as_u64().unwrap_or(99) <= 3,
        "{merged:#}"
    );
    let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
    let (alone, _) = check_json(&book, &["-L", &deps, "--no-merge"]);
    assert_eq!(alone["compiler_runs"], 6, "{alone:#}");
    assert_eq!(statuses(&merged), statuses(&alone));
    assert_eq!(
        merged["results"][5]["detail"],
        alone["results"][5]["detail"]
    );
}

#[test]
fn a_library_path_that_is_not_a_directory_is_a_clear_error() {
    support_book().run(&["check", "-L", "/nonexistent/deps"], |cmd| {
        cmd.expect_code(1)
            .expect_stdout(str![])
            .expect_stderr(str![[r#"
mdbook-companion: error: --library-path /nonexistent/deps: No such file or directory (os error 2); expected a directory of compiled crates (such as target/debug/deps)

"#]]);
    });
}

/// A book whose chapter titles are not their file names.
fn titled_book() -> BookTest {
    let book = BookTest::new()
        .chapter("one.md", "# One\n\n```rust\nassert_eq!(1, 1);\n```\n")
        .chapter("two/deep.md", "# Two\n\n```rust\nassert_eq!(2, 3);\n```\n");
    book.write();
    std::fs::write(
        book.root().join("src/SUMMARY.md"),
        "# Summary\n\n- [The first](one.md)\n- [The second](two/deep.md)\n",
    )
    .expect("summary");
    book
}

#[test]
fn chapter_checks_one_chapter_by_title_or_path() {
    let book = titled_book();
    // Each run's arguments, exit code and report (a panic's text is the
    // standard library's).
    let mut table = String::new();
    for args in [
        &[][..],
        &["-c", "The first"][..],
        &["--chapter", "one.md"][..],
        &["--chapter", "src/one.md"][..],
        &["-c", "two/deep.md"][..],
    ] {
        let ran = book.run(&[&["check"], args].concat(), |cmd| {
            cmd.expect_any_status();
        });
        table.push_str(&format!("{args:?} ended {}\n{}", ran.code, ran.stdout));
    }
    book.check_text(table, str![[r#"
[] ended 1
ok      src/one.md:3: rust block (expect=run)
FAILED  src/two/deep.md:3: rust block (expect=run): the program panicked: assertion `left == right` failed
  left: 2
 right: 3
    | 
    | thread 'main' ([THREAD_ID]) panicked at src/two/deep.md:4:1:
    | assertion `left == right` failed
    |   left: 2
    |  right: 3
    | note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
compiler runs: 1, program runs: 2, from cache: 0
1 passed, 1 failed
["-c", "The first"] ended 0
ok      src/one.md:3: rust block (expect=run)
note: a run of one chapter leaves companion.lock alone
compiler runs: 0, program runs: 0, from cache: 1
1 passed, 0 failed
["--chapter", "one.md"] ended 0
ok      src/one.md:3: rust block (expect=run)
note: a run of one chapter leaves companion.lock alone
compiler runs: 0, program runs: 0, from cache: 1
1 passed, 0 failed
["--chapter", "src/one.md"] ended 0
ok      src/one.md:3: rust block (expect=run)
note: a run of one chapter leaves companion.lock alone
compiler runs: 0, program runs: 0, from cache: 1
1 passed, 0 failed
["-c", "two/deep.md"] ended 1
FAILED  src/two/deep.md:3: rust block (expect=run): the program panicked: assertion `left == right` failed
  left: 2
 right: 3
    | 
    | thread 'main' ([THREAD_ID]) panicked at src/two/deep.md:4:1:
    | assertion `left == right` failed
    |   left: 2
    |  right: 3
    | note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
note: a run of one chapter leaves companion.lock alone
compiler runs: 0, program runs: 0, from cache: 1
0 passed, 1 failed

"#]]);
}

#[test]
fn an_unknown_chapter_is_an_error_listing_the_chapters() {
    titled_book().run(&["check", "--chapter", "The third"], |cmd| {
        cmd.expect_code(1)
            .expect_stdout(str![""])
            .expect_stderr(str![[r#"
mdbook-companion: error: --chapter "The third": no chapter has this title or path; expected one of the book's chapters:
  The first (src/one.md)
  The second (src/two/deep.md)

"#]]);
    });
}

#[test]
fn a_path_crate_with_a_registry_dependency_builds_with_a_fresh_cargo_home() {
    // The one test that may use the network: a fresh `CARGO_HOME` has no
    // registry cache, so `--offline` lacks `itoa` and Cargo must go
    // online, although the only declared crate is a path crate.
    let book = BookTest::new()
        .chapter(
            "a.md",
            "# A\n\n```rust\nassert_eq!(helper::show(7), \"7\");\n```\n",
        )
        .toml("[preprocessor.companion.dependencies]\nhelper = { path = \"helper\" }\n")
        .file(
            "helper/Cargo.toml",
            "[package]\nname = \"helper\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nitoa = \"1\"\n",
        )
        .file(
            "helper/src/lib.rs",
            "pub fn show(n: u32) -> String {\n    itoa::Buffer::new().format(n).to_owned()\n}\n",
        );
    let home = tempfile::tempdir().expect("tempdir");
    let ran = book.run(&["check", "--format", "json"], |cmd| {
        cmd.env("CARGO_HOME", home.path()).expect_any_status();
    });
    let json = ran.json();
    if ran.code == 0 {
        assert_eq!(
            statuses(&json),
            [("src/a.md".to_owned(), "passed".to_owned())]
        );
        // Offline first, then (once `cargo fetch` got the packages)
        // offline again, in the box.
        assert_eq!(json["dependency_builds"], 2, "{json:#}");
        return;
    }
    // No registry: check must say the network is unreachable, and the
    // test fails loudly: the online build is what it proves, and it was
    // not proven here (the one test allowed to reach the registry).
    let said = json.to_string();
    assert!(
        said.contains("the network is unreachable"),
        "the build failed for another reason than the network: {json:#}"
    );
    panic!(
        "NOT PROVEN: the registry (crates.io) cannot be reached from this machine; \
         `check` said so as it should, but the online build of a path crate's \
         registry dependency needs the network to be proven"
    );
}

#[test]
fn output_unordered_takes_the_lines_in_any_order() {
    let program = "```rust example title=\"THREADS\"\nfor line in [\"c\", \"a\", \"b\"] {\n    println!(\"{line}\");\n}\n```\n\n```output OUTPUT\na\nb\nc\n```\n";
    let book = BookTest::new()
        .chapter(
            "any.md",
            &program
                .replace("THREADS", "any order")
                .replace("OUTPUT", "output unordered"),
        )
        .chapter(
            "strict.md",
            &program
                .replace("THREADS", "in order")
                .replace("OUTPUT", "output"),
        );
    // The same output on both runs: an ordinary difference. (The two
    // programs are one: which run is cached varies.)
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/any.md:1: rust example "any order" (expect=run)
FAILED  src/strict.md:1: rust example "in order" (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1,3 +1,3 @@
    +c
     a
     b
    -c
compiler runs: [..], program runs: [..], from cache: [..]
1 passed, 1 failed

"#]]);
    });
}

#[test]
fn output_that_varies_between_runs_is_run_twice_and_said() {
    // Outside a box: in one, every program is pid 2.
    let book = BookTest::new().companion("isolation = \"off\"").chapter(
        "pid.md",
        "```rust example title=\"pid\"\nprintln!(\"pid {}\", std::process::id());\n```\n\n```output\npid 1\n```\n",
    );
    // Both runs shown, each with its own process id.
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/pid.md:1: rust example "pid" (expect=run): the output varies between runs (it was run twice); write the lines that come in any order as ```output unordered, a varying span as [..]
    --- expected
    +++ actual
    @@ -1 +1 @@
    -pid 1
    +pid [..]
    | first run:
    | pid [..]
    | 
    | second run:
    | pid [..]
note: the book's programs ran without a box (`isolation = "off"` in book.toml): they could reach the checker, each other and the book
compiler runs: 2, program runs: 2, from cache: 0
0 passed, 1 failed

"#]]);
    });
    // Warm: both runs come from the cache.
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/pid.md:1: rust example "pid" (expect=run): the output varies between runs (it was run twice); write the lines that come in any order as ```output unordered, a varying span as [..]
    --- expected
    +++ actual
    @@ -1 +1 @@
    -pid 1
    +pid [..]
    | first run:
    | pid [..]
    | 
    | second run:
    | pid [..]
note: the book's programs ran without a box (`isolation = "off"` in book.toml): they could reach the checker, each other and the book
compiler runs: 0, program runs: 0, from cache: 1
0 passed, 1 failed

"#]]);
    });
}

#[test]
fn edition_2015_blocks_are_merged_unless_a_module_would_change_their_paths() {
    // No `[rust] edition`: `mdbook test` gives rustdoc 2015.
    let mut book = BookTest::new();
    for i in 0..6 {
        book = book.chapter(
            &format!("c{i}.md"),
            &format!("# C{i}\n\n```rust\nlet v = vec![{i}];\nassert_eq!(v.len(), 1);\nprintln!(\"{{}}\", std::cmp::max(v[0], {i}));\n```\n"),
        );
    }
    book = book
        .chapter(
            "uses.md",
            "# Uses\n\n```rust\nmod m { pub fn f() -> u8 { 2 } }\nuse m::f;\nfn main() { assert_eq!(f(), 2); }\n```\n",
        )
        .chapter(
            "fails.md",
            "# Fails\n\n```rust\nlet x: u8 = 1;\nassert_eq!(x, 2);\n```\n",
        );
    book.write();
    let (merged, code) = check_json(&book, &[]);
    assert_eq!(code, 1, "{merged:#}");
    let want: Vec<(String, String)> = (0..6)
        .map(|i| (format!("src/c{i}.md"), "passed".to_owned()))
        .chain([
            ("src/uses.md".to_owned(), "passed".to_owned()),
            ("src/fails.md".to_owned(), "failed".to_owned()),
        ])
        .collect();
    assert_eq!(statuses(&merged), want);
    // Seven mergeable blocks in one or two builds (one per worker), and
    // the block with `use` alone.
    let runs = merged["compiler_runs"].as_u64().unwrap_or(99);
    assert!(runs <= 3, "{merged:#}");
    std::fs::remove_dir_all(book.root().join(".companion-cache")).expect("rm cache");
    let (alone, _) = check_json(&book, &["--no-merge"]);
    assert_eq!(statuses(&alone), want);
    assert_eq!(alone["compiler_runs"], 8, "{alone:#}");
}

/// Plain blocks link without debug information (`-C strip=debuginfo`):
/// their verdict is their exit status, which the standard library's line
/// tables in the program do not change, and linking them is most of a
/// link against a crate built with full debug information. The first
/// block fails if its own program holds line tables, merged with the
/// second or alone.
#[test]
fn plain_blocks_link_without_debug_information() {
    // The program's ELF section names, read from its section headers.
    let block = r#"```rust
let me = std::fs::read(std::env::current_exe().unwrap()).unwrap();
let u = |at: usize, n: usize| me[at..at + n].iter().rev().fold(0usize, |a, b| a << 8 | *b as usize);
let (table, size, count, names) = (u(0x28, 8), u(0x3a, 2), u(0x3c, 2), u(0x3e, 2));
let header = |i: usize| table + i * size;
let strings = u(header(names) + 0x18, 8);
let sections: Vec<String> = (0..count)
    .map(|i| {
        let at = strings + u(header(i), 4);
        let end = me[at..].iter().position(|b| *b == 0).unwrap();
        String::from_utf8_lossy(&me[at..at + end]).into_owned()
    })
    .collect();
assert!(sections.iter().any(|s| s == ".text"), "{sections:?}");
assert!(!sections.iter().any(|s| s == ".debug_line"), "line tables linked: {sections:?}");
```

```rust
println!("beside");
```
"#;
    let book = BookTest::new().chapter("strip.md", block);
    book.write();
    for args in [&[][..], &["--no-merge"][..]] {
        let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
        let (json, code) = check_json(&book, args);
        assert_eq!(
            (code, json["summary"].as_str()),
            (0, Some("2 passed, 0 failed")),
            "{args:?} {json:#}"
        );
    }
}

/// `COMPANION_COMPARE_MERGED=FILE` compiles every failing plain block of
/// a merged build alone as well and records both reports, a JSON object
/// a line: the engine names each block as `check` knows it, its chapter
/// and line (it never knows them itself; `check` names the claims it
/// numbered), the very place the report gives the block.
#[test]
fn the_merged_against_alone_record_names_each_block_by_its_chapter_and_line() {
    let chapter = "# Plain\n\n```rust\nlet x: i32 = \"one\";\n```\n\n```rust\nprintln!(\"fine\");\n```\n\nText.\n\n```rust\nlet y: u8 = vec![1];\n```\n";
    let book = BookTest::new()
        .toml("[rust]\nedition = \"2021\"\n")
        .chapter("plain.md", chapter);
    book.write();
    let record = book.root().join("compared.jsonl");
    let root = book.root().to_str().expect("a UTF-8 path");
    let ran = book.run(&["check", root, "--format", "json"], |cmd| {
        cmd.env("COMPANION_COMPARE_MERGED", &record)
            .expect_any_status();
    });
    let report: Value = serde_json::from_str(&ran.stdout).expect("the JSON report");
    let mut failed: Vec<String> = (report["results"].as_array().expect("results").iter())
        .filter(|r| r["status"] == "failed")
        .map(|r| format!("{}:{}", r["file"].as_str().unwrap_or_default(), r["line"]))
        .collect();
    // The fences of the two failing blocks.
    let fence = |code: &str| format!("src/plain.md:{}", super::line_of(chapter, code) - 1);
    assert_eq!(failed, [fence("let x"), fence("let y")], "{report:#}");
    let text = std::fs::read_to_string(&record).expect("the record");
    let mut named: Vec<String> = (text.lines())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("a JSON line");
            assert_eq!(v["same"], true, "{v:#}");
            v["claim"].as_str().unwrap_or_default().to_owned()
        })
        .collect();
    named.sort();
    failed.sort();
    assert_eq!(named, failed, "{text}");
}
