//! The one guard for every command that writes a file of the author's
//! (`adopt --write`, `check --bless`, `install`).
//!
//! A file is written only when it resolves, after following symbolic
//! links, to a place inside the directory the command may write in (the
//! book's `src` for chapters, the book's root for `install`). A chapter
//! that is a symbolic link is written through to its target when that
//! target is inside, and the link is kept; a link leading out, a dangling
//! link, a read-only file and anything that is not a regular file are
//! refused with a sentence that says why. The write itself is atomic (a
//! temporary file beside the target, renamed over it) and keeps the file's
//! permissions.

use std::io::Write as _;
use std::path::{Component, Path, PathBuf};

/// Why a file was not written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path} {why}")]
pub struct Refused {
    /// The path as the command was given it.
    pub path: String,
    /// What is wrong, and what was expected.
    pub why: String,
    /// The path leads out of the directory (or nowhere), as opposed to a
    /// file inside that may not be written.
    pub leaves: bool,
}

/// The real file to write for `path`, which must stay inside `within`
/// (`what` names that directory in messages: "the book's src").
///
/// An existing path is resolved through its symbolic links and must be a
/// writable regular file; a path that does not exist yet is resolved
/// through its deepest existing ancestor.
pub fn target(within: &Path, what: &str, path: &Path) -> Result<PathBuf, Refused> {
    let refuse = |why: String| Refused {
        path: path.display().to_string(),
        why,
        leaves: true,
    };
    let stays = |why: String| Refused {
        leaves: false,
        ..refuse(why)
    };
    let root = within
        .canonicalize()
        .map_err(|e| refuse(format!("cannot be checked: resolving {what}: {e}")))?;
    let link = path.symlink_metadata().ok();
    let real = if link.is_some() {
        path.canonicalize().map_err(|e| {
            refuse(format!(
                "is a symbolic link that leads nowhere ({e}); expected a file inside {what}"
            ))
        })?
    } else {
        // A new file: its deepest existing ancestor decides.
        let mut rest = Vec::new();
        let mut at = path;
        loop {
            if at.symlink_metadata().is_ok() {
                break;
            }
            match (at.file_name(), at.parent()) {
                (Some(name), Some(parent)) => {
                    rest.push(name.to_owned());
                    at = parent;
                }
                _ => return Err(refuse(format!("has no existing folder inside {what}"))),
            }
        }
        let mut real = at
            .canonicalize()
            .map_err(|e| refuse(format!("cannot be resolved: {e}")))?;
        real.extend(rest.iter().rev());
        real
    };
    if !real.starts_with(&root)
        || real
            .components()
            .any(|c| matches!(c, Component::ParentDir | Component::CurDir))
    {
        let how = if link.as_ref().is_some_and(|m| m.file_type().is_symlink()) {
            "is a symbolic link to"
        } else {
            "resolves to"
        };
        return Err(refuse(format!(
            "{how} {}, outside {what}; expected a file inside it",
            real.display()
        )));
    }
    if let Ok(meta) = std::fs::metadata(&real) {
        if !meta.is_file() {
            return Err(stays("is not a regular file".to_owned()));
        }
        if read_only(&meta) {
            return Err(stays(
                "is read-only; make it writable to let this command change it".to_owned(),
            ));
        }
    }
    Ok(real)
}

/// No one may write the file (no write bit at all): an author's way of
/// saying "do not touch", honoured even when running as root.
fn read_only(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        meta.permissions().mode() & 0o222 == 0
    }
    #[cfg(not(unix))]
    {
        meta.permissions().readonly()
    }
}

/// Writes `bytes` to `real` (from [`target`]) atomically: a temporary
/// file in the same folder, given the old file's permissions, renamed
/// over it. Missing folders are made.
pub fn write(real: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = real.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    match std::fs::metadata(real) {
        Ok(meta) => tmp.as_file().set_permissions(meta.permissions())?,
        Err(_) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt as _;
                tmp.as_file()
                    .set_permissions(std::fs::Permissions::from_mode(0o644))?;
            }
        }
    }
    tmp.persist(real).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt as _, symlink};

    #[test]
    fn links_inside_are_written_through_and_kept() {
        let book = tempfile::tempdir().unwrap();
        let src = book.path().join("src");
        std::fs::create_dir_all(src.join("real")).unwrap();
        std::fs::write(src.join("real/a.md"), "old").unwrap();
        symlink("real/a.md", src.join("link.md")).unwrap();
        let real = target(&src, "the book's src", &src.join("link.md")).unwrap();
        assert_eq!(real, src.canonicalize().unwrap().join("real/a.md"));
        write(&real, b"new").unwrap();
        assert!(
            src.join("link.md")
                .symlink_metadata()
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            std::fs::read_to_string(src.join("real/a.md")).unwrap(),
            "new"
        );
    }

    #[test]
    fn outside_dangling_read_only_and_odd_files_are_refused() {
        let book = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let src = book.path().join("src");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(outside.path().join("o.md"), "x").unwrap();
        symlink(outside.path().join("o.md"), src.join("out.md")).unwrap();
        symlink(src.join("gone.md"), src.join("dangling.md")).unwrap();
        std::fs::write(src.join("ro.md"), "x").unwrap();
        std::fs::set_permissions(src.join("ro.md"), std::fs::Permissions::from_mode(0o444))
            .unwrap();
        std::fs::create_dir(src.join("dir.md")).unwrap();
        let why = |p: &Path| target(&src, "the book's src", p).unwrap_err().why;
        assert!(
            why(&src.join("out.md")).starts_with("is a symbolic link to "),
            "{}",
            why(&src.join("out.md"))
        );
        assert!(
            why(&src.join("out.md"))
                .ends_with(", outside the book's src; expected a file inside it")
        );
        assert!(why(&src.join("../../x.md")).starts_with("resolves to "));
        assert!(why(&src.join("dangling.md")).contains("leads nowhere"));
        assert_eq!(
            why(&src.join("ro.md")),
            "is read-only; make it writable to let this command change it"
        );
        assert_eq!(why(&src.join("dir.md")), "is not a regular file");
        // A new file inside is fine.
        assert!(target(&src, "the book's src", &src.join("new/b.md")).is_ok());
    }
}
