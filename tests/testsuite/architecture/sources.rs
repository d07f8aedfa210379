//! Reading the workspace's library sources: each file's module path, its
//! code above the tests and its test modules (inline or in files of their
//! own).

use super::CRATES;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

pub(super) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(super) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// A library source file: its module path and its text above the tests.
pub(super) struct Source {
    pub(super) file: String,
    /// The folder of its crate (see `CRATES`).
    pub(super) krate: &'static str,
    pub(super) module: Vec<String>,
    pub(super) code: String,
    /// Its test module, with `super::` read from the file itself (a path
    /// `super::x` inside `mod tests` names the file's own `x`).
    pub(super) tests: String,
}

impl Source {
    /// The same file with its test module as part of its code.
    pub(super) fn with_tests(&self) -> Source {
        Source {
            file: self.file.clone(),
            krate: self.krate,
            module: self.module.clone(),
            code: format!("{}\n{}", self.code, self.tests),
            tests: String::new(),
        }
    }
}

/// Every library file with its test module (see [`Source::with_tests`]).
pub(super) fn sources_with_tests() -> Vec<Source> {
    sources().iter().map(Source::with_tests).collect()
}

/// The text of a file above its `#[cfg(test)] mod tests`.
pub(super) fn above_tests(text: &str) -> &str {
    let mut at = 0;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim() == "#[cfg(test)]"
            && lines.get(i + 1).is_some_and(|next| {
                next.trim_start()
                    .trim_start_matches("pub(crate) ")
                    .starts_with("mod ")
            })
        {
            return &text[..at];
        }
        at += line.len();
    }
    text
}

/// The files of a source file's test modules declared out of line
/// (`#[cfg(test)] mod tests;` in `x.rs` is `x/tests.rs`; in `mod.rs` or
/// `lib.rs`, `tests.rs` beside it).
pub(super) fn test_files(p: &Path) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(p).expect("readable source");
    let lines: Vec<&str> = text.lines().collect();
    let dir = match p.file_stem().and_then(|s| s.to_str()) {
        Some("mod" | "lib" | "main") => p.parent().expect("a folder").to_path_buf(),
        _ => p.with_extension(""),
    };
    lines
        .windows(2)
        .filter(|w| w[0].trim() == "#[cfg(test)]")
        .filter_map(|w| {
            let name = w[1]
                .trim()
                .trim_start_matches("pub(crate) ")
                .strip_prefix("mod ")?;
            Some(dir.join(format!("{}.rs", name.strip_suffix(';')?)))
        })
        .collect()
}

/// Every crate's library files (the binary's `main.rs` and `cli.rs`
/// stand on top of everything and are left out).
pub(super) fn sources() -> Vec<Source> {
    CRATES
        .iter()
        .flat_map(|(dir, _)| {
            let src = root().join(dir).join("src");
            let mut files = Vec::new();
            rust_files(&src, &mut files);
            // A test module in a file of its own (`#[cfg(test)] mod
            // tests;`) is read as part of the file that declares it.
            let out_of_line: BTreeSet<PathBuf> = files.iter().flat_map(|p| test_files(p)).collect();
            files
                .into_iter()
                .filter(|p| !p.ends_with("main.rs") && !p.ends_with("cli.rs"))
                .filter(move |p| !out_of_line.contains(p))
                .map(move |p| {
                    let rel = p.strip_prefix(&src).expect("under src");
                    let mut module: Vec<String> = rel
                        .with_extension("")
                        .iter()
                        .map(|c| c.to_string_lossy().into_owned())
                        .collect();
                    if module.last().is_some_and(|l| l == "mod" || l == "lib") {
                        module.pop();
                    }
                    let text = std::fs::read_to_string(&p).expect("readable source");
                    let code = above_tests(&text);
                    let mut tests = text[code.len()..].to_owned();
                    for f in test_files(&p) {
                        tests.push('\n');
                        tests.push_str(&std::fs::read_to_string(&f).expect("readable test module"));
                    }
                    let tests = tests
                        .replace("super::super::", "\u{1}")
                        .replace("super::", "self::")
                        .replace('\u{1}', "super::");
                    let file = Path::new(dir).join("src").join(rel);
                    Source {
                        file: file
                            .to_string_lossy()
                            .trim_start_matches("./")
                            .replace('\\', "/"),
                        krate: dir,
                        module,
                        code: code.to_owned(),
                        tests,
                    }
                })
        })
        .collect()
}
