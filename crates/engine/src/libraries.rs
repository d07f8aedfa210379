//! `check --library-path DIR` (`mdbook test -L DIR`): the compiled crates
//! found in those directories, one file per crate name, for the blocks
//! that name them ([`super::crates::Crates::args`] passes them).

use std::path::{Path, PathBuf};

/// A directory made absolute from the working directory.
pub(crate) fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The crates found in `check --library-path` directories, as `mdbook
/// test -L DIR` offers them to rustdoc: each passed by `--extern` to the
/// blocks that name it, the most recently built file when a directory
/// holds several builds of one crate (so rustc never sees two candidates,
/// rustdoc's E0464).
#[derive(Debug, Default)]
pub struct Libraries {
    /// The directories, from the root of the file system, in the order given.
    dirs: Vec<PathBuf>,
    /// The file chosen for each crate name.
    chosen: std::collections::BTreeMap<String, Library>,
}

/// One crate's chosen library file.
#[derive(Debug, Clone)]
pub(crate) struct Library {
    pub(crate) file: PathBuf,
    pub(crate) modified: std::time::SystemTime,
    pub(crate) len: u64,
}

impl Libraries {
    /// Scans `dirs` (each made absolute from the working directory): an
    /// error names a directory that does not exist.
    pub fn scan(dirs: &[PathBuf]) -> Result<Libraries, String> {
        let mut out = Libraries::default();
        for dir in dirs {
            let abs = absolute(dir);
            let entries = std::fs::read_dir(&abs).map_err(|e| {
                format!(
                    "--library-path {}: {e}; expected a directory of compiled crates (such as target/debug/deps)",
                    dir.display()
                )
            })?;
            for entry in entries.flatten() {
                let path = entry.path();
                let Some((name, rank)) = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .and_then(library_name)
                else {
                    continue;
                };
                let Ok(meta) = entry.metadata() else { continue };
                let lib = Library {
                    file: path.clone(),
                    modified: meta.modified().unwrap_or(std::time::UNIX_EPOCH),
                    len: meta.len(),
                };
                // A linkable file beats metadata alone; then the newest.
                let better = out.chosen.get(&name).is_none_or(|old| {
                    let old_rank = old
                        .file
                        .file_name()
                        .and_then(|n| n.to_str())
                        .and_then(library_name)
                        .map_or(0, |(_, r)| r);
                    (rank, lib.modified) > (old_rank, old.modified)
                });
                if better {
                    out.chosen.insert(name, lib);
                }
            }
            out.dirs.push(abs);
        }
        Ok(out)
    }

    /// The chosen file of the crate `name`, if one was found.
    pub(crate) fn get(&self, name: &str) -> Option<&Library> {
        self.chosen.get(name)
    }

    /// The directories, in the order given.
    pub(crate) fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// The crate names found.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.chosen.keys().map(String::as_str)
    }
}

/// The crate name of a library file (`libfoo-1a2b.rlib` → `foo`) and how
/// usable the file is (2: linkable, 1: metadata only).
fn library_name(file: &str) -> Option<(String, u8)> {
    let stem = file.strip_prefix("lib")?;
    let (stem, rank) = [(".rlib", 2), (".so", 2), (".dylib", 2), (".rmeta", 1)]
        .into_iter()
        .find_map(|(ext, rank)| stem.strip_suffix(ext).map(|s| (s, rank)))?;
    let name = match stem.rsplit_once('-') {
        Some((name, hash)) if hash.bytes().all(|b| b.is_ascii_hexdigit()) => name,
        _ => stem,
    };
    (!name.is_empty() && name.chars().all(|c| c == '_' || c.is_alphanumeric()))
        .then(|| (name.to_owned(), rank))
}
