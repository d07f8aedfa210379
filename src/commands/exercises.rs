//! `mdbook-companion exercises BOOK --out DIR [--solutions]`: the book's
//! exercises as a Cargo workspace students run `cargo test` in.
//!
//! The book is loaded as `check` loads it (`{{#include}}` expanded), every
//! exercise is parsed (a broken one is a located error, and nothing is
//! written), and [`crate::directive::workspace`] says what the workspace
//! holds. Writing it is careful with what is not ours: the command keeps a
//! list of the files it wrote, with a hash of each (`.companion-exercises`
//! in `DIR`), and on a later run overwrites only those, and only while
//! they are as it wrote them: a student's edited `src/lib.rs` is kept (and
//! named), a file it never wrote is never replaced (the run stops before
//! writing anything), and files of its own that the book no longer makes
//! are left in place and named. Every file is written atomically.

use crate::book::load::{self, LineMap};
use crate::core::markdown;
use crate::directive::workspace::{self, Placed};
use crate::engine::cache::Cache;
use crate::engine::crates;
use anyhow::{Context as _, bail};
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

/// Writes the exercises of the book at `root` into `out`: the starters,
/// or the solutions.
pub fn run(root: &Path, out: &Path, solutions: bool) -> anyhow::Result<Written> {
    let loaded = load::load(root)?;
    let mut placed = Vec::new();
    let mut problems = Vec::new();
    for chapter in &loaded.chapters {
        let text = &chapter.expanded;
        let found = workspace::of_chapter(text, &loaded.config);
        if found.is_empty() {
            continue;
        }
        let map = LineMap::new(&chapter.raw, text);
        for result in found {
            match result {
                Ok(exercise) => placed.push(Placed {
                    file: chapter.file.clone(),
                    exercise,
                }),
                Err(p) => {
                    let (line, column) = markdown::line_col(text, p.offset);
                    let line = map.file_line(line - 1);
                    problems.push(format!("{}:{line}:{column}: {}", chapter.file, p.message));
                }
            }
        }
    }
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    for p in &placed {
        let name = p.exercise.package();
        if let Some(first) = seen.insert(name.clone(), &p.file) {
            problems.push(format!(
                "{}: found a second exercise named `{name}` (the first is in {first}); expected one package per name: give one an `id`",
                p.file
            ));
        }
    }
    if !problems.is_empty() {
        bail!("the exercises cannot be written:\n{}", problems.join("\n"));
    }
    if placed.is_empty() {
        return Ok(Written::default());
    }
    let deps = crates::for_book(&loaded.config)
        .dependencies()
        .map_err(anyhow::Error::msg)?
        .to_vec();
    let name = root
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "the book".to_owned());
    let files = workspace::files(&format!("the book `{name}`"), &placed, &deps, solutions);
    let mut done = write(out, &files)?;
    done.packages = placed.iter().map(|p| p.exercise.package()).collect();
    Ok(done)
}

/// The hash the list keeps of a file's text.
fn hash(text: &[u8]) -> String {
    Cache::key(&[text])
}

/// Writes `files` into `out`, overwriting only files of ours that are as
/// we wrote them.
fn write(out: &Path, files: &[(String, String)]) -> anyhow::Result<Written> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
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
        atomic_write(dir, &path, text.as_bytes())
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
    atomic_write(out, &list, text.as_bytes())
        .with_context(|| format!("writing {}", list.display()))?;
    Ok(done)
}

/// Writes `bytes` to `path` through a temporary file in `dir`, renamed
/// into place: the old file or the new one, never half of one.
fn atomic_write(dir: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut tmp, bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(lib: &str) -> Vec<(String, String)> {
        vec![
            ("Cargo.toml".into(), "[workspace]\n".into()),
            ("a/src/lib.rs".into(), lib.into()),
        ]
    }

    #[test]
    fn rewrites_only_its_own_unchanged_files() {
        let dir = tempfile::tempdir().unwrap();
        let first = write(dir.path(), &files("starter")).unwrap();
        assert_eq!(first.written, ["Cargo.toml", "a/src/lib.rs"]);
        let again = write(dir.path(), &files("starter")).unwrap();
        assert_eq!((again.written.len(), again.unchanged.len()), (0, 2));
        let solved = write(dir.path(), &files("solution")).unwrap();
        assert_eq!(solved.written, ["a/src/lib.rs"]);
        // A student's edit is kept, and stays theirs on later runs.
        let lib = dir.path().join("a/src/lib.rs");
        std::fs::write(&lib, "mine").unwrap();
        for _ in 0..2 {
            let kept = write(dir.path(), &files("starter")).unwrap();
            assert_eq!(kept.kept, ["a/src/lib.rs"]);
            assert_eq!(std::fs::read_to_string(&lib).unwrap(), "mine");
        }
        // Files of ours the book no longer makes are left and named.
        let fewer = write(dir.path(), &files("starter")[..1]).unwrap();
        assert_eq!(fewer.stale, ["a/src/lib.rs"]);
        assert!(lib.exists());
    }

    #[test]
    fn a_file_not_ours_stops_the_run_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Cargo.toml"), "[package]\n").unwrap();
        let err = write(dir.path(), &files("starter"))
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
