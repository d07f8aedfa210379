//! `--toolchain NAME`: the Rust compiler a run uses instead of the book's.
//!
//! A name is a rustup toolchain (`beta`, `nightly`, `1.95.0`), resolved
//! to its compiler's file with `rustup which rustc --toolchain NAME`, or a
//! path to a `rustc` (anything with a `/` in it). The result is an
//! absolute path: compiles run in scratch directories, and a rustup proxy
//! there would pick its toolchain from the directory, not from the name.
//! Every Rust claim, assembly panel and dependency build of the run then
//! uses that file (the cache keys already hold the compiler's version, so
//! results are kept per toolchain).

use std::path::{Path, PathBuf};
use std::process::Command;

/// A resolved toolchain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toolchain {
    /// The name as given (`nightly`, `./bin/rustc`).
    pub name: String,
    /// The compiler's file, absolute.
    pub rustc: PathBuf,
}

/// Why a name does not resolve.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A path that is not a file.
    #[error("--toolchain {name}: no compiler at {}; expected a rustup toolchain name (`beta`, `nightly`, `1.95.0`) or the path of a `rustc`", path.display())]
    NoFile {
        /// The name as given.
        name: String,
        /// The path looked at.
        path: PathBuf,
    },
    /// rustup knows no such toolchain.
    #[error("--toolchain {name}: rustup has no toolchain `{name}` installed; installed: {}; install it with `rustup toolchain install {name}`, or pass the path of a `rustc`", if installed.is_empty() { "none".to_owned() } else { installed.join(", ") })]
    Unknown {
        /// The name as given.
        name: String,
        /// The installed toolchains, as `rustup toolchain list` names them.
        installed: Vec<String>,
    },
    /// The compiler is there but does not run as a `rustc` (`-vV` fails
    /// or prints something else).
    #[error("--toolchain {name}: the compiler {} could not be run ({why}); expected a rustup toolchain name (`beta`, `nightly`, `1.95.0`) or the path of a `rustc` that runs", path.display())]
    CannotRun {
        /// The name as given.
        name: String,
        /// The compiler's file.
        path: PathBuf,
        /// What running `rustc -vV` gave.
        why: String,
    },
    /// rustup could not be run.
    #[error(
        "--toolchain {name}: `rustup` could not be run ({why}); pass the path of a `rustc` instead"
    )]
    NoRustup {
        /// The name as given.
        name: String,
        /// The operating system's message.
        why: String,
    },
}

/// Resolves `name` to a compiler that runs: `rustc -vV` must succeed
/// and name itself `rustc`, or the run would check nothing.
pub fn resolve(name: &str) -> Result<Toolchain, Error> {
    let toolchain = find(name)?;
    runs(&toolchain)?;
    Ok(toolchain)
}

/// Whether the toolchain's compiler answers `-vV` as a `rustc`.
fn runs(toolchain: &Toolchain) -> Result<(), Error> {
    let cannot = |why: String| Error::CannotRun {
        name: toolchain.name.clone(),
        path: toolchain.rustc.clone(),
        why,
    };
    let out = Command::new(&toolchain.rustc)
        .arg("-vV")
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| cannot(e.to_string()))?;
    let said = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(cannot(format!("`-vV` exited with {}", out.status)));
    }
    if !said.starts_with("rustc ") {
        return Err(cannot(format!(
            "`-vV` printed {:?}, not a rustc version",
            said.lines().next().unwrap_or("nothing")
        )));
    }
    Ok(())
}

/// The compiler `name` stands for, before it is run.
fn find(name: &str) -> Result<Toolchain, Error> {
    if name.contains('/') || name.contains(std::path::MAIN_SEPARATOR) {
        return from_path(name);
    }
    let out = rustup()
        .args(["which", "rustc", "--toolchain", name])
        .output()
        .map_err(|e| Error::NoRustup {
            name: name.to_owned(),
            why: e.to_string(),
        })?;
    let path = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    if !out.status.success() || path.is_empty() || !Path::new(&path).is_file() {
        return Err(Error::Unknown {
            name: name.to_owned(),
            installed: installed(),
        });
    }
    Ok(Toolchain {
        name: name.to_owned(),
        rustc: PathBuf::from(path),
    })
}

/// The files rustup reads a directory's toolchain from, in its order.
const FILES: [&str; 2] = ["rust-toolchain", "rust-toolchain.toml"];

/// The toolchain file that applies to a book at `root`: the first of
/// `rust-toolchain` and `rust-toolchain.toml` in `root` or the nearest directory above it, as rustup finds
/// it.
pub(crate) fn file_of_book(root: &Path) -> Option<PathBuf> {
    let root = std::path::absolute(root).ok()?;
    root.ancestors()
        .flat_map(|dir| FILES.iter().map(move |f| dir.join(f)))
        .find(|f| f.is_file())
}

/// The toolchain rustup picks for a book with a toolchain file (`None`
/// when it has none): rustup itself is asked, from the book's root, so
/// that its order holds (`RUSTUP_TOOLCHAIN` first, then the file). The
/// compiler is the toolchain's own file, so that compiles in scratch
/// directories use it too.
pub fn of_book(root: &Path) -> Result<Option<Toolchain>, String> {
    let Some(file) = file_of_book(root) else {
        return Ok(None);
    };
    let shown = file.display();
    let out = rustup()
        .args(["which", "rustc"])
        .current_dir(root)
        .output()
        .map_err(|e| {
            format!("{shown} selects the book's toolchain, and `rustup` could not be run ({e}); install rustup, or pass --toolchain")
        })?;
    let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if !out.status.success() || !path.is_file() {
        let why = String::from_utf8_lossy(&out.stderr);
        let why = why
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("no compiler")
            .trim();
        return Err(format!(
            "{shown} selects the book's toolchain, and rustup cannot give its compiler ({why}); install it with `rustup toolchain install`, or pass --toolchain"
        ));
    }
    // rustup's layout: TOOLCHAINS/NAME/bin/rustc.
    let name = path
        .parent()
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
    let by = match std::env::var_os("RUSTUP_TOOLCHAIN") {
        Some(_) => "RUSTUP_TOOLCHAIN, which rustup puts before ".to_owned() + &shown.to_string(),
        None => shown.to_string(),
    };
    Ok(Some(Toolchain {
        name: format!("{name}, selected by {by}"),
        rustc: path,
    }))
}

/// A path given as the toolchain: the compiler's file, made absolute.
fn from_path(name: &str) -> Result<Toolchain, Error> {
    let given = Path::new(name);
    let no_file = || Error::NoFile {
        name: name.to_owned(),
        path: given.to_path_buf(),
    };
    if !given.is_file() {
        return Err(no_file());
    }
    let rustc = std::path::absolute(given).map_err(|_| no_file())?;
    Ok(Toolchain {
        name: name.to_owned(),
        rustc,
    })
}

/// `rustup`, never installing a toolchain on its own.
fn rustup() -> Command {
    let mut cmd = Command::new("rustup");
    cmd.env("RUSTUP_AUTO_INSTALL", "0")
        .env("RUST_BACKTRACE", "0");
    cmd
}

/// The installed toolchains, as `rustup toolchain list` names them
/// (`stable-x86_64-unknown-linux-gnu (default)`).
pub fn installed() -> Vec<String> {
    rustup()
        .args(["toolchain", "list"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_made_absolute_and_a_missing_one_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let rustc = dir.path().join("rustc");
        std::fs::write(&rustc, "").unwrap();
        let t = find(&rustc.display().to_string()).unwrap();
        assert_eq!(t.rustc, rustc);
        let e = resolve("./no/such/rustc").unwrap_err().to_string();
        assert!(e.contains("no compiler at ./no/such/rustc"), "{e}");
    }

    #[test]
    fn a_compiler_that_does_not_run_as_rustc_is_refused() {
        let e = resolve("/bin/false").unwrap_err().to_string();
        assert!(
            e.starts_with("--toolchain /bin/false: the compiler /bin/false could not be run (`-vV` exited with exit status: 1)"),
            "{e}"
        );
        let e = resolve("/bin/true").unwrap_err().to_string();
        assert!(
            e.contains("`-vV` printed \"nothing\", not a rustc version"),
            "{e}"
        );
    }

    #[test]
    fn an_unknown_name_lists_the_installed_toolchains() {
        let e = resolve("no-such-toolchain-0.0.1").unwrap_err();
        let Error::Unknown {
            installed: list, ..
        } = &e
        else {
            panic!("{e}");
        };
        assert_eq!(list, &installed());
        let text = e.to_string();
        assert!(
            text.contains("rustup has no toolchain `no-such-toolchain-0.0.1` installed"),
            "{text}"
        );
        for t in list {
            assert!(text.contains(t.as_str()), "{text}");
        }
    }
}
