//! The README's and the guide's examples are true. Every ````markdown
//! block of the README or of a guide page that shows a directive is a
//! chapter of a book on which `check` passes and which builds (the guide
//! itself with those blocks added as chapters runs Memcheck: it is
//! checked in the Valgrind target, `tests/valgrind/guide.rs`); and the
//! guide's configuration reference names exactly the keys the code
//! accepts.

use crate::shown::{check_passes, copy_book, guide, shown};
use crate::support::{BIN, BookTest};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

#[test]
fn every_example_in_the_readme_holds() {
    let readme = include_str!("../../README.md");
    let (examples, stray) = shown(readme, Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(
        stray.is_empty(),
        "directives outside ````markdown: {stray:?}"
    );
    assert!(
        examples.len() >= 2,
        "found {} README examples",
        examples.len()
    );
    let mut book = BookTest::new();
    for (i, body) in examples.iter().enumerate() {
        book = book.chapter(&format!("readme-{i}.md"), body);
    }
    book.write();
    let report = check_passes(book.root());
    assert!(report["passed"].as_u64() >= Some(3), "{report}");
    book.build().expect("the README's examples build");
}

#[test]
fn config_reference_lists_every_key() {
    let page = std::fs::read_to_string(guide().join("src/reference/configuration.md"))
        .expect("configuration.md");
    // The backticked names in the first column of every table row.
    let documented: BTreeSet<&str> = page
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| l.split('|').nth(1))
        .flat_map(|cell| cell.split('`').skip(1).step_by(2))
        .collect();
    // The table's keys, and those the directives' rows declare.
    let accepted: BTreeSet<&str> = mdbook_companion_core::config::keys()
        .into_iter()
        .chain(mdbook_companion_directives::keys().iter().map(|k| k.name()))
        .collect();
    assert!(accepted.len() >= 10, "{accepted:?}");
    assert_eq!(
        documented, accepted,
        "left: the guide's configuration reference; right: the keys the code accepts"
    );
    for default in [
        mdbook_companion_core::config::DEFAULT_PLAYGROUND,
        mdbook_companion_core::config::DEFAULT_COMPILER_EXPLORER,
        mdbook_companion_core::config::DEFAULT_RUST_COMPILER,
        mdbook_companion_core::config::DEFAULT_C_COMPILER,
        mdbook_companion_core::config::DEFAULT_CPP_COMPILER,
    ] {
        assert!(
            page.contains(&format!("`\"{default}\"`")),
            "the reference does not give the default {default:?}"
        );
    }
}

/// The getting-started page ends with the loop a newcomer runs after an
/// intended change: bless, commit, `--locked`. Its commands are run as
/// written (on a book whose example claims the wrong output) in a git
/// repository, and each succeeds; nothing is left uncommitted.
#[test]
fn the_getting_started_loop_runs_as_written() {
    let page = std::fs::read_to_string(guide().join("src/getting-started.md")).expect("page");
    let last = page
        .rfind("```sh\n")
        .expect("a shell block on the getting-started page");
    let body = &page[last + "```sh\n".len()..];
    let end = body.find("```\n").expect("the block closes");
    let (snippet, after) = (&body[..end], &body[end..]);
    assert!(
        !after.contains("\n## "),
        "the loop is the page's last section"
    );
    let lines: Vec<&str> = snippet.lines().collect();
    assert_eq!(lines.len(), 3, "{snippet}");
    assert!(lines[0].starts_with("mdbook-companion check --bless "));
    assert!(lines[1].starts_with("git "));
    assert!(lines[2].starts_with("mdbook-companion check --locked "));
    // A repository holding a book whose example claims the wrong output.
    let repo = tempfile::tempdir().expect("tempdir");
    let first = std::fs::read_to_string(guide().join("src/examples/first.md")).expect("first.md");
    let wrong = first.replace("attempt to divide by zero", "attempt to divide by one");
    assert_ne!(wrong, first);
    let book = BookTest::new().chapter("first.md", &wrong);
    book.write();
    let target = repo.path().join("path/to/book");
    std::fs::create_dir_all(&target).expect("mkdir");
    copy_book(book.root(), &target);
    let bin_dir = Path::new(BIN).parent().expect("the binary's folder");
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("PATH");
    let sh = |line: &str| {
        let out = Command::new("sh")
            .arg("-c")
            .arg(line)
            .current_dir(repo.path())
            .env("PATH", &path)
            .env("GIT_AUTHOR_NAME", "Author")
            .env("GIT_AUTHOR_EMAIL", "author@example.com")
            .env("GIT_COMMITTER_NAME", "Author")
            .env("GIT_COMMITTER_EMAIL", "author@example.com")
            .output()
            .expect("sh");
        (
            out.status.success(),
            format!(
                "{line}\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        )
    };
    let (ok, log) = sh(
        "git init -q . && printf '.companion-cache/\\n/path/to/book/book/\\n' > .gitignore && git add .gitignore && git commit -qm start",
    );
    assert!(ok, "{log}");
    // Before the loop, the book is wrong: --locked fails.
    let (ok, log) = sh(lines[2]);
    assert!(!ok, "{log}");
    for line in &lines {
        let (ok, log) = sh(line);
        assert!(ok, "{log}");
    }
    let blessed = std::fs::read_to_string(target.join("src/first.md")).expect("chapter");
    assert!(blessed.contains("attempt to divide by zero"), "{blessed}");
    let (ok, log) = sh("git status --porcelain");
    assert!(
        ok && log.lines().count() == 1,
        "nothing left uncommitted: {log}"
    );
}

/// `check -h`'s report formats, every one, are listed where the guide
/// gives `check`'s synopsis (check.md and the commands reference).
#[test]
fn guide_lists_every_check_format() {
    let help = Command::new(BIN)
        .args(["check", "-h"])
        .output()
        .expect("check -h");
    let help = String::from_utf8_lossy(&help.stdout);
    let values = help
        .split("[possible values: ")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .unwrap_or_else(|| panic!("no format values in {help}"));
    let formats: Vec<&str> = values.split(", ").collect();
    assert!(formats.len() >= 4, "{formats:?}");
    for (page, bar) in [("src/check.md", "|"), ("src/reference/commands.md", "\\|")] {
        let text = std::fs::read_to_string(guide().join(page)).expect(page);
        let want = format!("--format {}]", formats.join(bar));
        assert!(text.contains(&want), "{page} does not give {want}");
    }
}

/// The attributes (and their values) of each kind of block, as the
/// guide's tables list them: `| attribute | meaning |` tables stand for
/// the page's one kind of block, `| on | attribute | meaning |` tables
/// name the kinds in their first column.
type Listed =
    std::collections::BTreeMap<String, std::collections::BTreeMap<String, BTreeSet<String>>>;

fn listed_attributes(page: &str, every_rust_example: &Listed) -> Listed {
    let text = std::fs::read_to_string(guide().join("src").join(page)).expect("a guide page");
    let single = match page {
        "examples.md" => "rust example",
        "quizzes.md" => "quiz",
        "exercises.md" => "exercise",
        _ => "",
    };
    let kinds = |on: &str| -> Vec<&str> {
        let mut out = Vec::new();
        for word in on.split(',').map(str::trim) {
            out.extend(match (page, word) {
                (_, "block") => vec!["compare"],
                (_, "any side") => vec!["rust side", "c side", "program side"],
                ("comparisons.md", "`rust`") => vec!["rust side"],
                ("comparisons.md", "`python`" | "`go`" | "a declared language") => {
                    vec!["program side"]
                }
                ("comparisons.md", "`c`" | "`cpp`") => vec!["c side"],
                ("quizzes.md", "`rust`") => vec!["quiz's rust program"],
                ("quizzes.md", "`c`" | "`cpp`") => vec!["quiz's c program"],
                _ => panic!("{page}: a table row on {word:?}, which names no kind of block"),
            });
        }
        out.dedup();
        out
    };
    let ticked = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect()
    };
    let mut out = Listed::new();
    let mut on_column = None;
    for line in text.lines() {
        if !line.starts_with('|') {
            on_column = None;
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        match cells.as_slice() {
            ["attribute", "meaning"] => on_column = Some(false),
            ["on", "attribute", "meaning"] => on_column = Some(true),
            _ if cells[0].starts_with("---") => {}
            _ => {
                let Some(on) = on_column else { continue };
                let (blocks, cell) = match on {
                    true => (kinds(cells[0]), cells[1]),
                    false => (vec![single], cells[0]),
                };
                let mut attrs: Vec<(String, BTreeSet<String>)> = Vec::new();
                if cell.contains("every `rust example` attribute") {
                    for (name, values) in &every_rust_example["rust example"] {
                        if name != "at" {
                            attrs.push((name.clone(), values.clone()));
                        }
                    }
                }
                let mut pieces = cell.split("\\|");
                for token in ticked(pieces.next().unwrap_or_default()) {
                    let (name, value) = match token.split_once('=') {
                        Some((n, v)) => (n.to_owned(), Some(v.to_owned())),
                        None => (token, None),
                    };
                    // rustdoc's spellings of an edition and an error code.
                    let forms = ["edition20", "E0"];
                    if name == "rust example" || forms.iter().any(|f| name.starts_with(f)) {
                        continue;
                    }
                    attrs.push((name, value.into_iter().collect()));
                }
                // The value a row marks "(default)", kept as `default=WORD`.
                let default = cell
                    .split("\\|")
                    .find(|piece| piece.contains("` (default)"))
                    .and_then(|piece| ticked(piece).pop())
                    .map(|w| format!("default={}", w.rsplit('=').next().unwrap_or_default()));
                if let Some((_, values)) = attrs.last_mut() {
                    for piece in pieces {
                        values.extend(ticked(piece));
                    }
                    values.extend(default);
                }
                for block in blocks {
                    for (name, values) in &attrs {
                        let words = values
                            .iter()
                            .filter(|v| !v.contains(['"', ',', '…']) && v.as_str() != "N");
                        (out.entry(block.to_owned()).or_default())
                            .entry(name.clone())
                            .or_default()
                            .extend(words.cloned());
                    }
                }
            }
        }
    }
    out
}

/// The guide's attribute tables list every attribute of every kind of
/// block that the parsers take (their one declaration,
/// `directives::attributes`), and no other; a value they show is one the
/// attribute takes, an attribute shown with its alternatives shows all of
/// them, and the value a row marks "(default)" is the declared default.
#[test]
fn the_guide_lists_every_attribute_of_every_block() {
    use mdbook_companion_directives::attributes::KINDS;
    let examples = listed_attributes("examples.md", &Listed::new());
    let mut guide = Listed::new();
    for page in [
        "examples.md",
        "comparisons.md",
        "quizzes.md",
        "exercises.md",
    ] {
        guide.extend(listed_attributes(page, &examples));
    }
    let mut faults = Vec::new();
    for kind in KINDS {
        let Some(listed) = guide.get(kind.name) else {
            faults.push(format!(
                "{}: no table lists the {}'s attributes",
                kind.page, kind.name
            ));
            continue;
        };
        let ours: BTreeSet<&str> = kind.attributes.iter().map(|a| a.name).collect();
        let theirs: BTreeSet<&str> = listed.keys().map(String::as_str).collect();
        for name in ours.difference(&theirs) {
            faults.push(format!(
                "{}: the {} takes `{name}`, not in its table",
                kind.page, kind.name
            ));
        }
        for name in theirs.difference(&ours) {
            faults.push(format!(
                "{}: the table lists `{name}` on the {}, which does not take it",
                kind.page, kind.name
            ));
        }
        for a in kind.attributes.iter() {
            let Some(shown) = listed.get(a.name) else {
                continue;
            };
            let marked: Option<&str> = shown.iter().find_map(|v| v.strip_prefix("default="));
            let shown: BTreeSet<String> = (shown.iter())
                .filter(|v| !v.starts_with("default="))
                .cloned()
                .collect();
            let alternatives = shown.len() > 1;
            if marked.is_some() && marked != a.default {
                faults.push(format!(
                    "{}: the table marks `{}={}` the {}'s default; its default is {:?}",
                    kind.page,
                    a.name,
                    marked.unwrap_or_default(),
                    kind.name,
                    a.default
                ));
            }
            if alternatives && a.default.is_some() && marked.is_none() {
                faults.push(format!(
                    "{}: the {}'s `{}` defaults to {:?}; its table does not mark it",
                    kind.page, kind.name, a.name, a.default
                ));
            }
            let takes: BTreeSet<String> = a.value.words().into_iter().collect();
            if takes.is_empty() {
                continue;
            }
            let wrong: Vec<_> = shown.difference(&takes).collect();
            if !wrong.is_empty() || (alternatives && shown != takes) {
                faults.push(format!(
                    "{}: the {}'s `{}` takes {:?}; the table shows {:?}",
                    kind.page, kind.name, a.name, takes, shown
                ));
            }
        }
    }
    assert_eq!(faults, Vec::<String>::new());
}
