//! `check` as a drop-in for `mdbook test`: its options (`-L` /
//! `--library-path` with a support crate built by real Cargo, `-c` /
//! `--chapter`) and their errors.

use super::{check, check_json};
use crate::support::BookTest;
use pretty_assertions::assert_eq;
use serde_json::Value;
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
    book.write();
    let support = tempfile::tempdir().expect("tempdir");
    let deps = support_crate_built_twice(support.path());
    let deps = deps.to_string_lossy().into_owned();
    // Without the directory the crate is not found.
    let (without, code) = check_json(&book, &[]);
    assert_eq!(code, 1, "{without:#}");
    // With it, each block gets the newest of the two builds (rustdoc,
    // given both, stops at E0464).
    let (with, code) = check_json(&book, &["-L", &deps]);
    assert_eq!(code, 0, "{with:#}");
    assert_eq!(
        statuses(&with),
        [("src/uses.md", "passed"), ("src/old.md", "passed")]
            .map(|(f, s)| (f.to_owned(), s.to_owned()))
    );
    // Warm: no compiler start.
    let (warm, code) = check_json(&book, &["--library-path", &deps]);
    assert_eq!(code, 0, "{warm:#}");
    assert_eq!(warm["compiler_runs"], 0, "{warm:#}");
    // Comma-separated and repeated directories (one of them holding no
    // crate) mean the same.
    let empty = tempfile::tempdir().expect("tempdir");
    let empty = empty.path().to_string_lossy().into_owned();
    let (listed, code) = check_json(&book, &["-L", &format!("{empty},{deps}"), "-L", &empty]);
    assert_eq!(code, 0, "{listed:#}");
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
    let (rebuilt, code) = check_json(&book, &["-L", &deps]);
    assert_eq!(code, 1, "{rebuilt:#}");
    assert_eq!(
        statuses(&rebuilt),
        [("src/uses.md", "failed"), ("src/old.md", "failed")]
            .map(|(f, s)| (f.to_owned(), s.to_owned()))
    );
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
    let book = support_book();
    book.write();
    let (stdout, stderr, code) = check(&book, &["-L", "/nonexistent/deps"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stderr.contains("--library-path /nonexistent/deps: ")
            && stderr.contains("expected a directory of compiled crates"),
        "{stderr}"
    );
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
    let (all, code) = check_json(&book, &[]);
    assert_eq!(code, 1, "{all:#}");
    assert_eq!(statuses(&all).len(), 2);
    let one = [("src/one.md".to_owned(), "passed".to_owned())];
    for args in [
        &["-c", "The first"][..],
        &["--chapter", "one.md"][..],
        &["--chapter", "src/one.md"][..],
    ] {
        let (only, code) = check_json(&book, args);
        assert_eq!(code, 0, "{args:?}: {only:#}");
        assert_eq!(statuses(&only), one, "{args:?}");
    }
    let (second, code) = check_json(&book, &["-c", "two/deep.md"]);
    assert_eq!(code, 1);
    assert_eq!(
        statuses(&second),
        [("src/two/deep.md".to_owned(), "failed".to_owned())]
    );
}

#[test]
fn an_unknown_chapter_is_an_error_listing_the_chapters() {
    let book = titled_book();
    let (stdout, stderr, code) = check(&book, &["--chapter", "The third"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("--chapter \"The third\": no chapter has this title or path; expected one of the book's chapters:\n  The first (src/one.md)\n  The second (src/two/deep.md)"),
        "{stderr}"
    );
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
    book.write();
    let home = tempfile::tempdir().expect("tempdir");
    let out = Command::new(crate::support::BIN)
        .arg("check")
        .arg(book.root())
        .args(["--format", "json"])
        .env("CARGO_HOME", home.path())
        .output()
        .expect("run check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "json: {e}\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    if out.status.success() {
        assert_eq!(
            statuses(&json),
            [("src/a.md".to_owned(), "passed".to_owned())]
        );
        // Offline first, then online.
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
    book.write();
    let (json, code) = check_json(&book, &[]);
    assert_eq!(code, 1, "{json:#}");
    assert_eq!(
        statuses(&json),
        [("src/any.md", "passed"), ("src/strict.md", "failed")]
            .map(|(f, s)| (f.to_owned(), s.to_owned()))
    );
    // The same output on both runs: an ordinary difference.
    assert_eq!(
        json["results"][1]["message"], "the output differs from the output block",
        "{json:#}"
    );
}

#[test]
fn output_that_varies_between_runs_is_run_twice_and_said() {
    let book = BookTest::new().chapter(
        "pid.md",
        "```rust example title=\"pid\"\nprintln!(\"pid {}\", std::process::id());\n```\n\n```output\npid 1\n```\n",
    );
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("FAILED  src/pid.md:1: rust example \"pid\" (expect=run): the output varies between runs (it was run twice)"),
        "{stdout}"
    );
    let first = stdout
        .find("| first run:\n    | pid ")
        .unwrap_or_else(|| panic!("the first run shown: {stdout}"));
    let second = stdout
        .find("| second run:\n    | pid ")
        .unwrap_or_else(|| panic!("the second run shown: {stdout}"));
    assert!(first < second, "{stdout}");
    // Warm: both runs come from the cache.
    let (warm, code) = check_json(&book, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        (
            warm["compiler_runs"].as_u64(),
            warm["program_runs"].as_u64()
        ),
        (Some(0), Some(0)),
        "{warm:#}"
    );
    let message = warm["results"][0]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("the output varies between runs"),
        "{warm:#}"
    );
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
