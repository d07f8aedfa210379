//! A content-addressed cache of build-time work (assembly listings,
//! verdicts of `check`) under the book: `<book>/.companion-cache/`.
//!
//! Keys are SHA-256 hashes of everything that determines a result (code,
//! attributes, compiler version, flags). The cache is an optimisation only:
//! a directory that cannot be created, read or written, or an entry that is
//! corrupt, means "compute it again", with a warning, never a wrong result.
//! The directory holds a `.gitignore` of `*`, so git ignores it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// The cache directory's name, under the book root.
pub const DIR: &str = ".companion-cache";

/// A cache rooted in one directory.
#[derive(Debug)]
pub struct Cache {
    dir: Option<PathBuf>,
    warned: AtomicBool,
}

/// The bytes of the regular file at `path`; `None` for anything else.
///
/// The file is opened without blocking and without following a symbolic
/// link, and checked to be a regular file before it is read: a FIFO placed
/// in the cache would otherwise hang the build on `open`, a device would
/// be read forever. Such an entry is a miss, computed again and replaced.
fn read_regular(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read as _;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let mut file = options.open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

impl Cache {
    /// The cache of the book at `root` (created on first write).
    pub fn for_book(root: &Path) -> Cache {
        Cache::at(root.join(DIR))
    }

    /// A cache in `dir`.
    pub fn at(dir: PathBuf) -> Cache {
        Cache {
            dir: Some(dir),
            warned: AtomicBool::new(false),
        }
    }

    /// Another handle on the same directory (or another disabled cache).
    pub fn handle(&self) -> Cache {
        Cache {
            dir: self.dir.clone(),
            warned: AtomicBool::new(false),
        }
    }

    /// Whether the cache's directory is there (something was ever stored).
    pub fn exists(&self) -> bool {
        self.dir.as_ref().is_some_and(|d| d.is_dir())
    }

    /// A cache that stores nothing.
    pub fn disabled() -> Cache {
        Cache {
            dir: None,
            warned: AtomicBool::new(false),
        }
    }

    /// The hash key of some parts; each part is length-prefixed so that
    /// `["ab", "c"]` and `["a", "bc"]` differ.
    pub fn key(parts: &[&[u8]]) -> String {
        mdbook_companion_core::hash::key(parts)
    }

    fn path(&self, namespace: &str, key: &str) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        let (a, _) = key.split_at_checked(2)?;
        Some(dir.join(namespace).join(a).join(key))
    }

    /// The stored bytes for `key`, if any. An entry that is not in the
    /// current format or whose checksum does not match (a torn write, a
    /// flipped bit, a hand edit) is reported once and treated as a miss, so
    /// it is computed again and overwritten, never shown.
    pub fn get(&self, namespace: &str, key: &str) -> Option<Vec<u8>> {
        let path = self.path(namespace, key)?;
        let stored = read_regular(&path)?;
        match unframe(&stored) {
            Some(bytes) => Some(bytes.to_vec()),
            None => {
                if !self.warned.swap(true, Ordering::Relaxed) {
                    tracing::warn!(
                        "ignoring a corrupt cache entry at {}; computing it again",
                        path.display()
                    );
                }
                None
            }
        }
    }

    /// Stores `bytes` for `key` (replacing whatever was at its place, a
    /// FIFO or a link included); failures are warned about once and
    /// otherwise ignored.
    pub fn put(&self, namespace: &str, key: &str, bytes: &[u8]) {
        let Some(path) = self.path(namespace, key) else {
            return;
        };
        if let Err(e) = self.write(&path, bytes)
            && !self.warned.swap(true, Ordering::Relaxed)
        {
            tracing::warn!(
                "cannot write the cache at {}: {e}; results will be computed again next time",
                path.display()
            );
        }
    }

    /// The cache's directory, made (with its `.gitignore`) if it is not
    /// there; `None` for a disabled cache.
    pub fn ensure_dir(&self) -> std::io::Result<Option<&Path>> {
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        if !dir.exists() {
            std::fs::create_dir_all(dir)?;
            std::fs::write(dir.join(".gitignore"), "*\n")?;
        }
        Ok(Some(dir))
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        self.ensure_dir()?;
        let parent = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent)?;
        let mut tmp = tempfile::NamedTempFile::new_in(parent)?;
        std::io::Write::write_all(&mut tmp, &frame(bytes))?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    }
}

/// The first line of every entry: format version and the SHA-256 of the
/// bytes that follow.
const MAGIC: &[u8] = b"companion-cache 1 sha256:";

/// An entry as stored: `MAGIC`, the hex checksum of `bytes`, a newline,
/// then `bytes`.
fn frame(bytes: &[u8]) -> Vec<u8> {
    let sum = mdbook_companion_core::hash::sha256(bytes);
    let mut out = Vec::with_capacity(MAGIC.len() + sum.len() + 1 + bytes.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(sum.as_bytes());
    out.push(b'\n');
    out.extend_from_slice(bytes);
    out
}

/// The payload of a stored entry, if its header and checksum are right.
fn unframe(stored: &[u8]) -> Option<&[u8]> {
    let rest = stored.strip_prefix(MAGIC)?;
    let (sum, bytes) = (rest.get(..64)?, rest.get(65..)?);
    if rest.get(64) != Some(&b'\n') {
        return None;
    }
    (mdbook_companion_core::hash::sha256(bytes).as_bytes() == sum).then_some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_gitignore() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::for_book(dir.path());
        let key = Cache::key(&[b"code", b"rustc 1.95"]);
        assert_eq!(cache.get("asm", &key), None);
        cache.put("asm", &key, b"listing");
        assert_eq!(cache.get("asm", &key).as_deref(), Some(&b"listing"[..]));
        assert_eq!(
            std::fs::read_to_string(dir.path().join(DIR).join(".gitignore")).unwrap(),
            "*\n"
        );
    }

    #[test]
    fn keys_separate_parts() {
        assert_ne!(Cache::key(&[b"ab", b"c"]), Cache::key(&[b"a", b"bc"]));
    }

    #[test]
    fn unwritable_cache_is_not_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, "x").unwrap();
        let cache = Cache::at(file.join("cache"));
        cache.put("asm", "abcd", b"x");
        assert_eq!(cache.get("asm", "abcd"), None);
    }

    #[test]
    fn corrupt_entries_are_misses() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::for_book(dir.path());
        let key = Cache::key(&[b"code"]);
        cache.put("asm", &key, b"divide:\n  ret\n");
        let file = dir.path().join(DIR).join("asm").join(&key[..2]).join(&key);
        let good = std::fs::read(&file).unwrap();
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("flipped payload byte", {
                let mut b = good.clone();
                let last = b.len() - 2;
                b[last] ^= 1;
                b
            }),
            ("truncated", good[..good.len() - 3].to_vec()),
            ("header only", good[..MAGIC.len() + 10].to_vec()),
            ("old format (no header)", b"divide:\n  ret\n".to_vec()),
            ("empty", Vec::new()),
            ("garbage", vec![0xff; 100]),
        ];
        for (what, bytes) in cases {
            std::fs::write(&file, &bytes).unwrap();
            assert_eq!(cache.get("asm", &key), None, "{what}");
        }
        // A fresh put repairs the entry.
        cache.put("asm", &key, b"divide:\n  ret\n");
        assert_eq!(
            cache.get("asm", &key).as_deref(),
            Some(&b"divide:\n  ret\n"[..])
        );
    }

    #[test]
    #[cfg(unix)]
    fn a_fifo_or_a_link_in_place_of_an_entry_is_a_miss_and_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::for_book(dir.path());
        let outside = dir.path().join("outside");
        std::fs::write(&outside, frame(b"forged")).unwrap();
        for (key, make) in [
            ("fifo0000", "fifo"),
            ("link0000", "link"),
            ("dir00000", "dir"),
        ] {
            let file = dir.path().join(DIR).join("asm").join(&key[..2]).join(key);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            match make {
                "fifo" => {
                    let c = std::ffi::CString::new(file.as_os_str().as_encoded_bytes()).unwrap();
                    // SAFETY: mkfifo(3) reads a NUL-terminated path we own.
                    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
                }
                "link" => std::os::unix::fs::symlink(&outside, &file).unwrap(),
                _ => std::fs::create_dir(&file).unwrap(),
            }
            // Would block forever on a FIFO opened for reading.
            assert_eq!(cache.get("asm", key), None, "{make}");
            if make != "dir" {
                cache.put("asm", key, b"fresh");
                assert_eq!(
                    cache.get("asm", key).as_deref(),
                    Some(&b"fresh"[..]),
                    "{make}"
                );
            }
        }
        assert_eq!(std::fs::read(&outside).unwrap(), frame(b"forged"));
    }

    #[test]
    fn deleted_cache_is_a_miss_and_is_rebuilt() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::for_book(dir.path());
        cache.put("asm", "abcd", b"x");
        std::fs::remove_dir_all(dir.path().join(DIR)).unwrap();
        assert_eq!(cache.get("asm", "abcd"), None);
        // Written again after the deletion.
        cache.put("asm", "abcd", b"y");
        assert_eq!(cache.get("asm", "abcd").as_deref(), Some(&b"y"[..]));
    }
}
