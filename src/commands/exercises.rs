//! `mdbook-companion exercises BOOK --out DIR [--solutions]`: the book's
//! exercises as a Cargo workspace students run `cargo test` in.
//!
//! The book is loaded as `check` loads it ([`LoadedBook::load`]: `{{#include}}`
//! expanded, its crates read, no checker, lock or render), every
//! exercise is parsed (a broken one is a located error, and nothing is
//! written) into the [`Package`] it offers ([`load::packages`]); [`files`]
//! says what the workspace holds. Writing it is careful with what is not ours: the command keeps a
//! list of the files it wrote, with a hash of each (`.companion-exercises`
//! in `DIR`), and on a later run overwrites only those, and only while
//! they are as it wrote them: a student's edited `src/lib.rs` is kept (and
//! named), a file it never wrote is never replaced (the run stops before
//! writing anything), and files of its own that the book no longer makes
//! are left in place and named. Every file is written atomically, and only
//! as a regular file under folders: a symbolic link (or a FIFO) already in
//! `DIR` stops the run before anything is written, never followed.

use crate::book::load;
use crate::book::session::LoadedBook;
use anyhow::{Context as _, bail};
use mdbook_companion_core::crates::{self, Dependency};
use mdbook_companion_directives::contract::Package;
use mdbook_companion_engine::cache::Cache;
use std::collections::BTreeMap;
use std::path::Path;

/// The list of written files, in the workspace's root.
pub const MANIFEST: &str = ".companion-exercises";

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// The exercises, by package name.
    pub packages: Vec<String>,
    /// Files written (new or changed), relative to the workspace.
    pub written: Vec<String>,
    /// Files already as the book makes them.
    pub unchanged: Vec<String>,
    /// Files of ours that were edited since: kept as they are.
    pub kept: Vec<String>,
    /// Files of ours that the book no longer makes: left in place.
    pub stale: Vec<String>,
}

/// A package of the book and the chapter file it comes from.
#[derive(Debug, Clone)]
pub struct Placed {
    /// The chapter file (`src/try-it.md`).
    pub file: String,
    /// The package.
    pub package: Package,
}

/// Writes the exercises of the book at `root` into `out`: the starters,
/// or the solutions.
pub fn run(root: &Path, out: &Path, solutions: bool) -> anyhow::Result<Written> {
    over(&LoadedBook::load(root, None, &[])?, out, solutions)
}

/// [`run`] over a loaded book: its exercises into `out`.
pub fn over(book: &LoadedBook, out: &Path, solutions: bool) -> anyhow::Result<Written> {
    let loaded = &book.loaded;
    let mut placed = Vec::new();
    let mut problems = Vec::new();
    for chapter in &loaded.chapters {
        let (packages, invalid) =
            load::packages(chapter, &loaded.config, solutions, loaded.chapters.len());
        placed.extend(packages.into_iter().map(|package| Placed {
            file: chapter.file.clone(),
            package,
        }));
        problems.extend(invalid.iter().map(ToString::to_string));
    }
    let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
    for p in &placed {
        if let Some(first) = seen.insert(&p.package.name, &p.file) {
            problems.push(format!(
                "{}: found a second exercise named `{}` (the first is in {first}); expected one package per name: give one an `id`",
                p.file, p.package.name
            ));
        }
    }
    if !problems.is_empty() {
        bail!("the exercises cannot be written:\n{}", problems.join("\n"));
    }
    if placed.is_empty() {
        return Ok(Written::default());
    }
    let deps = book
        .crates
        .dependencies()
        .map_err(anyhow::Error::msg)?
        .to_vec();
    let name = book_name(loaded.title.as_deref(), &loaded.root);
    let which = if solutions { "solutions" } else { "starters" };
    let files = files(&format!("the book `{name}` ({which})"), &placed, &deps);
    let mut done = write(out, &files)?;
    done.packages = placed.into_iter().map(|p| p.package.name).collect();
    Ok(done)
}

/// What the workspace's manifest calls the book: its `[book] title`,
/// else its folder's name, on one line (a line break or another control
/// character in the title would end the manifest's comment).
fn book_name(title: Option<&str>, root: &Path) -> String {
    let one_line = |s: &str| -> String {
        s.split(char::is_control)
            .filter(|w| !w.trim().is_empty())
            .map(str::trim)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let folder = || {
        root.canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
    };
    [title.map(one_line), folder().as_deref().map(one_line)]
        .into_iter()
        .flatten()
        .find(|n| !n.is_empty())
        .unwrap_or_else(|| "the book".to_owned())
}

/// The files of the workspace (path relative to its root, text): the
/// root manifest with the book's crates as workspace dependencies, and
/// per package its manifest (the crates it uses) and `src/lib.rs` (a doc
/// comment with the title and the task, then the code and its tests).
pub fn files(book: &str, placed: &[Placed], deps: &[Dependency]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let names: Vec<String> = deps.iter().map(Dependency::extern_name).collect();
    let mut workspace = toml::Table::new();
    workspace.insert("resolver".into(), "2".into());
    let members: Vec<String> = placed.iter().map(|p| p.package.name.clone()).collect();
    workspace.insert("members".into(), members.into());
    if !deps.is_empty() {
        workspace.insert("dependencies".into(), crates::entries(deps).into());
    }
    let mut root = toml::Table::new();
    root.insert("workspace".into(), workspace.into());
    out.push((
        "Cargo.toml".to_owned(),
        format!(
            "# The exercises of {book}, written by `mdbook-companion exercises`.\n# `cargo test -p NAME` runs one exercise's tests; this file is rewritten\n# when the command runs again.\n{}",
            toml::to_string(&root).unwrap_or_default()
        ),
    ));
    let quoted = |s: &str| toml::Value::String(s.to_owned()).to_string();
    for Placed { file, package: p } in placed {
        // Written by hand, in the order Cargo's own templates use.
        let mut manifest = format!(
            "[package]\nname = {}\nversion = \"0.1.0\"\nedition = \"{}\"\npublish = false\n",
            quoted(&p.name),
            p.edition
        );
        let used = crates::used(&p.code, names.iter().map(String::as_str));
        let lines: Vec<String> = deps
            .iter()
            .filter(|d| used.contains(&d.extern_name()))
            .map(|d| format!("{} = {{ workspace = true }}\n", quoted(&d.key)))
            .collect();
        if !lines.is_empty() {
            manifest.push_str("\n[dependencies]\n");
            manifest.push_str(&lines.concat());
        }
        out.push((format!("{}/Cargo.toml", p.name), manifest));
        let mut lib = format!("//! {} ({file})\n", p.title);
        if let Some(about) = &p.about {
            lib.push_str("//!\n");
            for line in about.lines() {
                lib.push_str(format!("//! {line}").trim_end());
                lib.push('\n');
            }
        }
        lib.push('\n');
        lib.push_str(&p.code);
        out.push((format!("{}/src/lib.rs", p.name), lib));
    }
    out
}

/// The hash the list keeps of a file's text.
fn hash(text: &[u8]) -> String {
    Cache::key(&[text])
}

/// Writes `files` into `out`, overwriting only files of ours that are as
/// we wrote them.
fn write(out: &Path, files: &[(String, String)]) -> anyhow::Result<Written> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    // Nothing is written under a symbolic link or over something that is
    // not a regular file: a link already in the folder would carry the
    // files somewhere else.
    let odd: std::collections::BTreeSet<String> = files
        .iter()
        .map(|(rel, _)| rel.as_str())
        .chain([MANIFEST])
        .filter_map(|rel| not_plain(out, rel))
        .collect();
    if !odd.is_empty() {
        bail!(
            "{} holds {}; expected only folders and regular files under it, which this command writes (nothing was written)",
            out.display(),
            odd.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    let list = out.join(MANIFEST);
    let mut ours: BTreeMap<String, String> = BTreeMap::new();
    if let Ok(text) = std::fs::read_to_string(&list) {
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            if let Some((h, path)) = line.split_once(' ') {
                ours.insert(path.to_owned(), h.to_owned());
            }
        }
    }
    // Nothing is written when a file we would write is not ours.
    let foreign: Vec<&str> = files
        .iter()
        .map(|(rel, _)| rel.as_str())
        .filter(|rel| !ours.contains_key(*rel) && out.join(rel).exists())
        .collect();
    if !foreign.is_empty() {
        bail!(
            "{} already holds {}, not written by `mdbook-companion exercises`; expected an empty directory or one this command wrote (nothing was written)",
            out.display(),
            foreign.join(", ")
        );
    }
    let mut done = Written::default();
    let mut list_now: BTreeMap<String, String> = BTreeMap::new();
    for (rel, text) in files {
        let path = out.join(rel);
        let on_disk = std::fs::read(&path).ok();
        let new_hash = hash(text.as_bytes());
        match (&on_disk, ours.get(rel)) {
            (Some(bytes), _) if bytes == text.as_bytes() => {
                done.unchanged.push(rel.clone());
                list_now.insert(rel.clone(), new_hash);
                continue;
            }
            (Some(bytes), Some(old)) if hash(bytes) != *old => {
                done.kept.push(rel.clone());
                list_now.insert(rel.clone(), old.clone());
                continue;
            }
            _ => {}
        }
        let dir = path.parent().unwrap_or(out);
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        super::author::write(&path, text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        done.written.push(rel.clone());
        list_now.insert(rel.clone(), new_hash);
    }
    for (rel, h) in &ours {
        if !list_now.contains_key(rel) && out.join(rel).exists() {
            done.stale.push(rel.clone());
            list_now.insert(rel.clone(), h.clone());
        }
    }
    let mut text = String::from(
        "# The files `mdbook-companion exercises` wrote here, with a hash of each:\n# it rewrites only these, and only while they are unchanged.\n",
    );
    for (rel, h) in &list_now {
        text.push_str(&format!("{h} {rel}\n"));
    }
    super::author::write(&list, text.as_bytes())
        .with_context(|| format!("writing {}", list.display()))?;
    Ok(done)
}

/// Why `rel` under `out` may not be written: one of its parts is a
/// symbolic link, a folder on the way is not a folder, or the file is there
/// and is not a regular file.
fn not_plain(out: &Path, rel: &str) -> Option<String> {
    let parts: Vec<&str> = rel.split('/').collect();
    let mut at = out.to_path_buf();
    for (i, part) in parts.iter().enumerate() {
        at.push(part);
        let Ok(meta) = at.symlink_metadata() else {
            return None;
        };
        let shown = parts[..=i].join("/");
        let kind = meta.file_type();
        if kind.is_symlink() {
            return Some(format!("{shown}, a symbolic link"));
        }
        let last = i + 1 == parts.len();
        if last && !kind.is_file() {
            return Some(format!("{shown}, which is not a regular file"));
        }
        if !last && !kind.is_dir() {
            return Some(format!("{shown}, which is not a folder"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_package_per_exercise_with_the_crates_it_uses() {
        let package = |code: &str| Placed {
            file: "src/a.md".into(),
            package: Package {
                name: "safe-division".into(),
                title: "Safe division".into(),
                about: Some("Use `checked_div`.".into()),
                edition: 2021,
                code: code.into(),
            },
        };
        let mylib = Dependency {
            key: "mylib".into(),
            path: Some("/libs/mylib".into()),
            ..Dependency::default()
        };
        let deps = std::slice::from_ref(&mylib);
        let starters = files("Book", &[package("pub fn f() { todo!() }\n")], deps);
        let names: Vec<&str> = starters.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            names,
            [
                "Cargo.toml",
                "safe-division/Cargo.toml",
                "safe-division/src/lib.rs"
            ]
        );
        let root = &starters[0].1;
        assert!(root.contains("members = [\"safe-division\"]"), "{root}");
        assert!(
            root.contains("[workspace.dependencies.mylib]\npath = \"/libs/mylib\""),
            "{root}"
        );
        assert_eq!(
            starters[1].1,
            "[package]\nname = \"safe-division\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n"
        );
        assert_eq!(
            starters[2].1,
            "//! Safe division (src/a.md)\n//!\n//! Use `checked_div`.\n\npub fn f() { todo!() }\n"
        );
        let solutions = files("Book", &[package("pub fn f() { mylib::g() }\n")], deps);
        assert!(
            solutions[1]
                .1
                .ends_with("\n[dependencies]\n\"mylib\" = { workspace = true }\n"),
            "{}",
            solutions[1].1
        );
    }

    fn two_files(lib: &str) -> Vec<(String, String)> {
        vec![
            ("Cargo.toml".into(), "[workspace]\n".into()),
            ("a/src/lib.rs".into(), lib.into()),
        ]
    }

    #[test]
    fn rewrites_only_its_own_unchanged_files() {
        let dir = tempfile::tempdir().unwrap();
        let first = write(dir.path(), &two_files("starter")).unwrap();
        assert_eq!(first.written, ["Cargo.toml", "a/src/lib.rs"]);
        let again = write(dir.path(), &two_files("starter")).unwrap();
        assert_eq!((again.written.len(), again.unchanged.len()), (0, 2));
        let solved = write(dir.path(), &two_files("solution")).unwrap();
        assert_eq!(solved.written, ["a/src/lib.rs"]);
        // A student's edit is kept, and stays theirs on later runs.
        let lib = dir.path().join("a/src/lib.rs");
        std::fs::write(&lib, "mine").unwrap();
        for _ in 0..2 {
            let kept = write(dir.path(), &two_files("starter")).unwrap();
            assert_eq!(kept.kept, ["a/src/lib.rs"]);
            assert_eq!(std::fs::read_to_string(&lib).unwrap(), "mine");
        }
        // Files of ours the book no longer makes are left and named.
        let fewer = write(dir.path(), &two_files("starter")[..1]).unwrap();
        assert_eq!(fewer.stale, ["a/src/lib.rs"]);
        assert!(lib.exists());
    }

    #[test]
    fn a_file_not_ours_stops_the_run_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Cargo.toml"), "[package]\n").unwrap();
        let err = write(dir.path(), &two_files("starter"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("already holds Cargo.toml, not written by"),
            "{err}"
        );
        assert!(!dir.path().join("a").exists());
        assert!(!dir.path().join(MANIFEST).exists());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("Cargo.toml")).unwrap(),
            "[package]\n"
        );
    }
}
