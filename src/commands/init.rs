//! `mdbook-companion init [DIR]`: a new book, ready to check.
//!
//! The book is the one `mdbook init` makes: `book.toml` (mdBook's own
//! configuration type, serialized as `mdbook init` serializes it),
//! `src/SUMMARY.md` and `src/chapter_1.md` (the texts of
//! `mdbook-driver`'s `BookBuilder`, written here rather than through it:
//! it panics when the book it wrote does not load, which an `MDBOOK_*`
//! variable in the environment can cause), with `[rust] edition = "2024"`
//! so that the examples a new book grows are checked in today's edition. Its first
//! chapter then gets one checked example (a `rust example` and the output
//! it prints), and the preprocessor is installed as `install` installs
//! it ([`super::install::install`]): right after `init`, `check` passes
//! and writes `companion.lock`, and the book builds.
//!
//! It never writes over anything: a folder that already holds a
//! `book.toml` is an existing book (`install` is what it wants), and any
//! other file `init` would write that is already there stops it before it
//! writes anything. A `.gitignore` is written only where there is none.

use super::install::{self, InstallError};
use std::path::{Path, PathBuf};

/// The chapter `init` writes: mdBook's first chapter with one example
/// and the output it claims.
pub const CHAPTER: &str = r#"# Chapter 1

An example: `mdbook-companion check` compiles and runs it and compares
what it prints with the `output` block below it.

```rust example title="Hello"
fn main() {
    let name = "mdbook-companion";
    println!("Hello from {name}!");
}
```

```output
Hello from mdbook-companion!
```
"#;

/// mdBook's table of contents for a new book (`mdbook init`'s own).
const SUMMARY: &str = "# Summary\n\n- [Chapter 1](./chapter_1.md)\n";

/// What git should not keep: the built book and the check cache.
const GITIGNORE: &str = "book\n.companion-cache\n";

/// What `init` wrote, relative to the book's root (`/`-separated).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Initialised {
    /// The files written.
    pub written: Vec<String>,
}

/// Errors of `init`.
#[derive(Debug, thiserror::Error)]
pub enum InitError {
    /// There is a book already (its book.toml, the folder).
    #[error(
        "{0} already exists: found a book there; expected a folder without book.toml (to add the preprocessor to that book, run `mdbook-companion install {1}`)"
    )]
    Exists(String, String),
    /// Files `init` would write are there already.
    #[error(
        "found {0} already in {1}; expected a folder without them, which init writes (nothing was written)"
    )]
    InTheWay(String, String),
    /// The path is not a folder.
    #[error("{0} is not a folder; expected the folder to make the book in")]
    NotAFolder(String),
    /// mdBook's configuration could not be written as TOML.
    #[error("writing book.toml for {0}: {1}")]
    Config(String, toml::ser::Error),
    /// Writing a file failed.
    #[error("cannot write {0}: {1}")]
    Write(String, std::io::Error),
    /// Installing the preprocessor failed.
    #[error(transparent)]
    Install(#[from] InstallError),
}

/// Makes a new book in `root` (made when missing) titled `title`, or
/// after the folder's name.
pub fn init(root: &Path, title: Option<&str>) -> Result<Initialised, InitError> {
    let shown = root.display().to_string();
    if root.exists() && !root.is_dir() {
        return Err(InitError::NotAFolder(shown));
    }
    let toml = root.join("book.toml");
    if toml.symlink_metadata().is_ok() {
        return Err(InitError::Exists(toml.display().to_string(), shown));
    }
    let css = install::DEFAULT_CSS.to_owned();
    let ours = [
        "src/SUMMARY.md".to_owned(),
        "src/chapter_1.md".to_owned(),
        install::script_path(&css),
        css,
    ];
    // A file where init would write, or where it needs a folder.
    let there: Vec<&str> = ours
        .iter()
        .map(String::as_str)
        .filter(|rel| root.join(rel).symlink_metadata().is_ok())
        .chain(
            ["src", "theme"]
                .into_iter()
                .filter(|dir| root.join(dir).exists() && !root.join(dir).is_dir()),
        )
        .collect();
    if !there.is_empty() {
        return Err(InitError::InTheWay(there.join(", "), shown));
    }
    let title = match title {
        Some(t) => t.to_owned(),
        None => folder_name(root),
    };
    let mut config = mdbook_driver::config::Config::default();
    config.book.title = Some(title);
    config.rust.edition = Some(mdbook_driver::config::RustEdition::E2024);
    let book_toml = toml::to_string(&config).map_err(|e| InitError::Config(shown.clone(), e))?;
    let mut done = Initialised::default();
    for (rel, text) in [
        ("book.toml", book_toml.as_str()),
        ("src/SUMMARY.md", SUMMARY),
        ("src/chapter_1.md", CHAPTER),
    ] {
        let path = root.join(rel);
        super::author::write(&path, text.as_bytes())
            .map_err(|e| InitError::Write(path.display().to_string(), e))?;
        done.written.push(rel.to_owned());
    }
    let ignore = root.join(".gitignore");
    if ignore.symlink_metadata().is_err() {
        super::author::write(&ignore, GITIGNORE.as_bytes())
            .map_err(|e| InitError::Write(ignore.display().to_string(), e))?;
        done.written.push(".gitignore".to_owned());
    }
    let installed = install::install(root, install::DEFAULT_CSS)?;
    if installed.stylesheet {
        done.written.push(install::DEFAULT_CSS.to_owned());
    }
    if installed.script {
        done.written
            .push(install::script_path(install::DEFAULT_CSS));
    }
    Ok(done)
}

/// The name of the folder at `root` (resolved, so `.` is named), or
/// "My book".
fn folder_name(root: &Path) -> String {
    let resolved = root.canonicalize().unwrap_or_else(|_| PathBuf::from(root));
    resolved
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "My book".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_book_is_mdbooks_with_the_preprocessor_and_an_example() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("course");
        let done = init(&root, None).unwrap();
        assert_eq!(
            done.written,
            [
                "book.toml",
                "src/SUMMARY.md",
                "src/chapter_1.md",
                ".gitignore",
                "theme/companion.css",
                "theme/companion.js"
            ]
        );
        let toml = std::fs::read_to_string(root.join("book.toml")).unwrap();
        let parsed: toml::Table = toml.parse().unwrap();
        assert_eq!(parsed["book"]["title"].as_str(), Some("course"));
        assert_eq!(parsed["rust"]["edition"].as_str(), Some("2024"));
        assert!(parsed["preprocessor"]["companion"]["after"].is_array());
        assert_eq!(
            std::fs::read_to_string(root.join("src/SUMMARY.md")).unwrap(),
            "# Summary\n\n- [Chapter 1](./chapter_1.md)\n"
        );
        assert_eq!(
            std::fs::read_to_string(root.join("src/chapter_1.md")).unwrap(),
            CHAPTER
        );
    }

    #[test]
    fn nothing_is_written_over() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("book.toml"), "[book]\n").unwrap();
        let e = init(dir.path(), Some("T")).unwrap_err();
        assert!(matches!(e, InitError::Exists(..)), "{e}");
        assert!(e.to_string().contains("mdbook-companion install"), "{e}");
        std::fs::remove_file(dir.path().join("book.toml")).unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/chapter_1.md"), "mine\n").unwrap();
        let e = init(dir.path(), Some("T")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("found src/chapter_1.md already in "),
            "{e}"
        );
        assert!(!dir.path().join("book.toml").exists());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("src/chapter_1.md")).unwrap(),
            "mine\n"
        );
        // A file where init needs a folder: nothing written.
        std::fs::remove_file(dir.path().join("src/chapter_1.md")).unwrap();
        std::fs::remove_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src"), "a file\n").unwrap();
        let e = init(dir.path(), Some("T")).unwrap_err();
        assert!(e.to_string().starts_with("found src already in "), "{e}");
        assert!(!dir.path().join("book.toml").exists());
        std::fs::remove_file(dir.path().join("src")).unwrap();
        // A .gitignore of the author's is kept.
        std::fs::write(dir.path().join(".gitignore"), "mine\n").unwrap();
        let done = init(dir.path(), Some("T")).unwrap();
        assert!(!done.written.contains(&".gitignore".to_owned()));
        assert_eq!(
            std::fs::read_to_string(dir.path().join(".gitignore")).unwrap(),
            "mine\n"
        );
    }
}
