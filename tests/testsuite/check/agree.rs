//! `companion.lock` agrees with the book: `--bless` locks the blessed
//! book, `--locked` compares every recorded fact and tells one line per
//! block, and builds say when the lock does not vouch for their pages.

use super::*;
use pretty_assertions::assert_eq;

/// A program that prints three lines under a block that claims one, and
/// a block after it whose line moves when the first is blessed.
const TWO: &str = include_str!("two/src/two.md");

fn lock_text(book: &BookTest) -> String {
    std::fs::read_to_string(book.root().join("companion.lock")).expect("companion.lock")
}

/// The `--locked` failure lines of a report.
fn locked_failures(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| l.starts_with("FAILED  --locked"))
        .collect()
}

/// Runs `mdbook-companion build` (real mdBook, the preprocessor
/// in-process) with no compiler on PATH; its lines about the lock.
fn build_lock_warnings(book: &BookTest) -> Vec<String> {
    let empty = tempfile::tempdir().expect("tempdir");
    let stderr = book
        .run(&["build"], |cmd| {
            cmd.arg(book.root()).env("PATH", empty.path());
        })
        .stderr;
    assert!(!stderr.contains("could not be run"), "{stderr}");
    stderr
        .lines()
        .filter(|l| l.contains("companion.lock"))
        .map(|l| l.trim_start_matches(" WARN ").to_owned())
        .collect()
}

#[test]
fn bless_then_locked_passes_and_the_lock_is_the_blessed_books() {
    let book = BookTest::from_dir("check/two");
    book.run(&["check"], |cmd| {
        cmd.expect_code(1);
    });
    book.run(&["check", "--bless"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/two.md:3: rust example "hi" (expect=run)
ok      src/two.md:13: rust example "later" (expect=run)
bless: src/two.md:3: blessed the output block
compiler runs: 0, program runs: 0, from cache: 2
2 passed, 0 failed

"#]]);
    });
    let blessed = std::fs::read_to_string(book.root().join("src/two.md")).unwrap();
    assert!(blessed.contains("```output\na\nb\nc\n```"), "{blessed}");
    // The lock --bless wrote is the one a check of the blessed book writes.
    let after_bless = lock_text(&book);
    let lock: toml::Value = toml::from_str(&after_bless).unwrap();
    let places: Vec<(i64, &str)> = lock["block"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["line"].as_integer().unwrap(), b["what"].as_str().unwrap()))
        .collect();
    assert_eq!(
        places,
        [
            (
                line_of(&blessed, "title=\"hi\"") as i64,
                "rust example \"hi\""
            ),
            (
                line_of(&blessed, "title=\"later\"") as i64,
                "rust example \"later\""
            ),
        ],
        "no entry of the text before blessing, the later block at its new line"
    );
    let stdout = book.run(&["check", "--locked"], |_| {}).stdout;
    assert_eq!(locked_failures(&stdout), Vec::<&str>::new());
    book.run(&["check"], |_| {});
    assert_eq!(lock_text(&book), after_bless);
}

#[test]
fn locked_tells_one_line_per_block_with_what_to_do() {
    let book = BookTest::new().chapter("two.md", &TWO.replace("bye", "a\nb\nc"));
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    let chapter = book.root().join("src/two.md");
    let text = std::fs::read_to_string(&chapter).unwrap();
    // The later block changed; a new one after it.
    let edited = text
        .replace("println!(\"x\")", "println!(\"y\")")
        .replace("\nx\n", "\ny\n")
        + "\n```rust example title=\"new\"\nfn main() {}\n```\n";
    std::fs::write(&chapter, &edited).unwrap();
    book.run(&["check", "--locked"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/two.md:3: rust example "hi" (expect=run)
ok      src/two.md:13: rust example "later" (expect=run)
ok      src/two.md:21: rust example "new" (expect=run)
FAILED  --locked: src/two.md:13: rust example "later": hash: its code, what it claims or how this version of mdbook-companion builds it changed since companion.lock was written (it printed "x\n" then, "y\n" now); run `mdbook-companion check` and commit companion.lock
FAILED  --locked: src/two.md:21: rust example "new" has no entry in companion.lock (a new block); run `mdbook-companion check` and commit companion.lock
compiler runs: 1, program runs: 2, from cache: 1
3 passed, 0 failed; 2 lock entries differ

"#]]);
    });
    // A block gone: its entry is stale.
    std::fs::write(&chapter, &text).unwrap();
    check(&book, &[]);
    let first = text.find("```rust example title=\"later\"").unwrap();
    std::fs::write(&chapter, &text[..first]).unwrap();
    book.run(&["check", "--locked"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/two.md:3: rust example "hi" (expect=run)
FAILED  --locked: companion.lock holds a stale entry for src/two.md:13: rust example "later" (no such block there: changed, moved or gone); run `mdbook-companion check` and commit companion.lock
compiler runs: 0, program runs: 0, from cache: 1
1 passed, 0 failed; 1 lock entry differs

"#]]);
    });
}

#[test]
fn a_forged_run_or_a_copied_entry_fails_locked_naming_the_block() {
    let book = BookTest::new().chapter("two.md", &TWO.replace("bye", "a\nb\nc"));
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    let honest = lock_text(&book);
    let forged = honest.replacen(
        "stdout = \"\"\"\na\nb\nc\n\"\"\"",
        "stdout = \"\"\"\nFORGED\n\"\"\"",
        1,
    );
    assert_ne!(forged, honest, "the run is in the lock: {honest}");
    std::fs::write(book.root().join("companion.lock"), &forged).unwrap();
    std::fs::remove_dir_all(book.root().join(".companion-cache")).unwrap();
    book.run(&["check", "--locked"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/two.md:3: rust example "hi" (expect=run)
ok      src/two.md:13: rust example "later" (expect=run)
FAILED  --locked: src/two.md:3: rust example "hi": run.stdout line 1: "FORGED\n" in companion.lock, "a\n" now; run `mdbook-companion check` and commit companion.lock
    | --- run.stdout in companion.lock
    | +++ run.stdout now
    | @@ -1 +1,3 @@
    | -FORGED
    | +a
    | +b
    | +c
compiler runs: 1, program runs: 2, from cache: 0
2 passed, 0 failed; 1 lock entry differs

"#]]);
    });
    let hi = line_of(TWO, "title=\"hi\"");
    assert_eq!(lock_text(&book), forged, "--locked leaves the lock alone");
    // An honest entry copied to a line where no block is: stale.
    let start = honest.find("[[block]]").unwrap();
    let end = honest[start + 1..].find("[[block]]").unwrap() + start + 1;
    let copy = honest[start..end].replace(&format!("line = {hi}\n"), "line = 40\n");
    assert!(copy.contains("line = 40"), "{copy}");
    std::fs::write(
        book.root().join("companion.lock"),
        format!("{honest}\n{copy}"),
    )
    .unwrap();
    book.run(&["check", "--locked"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/two.md:3: rust example "hi" (expect=run)
ok      src/two.md:13: rust example "later" (expect=run)
FAILED  --locked: companion.lock holds a stale entry for src/two.md:40: rust example "hi" (no such block there: changed, moved or gone); run `mdbook-companion check` and commit companion.lock
compiler runs: 0, program runs: 0, from cache: 2
2 passed, 0 failed; 1 lock entry differs

"#]]);
    });
}

#[test]
fn locked_names_the_block_of_a_changed_assembly_panel() {
    let chapter = "# Asm\n\n```rust example title=\"twice\" asm\npub fn twice(x: u32) -> u32 { x * 2 }\nfn main() { println!(\"{}\", twice(21)); }\n```\n\n```output\n42\n```\n";
    let book = BookTest::new().chapter("asm.md", chapter);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    let honest = lock_text(&book);
    let lock: toml::Value = toml::from_str(&honest).unwrap();
    let listing = lock["assembly"][0]["listing"].as_str().unwrap().to_owned();
    let first = listing.lines().next().unwrap().to_owned();
    let forged = honest.replacen(&first, "forged:", 1);
    std::fs::write(book.root().join("companion.lock"), &forged).unwrap();
    // The listing's first line, as the lock held it, is named.
    let stdout = book
        .run(&["check", "--locked"], |cmd| {
            cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/asm.md:3: rust example "twice" (expect=run)
FAILED  --locked: src/asm.md:3: rust example "twice": assembly.listing line 1: "forged:\n" in companion.lock, "twice:\n" now; run `mdbook-companion check` and commit companion.lock
    | --- assembly.listing in companion.lock
    | +++ assembly.listing now
    | @@ [..] @@
    | -forged:
    | +twice:
...
compiler runs: 0, program runs: 0, from cache: 1
1 passed, 0 failed; 1 lock entry differs

"#]]);
        })
        .stdout;
    assert!(
        stdout.contains(&format!("{:?} now", format!("{first}\n"))),
        "{stdout}"
    );
}

#[test]
fn a_build_warns_once_when_the_lock_records_a_failure_or_is_stale() {
    let book = BookTest::new()
        .companion("on-failure = \"continue\"")
        .chapter("two.md", TWO);
    book.write();
    // No lock: nothing to say.
    assert_eq!(build_lock_warnings(&book), Vec::<String>::new());
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    let hi = line_of(TWO, "title=\"hi\"");
    let failed = vec![format!(
        "companion.lock records 1 failed claim (the first: src/two.md:{hi}: rust example \"hi\"); run `mdbook-companion check` for the details"
    )];
    assert_eq!(build_lock_warnings(&book), failed);
    // Again, with the chapter remembered from the first build.
    assert_eq!(build_lock_warnings(&book), failed);
    // Both blocks edited: the lock is stale for them.
    let chapter = book.root().join("src/two.md");
    std::fs::write(
        &chapter,
        TWO.replace("fn main() {", "fn main() { let _ = 1;"),
    )
    .unwrap();
    assert_eq!(
        build_lock_warnings(&book),
        [format!(
            "companion.lock is stale: 2 blocks have no entry in it (the first: src/two.md:{hi}: rust example \"hi\"); run `mdbook-companion check` and commit companion.lock"
        )]
    );
    // Checked and passing: silent.
    std::fs::write(&chapter, TWO.replace("bye", "a\nb\nc")).unwrap();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(build_lock_warnings(&book), Vec::<String>::new());
}

#[test]
fn the_preprocessor_warns_about_a_failed_claim_in_the_lock() {
    let book = BookTest::new()
        .companion("on-failure = \"continue\"")
        .chapter("two.md", TWO);
    book.write();
    check(&book, &[]);
    let input = serde_json::json!([
        {"root": book.root(), "renderer": "html", "mdbook_version": "0.5.4",
         "config": {"book": {"title": "x", "src": "src"}, "preprocessor": {"companion": {"after": ["links"], "on-failure": "continue"}}}},
        {"items": [{"Chapter": {"name": "Two", "content": TWO, "number": [1], "sub_items": [],
            "path": "two.md", "source_path": "two.md", "parent_names": []}}]}
    ]);
    let out = BookTest::run_bin(&[], input.to_string().as_bytes());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let told: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("companion.lock"))
        .collect();
    assert_eq!(told.len(), 1, "{stderr}");
    assert!(
        told[0].contains(
            "companion.lock records 1 failed claim (the first: src/two.md:3: rust example \"hi\")"
        ),
        "{stderr}"
    );
}

#[test]
fn a_conflicted_or_garbage_lock_is_named_with_line_and_column() {
    let book = BookTest::new().chapter("two.md", &TWO.replace("bye", "a\nb\nc"));
    book.write();
    check(&book, &[]);
    let honest = lock_text(&book);
    let conflicted =
        honest.replacen("[[block]]", "<<<<<<< HEAD\n[[block]]", 1) + "=======\n>>>>>>> theirs\n";
    let marker = line_of(&conflicted, "<<<<<<<");
    std::fs::write(book.root().join("companion.lock"), &conflicted).unwrap();
    let lock = book.root().join("companion.lock");
    let hi = line_of(TWO, "title=\"hi\"");
    assert_eq!(
        build_lock_warnings(&book),
        [format!(
            "{}:{marker}:1: found a merge conflict marker; expected a lock whose conflict is resolved; it is not used, so the verdicts and recorded runs of 2 blocks are not shown from it (the first: src/two.md:{hi}: rust example \"hi\"); run `mdbook-companion check` to rewrite it",
            lock.display()
        )]
    );
    let (stdout, _, code) = check(&book, &["--locked"]);
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(
        locked_failures(&stdout),
        [format!(
            "FAILED  --locked: {}:{marker}:1: found a merge conflict marker; expected a lock whose conflict is resolved; run `mdbook-companion check` to rewrite it",
            lock.display()
        )]
    );
    // Garbage: the TOML parser's place.
    std::fs::write(
        &lock,
        "version = 1\n[[block]]\nchapter = \"src/two.md\"\nline = \"x\"\n",
    )
    .unwrap();
    let (stdout, _, _) = check(&book, &["--locked"]);
    assert_eq!(
        locked_failures(&stdout),
        [format!(
            "FAILED  --locked: {}:4:8: invalid type: string \"x\", expected usize; run `mdbook-companion check` to rewrite it",
            lock.display()
        )]
    );
}

#[test]
fn a_recorded_run_that_differs_only_where_the_claim_allows_passes_locked() {
    let chapter = "# Where\n\n```rust example title=\"where\"\nfn main() { let v = vec![1]; println!(\"at {:p}\", &v[0]); }\n```\n\n```output\nat [..]\n```\n";
    let book = BookTest::new().chapter("where.md", chapter);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    let honest = lock_text(&book);
    let start = honest
        .find("stdout = \"\"\"\nat ")
        .expect("the recorded run");
    let end = start + honest[start..].find("\n\"\"\"").unwrap();
    let with = |line: &str| {
        format!(
            "{}stdout = \"\"\"\n{line}{}",
            &honest[..start],
            &honest[end..]
        )
    };
    // Another address, as another run prints: the claim accepts it.
    std::fs::write(book.root().join("companion.lock"), with("at 0x1234")).unwrap();
    let (stdout, _, code) = check(&book, &["--locked"]);
    assert_eq!(code, 0, "{stdout}");
    // And `check` keeps it: the same book, the same lock.
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(lock_text(&book), with("at 0x1234"));
    // Text the claim does not accept: forged.
    std::fs::write(book.root().join("companion.lock"), with("FORGED")).unwrap();
    let (stdout, _, code) = check(&book, &["--locked"]);
    assert_eq!(code, 1, "{stdout}");
    let failures = locked_failures(&stdout);
    assert_eq!(failures.len(), 1, "{stdout}");
    assert!(
        failures[0].starts_with("FAILED  --locked: src/where.md:3: rust example \"where\": run.stdout: \"FORGED\\n\" in companion.lock, \"at 0x"),
        "{stdout}"
    );
    // `check` replaces a run the claim does not accept.
    check(&book, &[]);
    assert!(!lock_text(&book).contains("FORGED"));
}

/// A program that writes to both streams, and one that panics after
/// writing to stdout: each stream is a fact the page shows.
const STREAMS: &str = include_str!("streams/src/streams.md");

/// Checks `STREAMS`, sets `field` of the named block's recorded run to
/// `value` in the lock, and runs `check --locked` on a cold cache: its
/// `--locked` failures, and the forged lock's text.
fn forge_run(field: &str, title: &str, value: &str) -> (BookTest, Vec<String>, String) {
    let book = BookTest::new().chapter("streams.md", STREAMS);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    let honest = lock_text(&book);
    let mut doc: toml_edit::DocumentMut = honest.parse().expect("the lock is TOML");
    let blocks = doc["block"].as_array_of_tables_mut().expect("blocks");
    let what = format!("rust example \"{title}\"");
    let entry = blocks
        .iter_mut()
        .find(|b| b["what"].as_str() == Some(what.as_str()))
        .unwrap_or_else(|| panic!("no entry for {title}: {honest}"));
    let old = entry["run"][field]
        .as_str()
        .expect("a recorded stream")
        .to_owned();
    assert_ne!(old, value, "a forgery changes the field");
    entry["run"][field] = toml_edit::value(value);
    let forged = doc.to_string();
    std::fs::write(book.root().join("companion.lock"), &forged).expect("write the lock");
    std::fs::remove_dir_all(book.root().join(".companion-cache")).expect("a cache to remove");
    let (stdout, _, code) = check(&book, &["--locked"]);
    assert_eq!(code, 1, "{stdout}");
    let failures = locked_failures(&stdout)
        .into_iter()
        .map(str::to_owned)
        .collect();
    (book, failures, forged)
}

#[test]
fn a_forged_stderr_of_a_program_that_runs_fails_locked_on_a_cold_cache() {
    let (book, failures, forged) = forge_run("stderr", "streams", "FORGED\n");
    let at = line_of(STREAMS, "title=\"streams\"");
    assert_eq!(
        failures,
        [format!(
            "FAILED  --locked: src/streams.md:{at}: rust example \"streams\": run.stderr: \"FORGED\\n\" in companion.lock, \"err\\n\" now; run `mdbook-companion check` and commit companion.lock"
        )]
    );
    assert_eq!(lock_text(&book), forged, "--locked leaves the lock alone");
    // A plain check records what the program wrote, not the forgery.
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    assert!(!lock_text(&book).contains("FORGED"), "{}", lock_text(&book));
}

#[test]
fn a_forged_stdout_of_a_program_that_panics_fails_locked_on_a_cold_cache() {
    let (book, failures, _) = forge_run("stdout", "panics", "before\nFORGED\n");
    let at = line_of(STREAMS, "title=\"panics\"");
    assert_eq!(
        failures,
        [format!(
            "FAILED  --locked: src/streams.md:{at}: rust example \"panics\": run.stdout line 2: \"FORGED\\n\" in companion.lock, nothing now; run `mdbook-companion check` and commit companion.lock"
        )]
    );
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    assert!(!lock_text(&book).contains("FORGED"), "{}", lock_text(&book));
}

#[test]
fn a_panic_message_may_differ_only_where_its_output_block_says() {
    let chapter = "# Where\n\n```rust example title=\"where\" expect=panic\nfn main() { let v = vec![1]; panic!(\"at {:p}\", &v[0]); }\n```\n\n```output\nat [..]\n```\n";
    let book = BookTest::new().chapter("where.md", chapter);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    let honest = lock_text(&book);
    let doc: toml_edit::DocumentMut = honest.parse().unwrap();
    let stderr = doc["block"][0]["run"]["stderr"]
        .as_str()
        .unwrap()
        .to_owned();
    let address = stderr
        .lines()
        .find_map(|l| l.strip_prefix("at "))
        .unwrap_or_else(|| panic!("the panic message: {stderr:?}"))
        .to_owned();
    let locked_with = |stderr: &str| {
        let mut doc = doc.clone();
        doc["block"][0]["run"]["stderr"] = toml_edit::value(stderr);
        std::fs::write(book.root().join("companion.lock"), doc.to_string()).unwrap();
        std::fs::remove_dir_all(book.root().join(".companion-cache")).ok();
        let (stdout, _, code) = check(&book, &["--locked"]);
        (code, stdout)
    };
    // Another address, as another run prints: the claim accepts it.
    let (code, stdout) = locked_with(&stderr.replace(&address, "0x1234"));
    assert_eq!(code, 0, "{stdout}");
    // A line the output block says nothing of: forged.
    let (code, stdout) = locked_with(&format!("{stderr}FORGED\n"));
    assert_eq!(code, 1, "{stdout}");
    let failures = locked_failures(&stdout);
    assert_eq!(failures.len(), 1, "{stdout}");
    // Its first line that differs is told: here the address, which
    // another run prints otherwise.
    assert!(
        failures[0].starts_with(&format!(
            "FAILED  --locked: src/where.md:3: rust example \"where\": run.stderr line {}: \"at {address}\\n\" in companion.lock, \"at 0x",
            stderr.lines().position(|l| l.starts_with("at ")).unwrap() + 1
        )),
        "{stdout}"
    );
}
