//! The structure of the workspace, checked where Cargo cannot see it.
//!
//! The layers of `ARCHITECTURE.md` are crates, and the crate graph holds
//! them: `mdbook-companion-core` depends on no crate of ours, the engine
//! and the directives on core alone, `mdbook-companion` on all three
//! (`the_crate_graph_is_the_layering` keeps the graph what it should be).
//! What a crate graph cannot say is checked here from the source text:
//! inside `mdbook-companion`, the book layer never imports the commands;
//! no two source files of a crate import each other in a circle; no
//! directive's folder imports another's; a directive's folder is named
//! only by the directives crate; the core starts no process and writes no
//! file, the directives start no process; and no file grows past what one
//! idea needs.
//!
//! Imports are read from the source text: every `crate::`, `super::` and
//! `self::` path, every path that starts with a child module the file
//! declares, and every `use` tree (braces expanded). The rules hold for
//! test modules too (a test that reaches up is a test in the wrong place);
//! only the circle check leaves them out, as a test module importing its
//! own file's parent is no circle of the program.

use std::collections::{BTreeMap, BTreeSet};

/// The crates of the workspace, from the ground floor up: the folder of
/// each (its `src/` holds its modules) and the crates of ours it may use.
const CRATES: [(&str, &[&str]); 4] = [
    ("crates/core", &[]),
    ("crates/engine", &["mdbook-companion-core"]),
    ("crates/directives", &["mdbook-companion-core"]),
    (
        ".",
        &[
            "mdbook-companion-core",
            "mdbook-companion-engine",
            "mdbook-companion-directives",
        ],
    ),
];

/// The layers inside `mdbook-companion`, from the bottom up; its root
/// (`lib.rs`, `main.rs`, `cli.rs`) stands on top of both.
const LAYERS: [&str; 2] = ["book", "commands"];

/// Where the directives' folders live.
const DIRECTIVES: &str = "crates/directives/src/";

/// Lines of code (not blank, not a comment) a source file may have above
/// its tests.
const MAX_CODE_LINES: usize = 600;

/// Lines a test file may have.
const MAX_TEST_LINES: usize = 800;

/// How many library files may be over 600 lines counted whole.
const MAX_LONG_FILES: usize = 8;

mod sources;
use sources::{Source, root, rust_files, sources, sources_with_tests};

/// Comments and string literals blanked out, so that neither is read as
/// a path.
fn strip_comments_and_strings(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    for line in code.lines() {
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        let mut in_str = false;
        let mut prev = ' ';
        for c in line.chars() {
            if c == '"' && prev != '\\' {
                in_str = !in_str;
                out.push(' ');
            } else {
                out.push(if in_str { ' ' } else { c });
            }
            prev = c;
        }
        out.push('\n');
    }
    out
}

/// Expands a use tree (`a::{b, c::{d, e}}`) into its paths.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.split(" as ").next().unwrap_or(tree).trim().to_owned()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(expand)
        .map(|p| {
            if p == "self" {
                prefix.trim_end_matches("::").to_owned()
            } else {
                format!("{prefix}{p}")
            }
        })
        .collect()
}

/// Where a `use` tree starts in a statement whose text begins with
/// something else (a function's head and its opening brace): after a line
/// that starts with `use `.
fn inner_use(stmt: &str) -> Option<usize> {
    let mut at = 0;
    for line in stmt.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("use ") {
            return Some(at + line.len() - rest.len());
        }
        at += line.len();
    }
    None
}

/// Every path a file names that may lead to another file of the crate.
fn paths(code: &str, children: &BTreeSet<String>) -> Vec<String> {
    let code = strip_comments_and_strings(code);
    let mut out = Vec::new();
    for stmt in code.split(';') {
        let s = stmt.trim_start();
        let s = s
            .strip_prefix("pub(crate) ")
            .or_else(|| s.strip_prefix("pub(super) "))
            .or_else(|| s.strip_prefix("pub "))
            .unwrap_or(s);
        if let Some(tree) = s.strip_prefix("use ") {
            out.extend(expand(tree));
        } else if let Some(at) = s.find("\n").and_then(|_| inner_use(s)) {
            // A `use` inside a function body, after the braces before it.
            out.extend(expand(&s[at..]));
        }
    }
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        if is_ident(bytes[i]) && (i == 0 || !is_ident(bytes[i - 1]) && bytes[i - 1] != b':') {
            let mut j = i;
            while j < bytes.len() && (is_ident(bytes[j]) || bytes[j] == b':') {
                j += 1;
            }
            let path = &code[i..j];
            let first = path.split("::").next().unwrap_or("");
            if path.contains("::")
                && (["crate", "super", "self"].contains(&first) || children.contains(first))
            {
                out.push(path.trim_end_matches(':').to_owned());
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The child modules a file declares (`mod x;`, `pub mod x;`).
fn children(code: &str) -> BTreeSet<String> {
    code.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            l.strip_prefix("mod ")?.strip_suffix(';').map(str::to_owned)
        })
        .collect()
}

/// The import graph between files: file -> files it imports from.
fn graph(sources: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let by_module: BTreeMap<(&str, &[String]), &str> = sources
        .iter()
        .map(|s| ((s.krate, s.module.as_slice()), s.file.as_str()))
        .collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for s in sources {
        let kids = children(&s.code);
        let targets = edges.entry(s.file.clone()).or_default();
        for path in paths(&s.code, &kids) {
            let mut segs: Vec<&str> = path.split("::").filter(|x| !x.is_empty()).collect();
            let mut module: Vec<String> = match segs.first() {
                Some(&"crate") => {
                    segs.remove(0);
                    Vec::new()
                }
                Some(&"self") => {
                    segs.remove(0);
                    s.module.clone()
                }
                _ => s.module.clone(),
            };
            while segs.first() == Some(&"super") {
                segs.remove(0);
                module.pop();
            }
            // The longest module prefix that is a file of the crate.
            let mut best = by_module.get(&(s.krate, module.as_slice())).copied();
            for seg in segs {
                module.push(seg.to_owned());
                match by_module.get(&(s.krate, module.as_slice())) {
                    Some(f) => best = Some(f),
                    None => break,
                }
            }
            if let Some(f) = best
                && f != s.file
            {
                targets.insert(f.to_owned());
            }
        }
    }
    edges
}

/// The layer of a file of `mdbook-companion`: its index in [`LAYERS`],
/// the crate root above all.
fn layer(file: &str) -> usize {
    let top = file
        .strip_prefix("src/")
        .and_then(|r| r.split(['/', '.']).next())
        .unwrap_or("");
    LAYERS
        .iter()
        .position(|l| *l == top)
        .unwrap_or(LAYERS.len())
}

/// Strongly connected components of more than one file (Tarjan).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        next: usize,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(st: &mut State<'a>, v: &'a str) {
        st.index.insert(v, st.next);
        st.low.insert(v, st.next);
        st.next += 1;
        st.stack.push(v);
        st.on_stack.insert(v);
        for w in st.edges.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !st.index.contains_key(w) {
                visit(st, w);
                let lw = st.low[w];
                let lv = st.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if st.on_stack.contains(w) {
                let iw = st.index[w];
                let lv = st.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if st.low[v] == st.index[v] {
            let mut component = Vec::new();
            while let Some(w) = st.stack.pop() {
                st.on_stack.remove(w);
                component.push(w.to_owned());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                st.found.push(component);
            }
        }
    }
    let mut st = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !st.index.contains_key(v.as_str()) {
            visit(&mut st, v);
        }
    }
    st.found
}

/// The crates of ours a manifest's table lists.
fn ours(manifest: &toml::Table, table: &str) -> BTreeSet<String> {
    manifest
        .get(table)
        .and_then(toml::Value::as_table)
        .into_iter()
        .flat_map(|t| t.keys())
        .filter(|k| k.starts_with("mdbook-companion"))
        .cloned()
        .collect()
}

#[test]
fn the_crate_graph_is_the_layering() {
    // Cargo refuses an import of a crate a manifest does not list, so the
    // layers hold as long as each manifest lists what `CRATES` allows:
    // its dependencies, and its dev-dependencies (a test of a lower layer
    // that reaches up is a test in the wrong place).
    for (dir, allowed) in CRATES {
        let text = std::fs::read_to_string(root().join(dir).join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("{dir}/Cargo.toml: {e}"));
        let manifest: toml::Table = text.parse().expect("a manifest");
        let allowed: BTreeSet<String> = allowed.iter().map(|s| (*s).to_owned()).collect();
        for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
            let extra: Vec<_> = ours(&manifest, table)
                .difference(&allowed)
                .cloned()
                .collect();
            assert!(
                extra.is_empty(),
                "{dir}/Cargo.toml [{table}] lists {extra:?}"
            );
        }
        assert_eq!(ours(&manifest, "dependencies"), allowed, "{dir}/Cargo.toml");
    }
    // Every crate of the workspace is one of `CRATES`.
    let members: BTreeSet<String> = std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .map(|e| format!("crates/{}", e.expect("entry").file_name().to_string_lossy()))
        .collect();
    let known: BTreeSet<String> = CRATES[..3].iter().map(|(d, _)| (*d).to_owned()).collect();
    assert_eq!(members, known);
}

#[test]
fn layers_import_only_from_below() {
    let edges = graph(&sources_with_tests());
    let upward: Vec<String> = edges
        .iter()
        .filter(|(from, _)| from.starts_with("src/"))
        .flat_map(|(from, tos)| {
            tos.iter()
                .filter(|to| layer(to) > layer(from))
                .map(move |to| format!("{from} -> {to}"))
        })
        .collect();
    assert!(
        upward.is_empty(),
        "imports from a higher layer:\n{}",
        upward.join("\n")
    );
    // The reader sees the whole workspace: every crate and layer has
    // files and imports.
    for dir in CRATES.iter().map(|(d, _)| *d).filter(|d| *d != ".") {
        assert!(
            edges.keys().any(|f| f.starts_with(&format!("{dir}/src/"))),
            "no file in {dir}/src/"
        );
    }
    for l in LAYERS {
        assert!(
            edges.keys().any(|f| f.starts_with(&format!("src/{l}/"))),
            "no file in src/{l}/"
        );
    }
    assert!(
        edges.values().map(BTreeSet::len).sum::<usize>() > 50,
        "{edges:#?}"
    );
}

#[test]
fn no_import_circles_between_files() {
    let found = circles(&graph(&sources()));
    assert!(found.is_empty(), "import circles: {found:#?}");
}

#[test]
fn the_circle_finder_finds_circles() {
    // The check above cannot pass for want of seeing: a made-up circle
    // through `super` and a child module is found, and the same module
    // path in another crate is another file.
    let a = Source {
        file: "crates/engine/src/x/mod.rs".into(),
        krate: "crates/engine",
        module: vec!["x".into()],
        code: "mod y;\npub use y::Thing;\n".into(),
        tests: String::new(),
    };
    let b = Source {
        file: "crates/engine/src/x/y.rs".into(),
        krate: "crates/engine",
        module: vec!["x".into(), "y".into()],
        code: "use super::{Other, self as me};\nfn f() { crate::x::go(); }\n".into(),
        tests: String::new(),
    };
    let c = Source {
        file: "crates/core/src/x.rs".into(),
        krate: "crates/core",
        module: vec!["x".into()],
        code: "use crate::x::y;\n".into(),
        tests: String::new(),
    };
    let edges = graph(&[a, b, c]);
    assert_eq!(
        circles(&edges),
        [vec![
            "crates/engine/src/x/mod.rs".to_owned(),
            "crates/engine/src/x/y.rs".to_owned()
        ]]
    );
    assert!(edges["crates/core/src/x.rs"].is_empty());
    assert_eq!(layer("src/commands/check/mod.rs"), 1);
    assert_eq!(layer("src/lib.rs"), LAYERS.len());
}

/// The directive a file belongs to: the folder of the directives crate
/// it is in (`None` for the registry, the contract and the modules all
/// directives share).
fn directive_folder(file: &str) -> Option<&str> {
    let rest = file.strip_prefix(DIRECTIVES)?;
    let (folder, _) = rest.split_once('/')?;
    Some(folder)
}

/// Every import between files of one crate (test modules included) that
/// breaks a rule, as `from -> to`.
fn imports_where(rule: impl Fn(&str, &str) -> bool) -> Vec<String> {
    graph(&sources_with_tests())
        .iter()
        .flat_map(|(from, tos)| {
            tos.iter()
                .filter(|to| rule(from, to))
                .map(move |to| format!("{from} -> {to}"))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn no_directive_folder_imports_another() {
    // References between directives go through the book layer; what
    // directives share lives in the shared modules of the crate.
    let found = imports_where(|from, to| {
        directive_folder(to).is_some_and(|d| {
            directive_folder(from).is_some_and(|f| f != d)
                || (directive_folder(from).is_none()
                    && from.starts_with(DIRECTIVES)
                    && from != "crates/directives/src/lib.rs")
        })
    });
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn only_the_directives_crate_names_a_directive() {
    // Outside the directives crate, no library file (test modules
    // included) names a directive's folder: the book layer knows `KINDS`,
    // not its rows. (Integration tests may test one directive.)
    let folders: BTreeSet<String> = sources()
        .iter()
        .filter_map(|s| directive_folder(&s.file).map(str::to_owned))
        .collect();
    assert!(
        folders.len() >= 5 && folders.contains("claims"),
        "{folders:?}"
    );
    let mut files = Vec::new();
    for dir in ["src", "crates/core/src", "crates/engine/src"] {
        rust_files(&root().join(dir), &mut files);
    }
    let mut found = Vec::new();
    for f in files {
        let code = strip_comments_and_strings(&std::fs::read_to_string(&f).expect("readable"));
        for path in expand_all(&code) {
            if let Some(rest) = path.strip_prefix("mdbook_companion_directives::")
                && folders.contains(rest.split("::").next().unwrap_or(""))
            {
                found.push(format!("{}: {path}", f.display()));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// Every path a file's `use` trees and expressions name, from any root.
fn expand_all(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for stmt in code.split(';') {
        if let Some(tree) = stmt.trim_start().split_once("use ").map(|(_, t)| t) {
            out.extend(expand(tree));
        }
    }
    out.extend(
        code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .filter(|p| p.contains("::"))
            .map(str::to_owned),
    );
    out
}

#[test]
fn the_core_starts_no_process_and_writes_no_file() {
    // The core is pure; the directives read the book's data files but
    // start nothing. (Test modules may make files to read.)
    let rules: [(&str, &[&str]); 2] = [
        (
            "crates/core/src/",
            &[
                "std::process",
                "Command::new",
                "fs::write",
                "File::create",
                "create_dir",
                "remove_file",
                "OpenOptions",
            ],
        ),
        ("crates/directives/src/", &["std::process", "Command::new"]),
    ];
    let mut found = Vec::new();
    for s in sources() {
        let code = strip_comments_and_strings(&s.code);
        for (dir, banned) in rules {
            for b in banned
                .iter()
                .filter(|b| s.file.starts_with(dir) && code.contains(*b))
            {
                found.push(format!("{}: {b}", s.file));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
    // The rule sees: a file that starts a process is caught.
    let code = strip_comments_and_strings("fn f() { std::process::Command::new(\"cc\"); }");
    assert!(code.contains("Command::new"));
}

#[test]
fn the_engine_never_sees_where_a_claim_came_from() {
    // The engine checks a program and what is claimed of it (`Stated`):
    // a whole claim, its origin (its chapter's block and line, where
    // `--bless` writes) stay with the book layer, which places what the
    // engine tells in a block's lines. (Test modules make whole claims
    // to state.)
    let seen = |code: &str| -> Vec<String> {
        let code = strip_comments_and_strings(code);
        let words = ["Claim", "BlessTarget", "output_range", "Place"];
        let mut found: Vec<String> = code
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|w| words.contains(w))
            .map(str::to_owned)
            .collect();
        found.extend(
            expand_all(&code)
                .into_iter()
                .filter(|p| p.ends_with("claim::Origin") || p.ends_with("claim::Place")),
        );
        let squeezed: String = code.split_whitespace().collect();
        found.extend(
            [".place.file", ".place.line", ".origin."]
                .into_iter()
                .filter(|p| squeezed.contains(p))
                .map(str::to_owned),
        );
        found
    };
    let found: Vec<String> = sources()
        .iter()
        .filter(|s| s.krate == "crates/engine")
        .flat_map(|s| {
            seen(&s.code)
                .into_iter()
                .map(|w| format!("{}: {w}", s.file))
        })
        .collect();
    assert!(found.is_empty(), "{found:#?}");
    // The rule sees: an entry point that takes a whole claim, or an
    // origin, is caught.
    assert_eq!(seen("pub fn check(&self, claim: &Claim) {}"), ["Claim"]);
    assert_eq!(
        seen("use mdbook_companion_core::claim::{Origin, Stated};"),
        ["mdbook_companion_core::claim::Origin"]
    );
    // So is a message that names the block's chapter and line.
    assert_eq!(
        seen(
            "fn f(c: &Stated<'_>) -> String { format!(\"{}:{}\", c.place.file, c\n    .place.line) }"
        ),
        [".place.file", ".place.line"]
    );
    assert_eq!(
        seen("pub struct Stated<'a> { pub place: Place<'a> }"),
        ["Place"]
    );
}

/// The part of ARCHITECTURE.md's code map about a file's folder: from the
/// line that names the folder (`crates/engine/src/`, `src/book/`) to the
/// next line that starts at the margin.
fn map_section<'a>(map: &'a str, folder: &str) -> &'a str {
    let Some(start) = map.find(&format!("\n{folder}")) else {
        return "";
    };
    let rest = &map[start + 1..];
    let mut lines = rest.split_inclusive('\n');
    let mut end = lines.next().map_or(0, str::len);
    for line in lines.take_while(|l| l.starts_with(' ')) {
        end += line.len();
    }
    &rest[..end]
}

#[test]
fn the_map_names_every_module() {
    let map = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut missing = Vec::new();
    for s in sources() {
        // The section of the file's crate (or, in mdbook-companion, of
        // its layer's folder, or the line of a root file).
        let folder = match s.file.split('/').collect::<Vec<_>>().as_slice() {
            ["crates", krate, "src", ..] => format!("crates/{krate}/src/"),
            ["src", file] => format!("src/{file}"),
            ["src", layer, ..] => format!("src/{layer}/"),
            _ => unreachable!("{}", s.file),
        };
        let section = map_section(&map, &folder);
        // A layer's own `mod.rs` is named by its folder's heading.
        if s.file == format!("{folder}mod.rs") && !section.is_empty() {
            continue;
        }
        // A folder's `mod.rs` is named by the folder (`check/`).
        let rel = s.file.strip_prefix(&folder).unwrap_or(&s.file);
        let name = match rel.strip_suffix("/mod.rs") {
            Some(dir) => format!("{}/", dir.rsplit('/').next().unwrap_or(dir)),
            None => rel.rsplit('/').next().unwrap_or(rel).to_owned(),
        };
        if !section.contains(&name) {
            missing.push(format!("{} (looked for {name} under {folder})", s.file));
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md's map leaves out:\n{}",
        missing.join("\n")
    );
    // The check sees: a made-up map without the engine's lock.rs misses it.
    let cut = map.replace("  lock.rs ", "  lock-gone ");
    assert!(!map_section(&cut, "crates/engine/src/").contains("lock.rs"));
}

#[test]
fn files_stay_the_size_of_one_idea() {
    let mut big = Vec::new();
    for s in sources() {
        let code = s
            .code
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("//"))
            .count();
        if code > MAX_CODE_LINES {
            big.push(format!("{}: {code} lines of code", s.file));
        }
    }
    let mut tests = Vec::new();
    rust_files(&root().join("tests"), &mut tests);
    for t in tests {
        let n = std::fs::read_to_string(&t)
            .expect("readable test")
            .lines()
            .count();
        if n > MAX_TEST_LINES {
            big.push(format!("{}: {n} lines", t.display()));
        }
    }
    assert!(big.is_empty(), "files over the limit:\n{}", big.join("\n"));
    // Whole files, tests and comments counted: few over 600 lines (a
    // test module that long goes to a file of its own).
    let mut files = Vec::new();
    for (dir, _) in CRATES {
        rust_files(&root().join(dir).join("src"), &mut files);
    }
    let long: Vec<String> = files
        .iter()
        .filter(|f| {
            std::fs::read_to_string(f)
                .expect("readable")
                .lines()
                .count()
                > 600
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        long.len() <= MAX_LONG_FILES,
        "{} files over 600 lines:\n{}",
        long.len(),
        long.join("\n")
    );
}

/// The files that may branch on a language: the language itself (its
/// facts) and the checker's backends (Rust's merged builds among them).
const LANGUAGE_FILES: [&str; 7] = [
    "crates/core/src/lang.rs",
    "crates/core/src/languages.rs",
    "crates/engine/src/check/backend.rs",
    "crates/engine/src/check/cc.rs",
    "crates/engine/src/check/rustc.rs",
    "crates/engine/src/check/doctest.rs",
    "crates/engine/src/check/merge",
];

/// The lines of `code` (comments and strings blanked) that branch on a
/// language: compare it with one, match it, or let one out of it.
fn language_branches(code: &str) -> Vec<usize> {
    let lang = r"Lang::(Rust|C|Cpp|Program|PYTHON|GO)\b";
    let branch = regex::Regex::new(&format!(
        r"[=!]=\s*{lang}|{lang}\s*[=!]=|{lang}(\([^()]*\))?\)*\s*(=>|\|\s*[\w(]|\|\s*$|if\s)|matches!\([^;]*{lang}|\blet\s+(Some\()?{lang}"
    ))
    .expect("a valid pattern");
    strip_comments_and_strings(code)
        .lines()
        .enumerate()
        .filter(|(_, l)| branch.is_match(l))
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn only_a_language_and_its_backend_branch_on_it() {
    // A fact about a language (its file, its hidden lines, its symbols,
    // whether it follows rustdoc's rules) is a method of `Lang`, so a new
    // language is a row or a backend, not a hunt for `Lang::` in every
    // crate. Constructing one (`Lang::Rust` for a runnable example) is
    // no branch.
    let found: Vec<String> = sources()
        .iter()
        .filter(|s| !LANGUAGE_FILES.iter().any(|f| s.file.starts_with(f)))
        .flat_map(|s| {
            language_branches(&s.code)
                .into_iter()
                .map(|line| format!("{}:{line}", s.file))
        })
        .collect();
    assert!(
        found.is_empty(),
        "{} places branch on a language outside it and its backends:\n{}",
        found.len(),
        found.join("\n")
    );
    // The rule sees every form of a branch, and not a construction.
    let code = "if lang == Lang::Rust {}\nmatch l { Lang::C | Lang::Cpp => 1,\n(_, Lang::Program(_)) => 2 }\nmatches!(l, Some(Lang::GO))\nlet Lang::Program(row) = l else {};\nf(Lang::Rust, Lang::C);\nlet l = if r { Lang::Rust } else { Lang::C };\n";
    assert_eq!(language_branches(code), [1, 2, 3, 4, 5]);
}
