//! A content-addressed cache of build-time work (assembly listings,
//! verdicts of `check`) under the book: `<book>/.companion-cache/`.
//!
//! Keys are SHA-256 hashes of everything that determines a result (code,
//! attributes, compiler version, flags). The cache is an optimisation only:
//! a directory that cannot be created, read or written, or an entry that is
//! corrupt, means "compute it again", with a warning, never a wrong result.
//! The directory holds a `.gitignore` of `*`, so git ignores it.
//!
//! Most entries are files of their own (`<namespace>/<ab>/<key>`). The
//! namespaces a cold `check` writes an entry per block in ([`PACKED`])
//! are written as packs instead: each process appends its entries to one
//! file per namespace (`<namespace>/pack-…`), and the first read of a
//! namespace reads its packs whole. A file per entry cost a cold check of
//! the Reference (959 entries) 0.3–0.8 s of CPU on a filesystem that
//! looks past recently deleted inodes for each new one (ext4 without a
//! journal); a pack costs milliseconds. A record cut short (a process
//! killed while writing) ends the pack's reading; a record whose checksum
//! is wrong is a miss, as an entry's file is.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// The cache directory's name, under the book root.
pub const DIR: &str = ".companion-cache";

/// The namespaces written as packs (see the module's documentation): a
/// check's observations, second runs and further runs.
pub const PACKED: [&str; 3] = ["check", "check-again", "check-runs"];

/// The first line of a pack.
const PACK_MAGIC: &[u8] = b"companion-cache-pack 1\n";

/// The packs of one cache directory, shared by every handle on it in this
/// process: the entries read or written, by namespace and key (stored
/// form, as [`frame`] makes it), and the pack this process appends to in
/// each namespace.
#[derive(Debug, Default)]
struct Packs {
    entries: HashMap<String, HashMap<String, Vec<u8>>>,
    own: HashMap<String, std::fs::File>,
}

/// A cache rooted in one directory.
#[derive(Debug)]
pub struct Cache {
    dir: Option<PathBuf>,
    warned: AtomicBool,
    packs: Arc<Mutex<Packs>>,
}

/// The packs of `dir`, the same for every handle on it in this process.
fn packs_of(dir: &Path) -> Arc<Mutex<Packs>> {
    static ALL: OnceLock<Mutex<HashMap<PathBuf, Arc<Mutex<Packs>>>>> = OnceLock::new();
    let all = ALL.get_or_init(Mutex::default);
    let mut all = all.lock().unwrap_or_else(|e| e.into_inner());
    Arc::clone(all.entry(dir.to_path_buf()).or_default())
}

/// The records of a pack (`PACK_MAGIC`, then for each entry a line
/// `<key> <length>` and the stored entry of that length), up to the
/// first that is cut short or malformed.
fn records(pack: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let Some(mut rest) = pack.strip_prefix(PACK_MAGIC) else {
        return out;
    };
    while let Some(end) = rest.iter().position(|&b| b == b'\n') {
        let Some((key, len)) = std::str::from_utf8(&rest[..end])
            .ok()
            .and_then(|line| line.split_once(' '))
            .and_then(|(k, l)| Some((k.to_owned(), l.parse::<usize>().ok()?)))
        else {
            break;
        };
        let Some(stored) = rest.get(end + 1..end + 1 + len) else {
            break;
        };
        out.push((key, stored.to_vec()));
        rest = &rest[end + 1 + len..];
    }
    out
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
            packs: packs_of(&dir),
            dir: Some(dir),
            warned: AtomicBool::new(false),
        }
    }

    /// Another handle on the same directory (or another disabled cache).
    pub fn handle(&self) -> Cache {
        Cache {
            dir: self.dir.clone(),
            warned: AtomicBool::new(false),
            packs: Arc::clone(&self.packs),
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
            packs: Arc::default(),
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
        let stored = match self.packed(namespace, key) {
            Some(stored) => stored,
            None => read_regular(&path)?,
        };
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
        let written = match PACKED.contains(&namespace) {
            true => self.append(namespace, key, bytes),
            false => self.write(&path, bytes),
        };
        if let Err(e) = written
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

    /// The stored entry for `key` in the packs of `namespace` (read
    /// whole the first time), if any.
    fn packed(&self, namespace: &str, key: &str) -> Option<Vec<u8>> {
        if !PACKED.contains(&namespace) {
            return None;
        }
        let mut packs = self.packs.lock().unwrap_or_else(|e| e.into_inner());
        self.load(&mut packs, namespace)?.get(key).cloned()
    }

    /// The entries of `namespace`'s packs, read the first time. Of two
    /// records of one key, one whose checksum holds is kept. More than
    /// [`PACKS`] packs are written again as one (what another process
    /// still appends to a pack removed here is lost: a miss, later).
    fn load<'p>(
        &self,
        packs: &'p mut Packs,
        namespace: &str,
    ) -> Option<&'p mut HashMap<String, Vec<u8>>> {
        /// Packs in a namespace beyond which they are written as one.
        const PACKS: usize = 16;
        if !packs.entries.contains_key(namespace) {
            let mut entries: HashMap<String, Vec<u8>> = HashMap::new();
            let dir = self.dir.as_ref()?.join(namespace);
            let mut files = Vec::new();
            for file in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                if !file.file_name().as_encoded_bytes().starts_with(b"pack-") {
                    continue;
                }
                if let Some(pack) = read_regular(&file.path()) {
                    for (key, stored) in records(&pack) {
                        if unframe(&stored).is_some() || !entries.contains_key(&key) {
                            entries.insert(key, stored);
                        }
                    }
                }
                files.push(file.path());
            }
            if files.len() > PACKS && !packs.own.contains_key(namespace) {
                let mut whole = PACK_MAGIC.to_vec();
                for (key, stored) in entries.iter().filter(|(_, e)| unframe(e).is_some()) {
                    whole.extend_from_slice(format!("{key} {}\n", stored.len()).as_bytes());
                    whole.extend_from_slice(stored);
                }
                let written = tempfile::Builder::new()
                    .prefix("pack-")
                    .tempfile_in(&dir)
                    .and_then(|mut f| f.write_all(&whole).map(|()| f))
                    .and_then(|f| f.keep().map_err(|e| e.error));
                if written.is_ok() {
                    for file in files {
                        let _ = std::fs::remove_file(file);
                    }
                }
            }
            packs.entries.insert(namespace.to_owned(), entries);
        }
        packs.entries.get_mut(namespace)
    }

    /// Appends `bytes` for `key` to this process's pack of `namespace`.
    fn append(&self, namespace: &str, key: &str, bytes: &[u8]) -> std::io::Result<()> {
        let Some(dir) = self.ensure_dir()? else {
            return Ok(());
        };
        let stored = frame(bytes);
        let mut record = format!("{key} {}\n", stored.len()).into_bytes();
        record.extend_from_slice(&stored);
        let mut packs = self.packs.lock().unwrap_or_else(|e| e.into_inner());
        let file = match packs.own.entry(namespace.to_owned()) {
            std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let dir = dir.join(namespace);
                std::fs::create_dir_all(&dir)?;
                let mut file = tempfile::Builder::new()
                    .prefix("pack-")
                    .tempfile_in(&dir)?
                    .keep()
                    .map_err(|e| e.error)?
                    .0;
                file.write_all(PACK_MAGIC)?;
                v.insert(file)
            }
        };
        // One write per record: a record is whole, or the pack's last.
        file.write_all(&record)?;
        if let Some(entries) = self.load(&mut packs, namespace) {
            entries.insert(key.to_owned(), stored);
        }
        Ok(())
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

    /// A cache on `dir` as another process sees it (no entry of this
    /// one's in memory).
    fn another_process(dir: &Path) -> Cache {
        Cache {
            packs: Arc::default(),
            ..Cache::for_book(dir)
        }
    }

    #[test]
    fn a_checks_entries_go_into_one_pack_that_another_process_reads() {
        let dir = tempfile::tempdir().unwrap();
        let cache = another_process(dir.path());
        for n in 0..50u8 {
            cache.put("check", &Cache::key(&[&[n]]), &[n; 300]);
        }
        // One pack, whatever the count of entries.
        let files = std::fs::read_dir(dir.path().join(DIR).join("check")).unwrap();
        assert_eq!(files.count(), 1);
        let other = another_process(dir.path());
        for n in 0..50u8 {
            assert_eq!(other.get("check", &Cache::key(&[&[n]])), Some(vec![n; 300]));
        }
        assert_eq!(other.get("check", &Cache::key(&[b"never"])), None);
    }

    #[test]
    fn a_pack_cut_short_keeps_its_whole_records_and_a_corrupt_one_is_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        let cache = another_process(dir.path());
        let (a, b, c) = (
            Cache::key(&[b"a"]),
            Cache::key(&[b"b"]),
            Cache::key(&[b"c"]),
        );
        cache.put("check", &a, b"first");
        cache.put("check", &b, b"second");
        cache.put("check", &c, b"third");
        let pack = std::fs::read_dir(dir.path().join(DIR).join("check"))
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let mut bytes = std::fs::read(&pack).unwrap();
        // The second record's payload changed, the third cut short (a
        // process killed while it wrote).
        let at = bytes.windows(6).position(|w| w == b"second").unwrap();
        bytes[at] = b'S';
        bytes.truncate(bytes.len() - 2);
        std::fs::write(&pack, &bytes).unwrap();
        let other = another_process(dir.path());
        assert_eq!(other.get("check", &a).as_deref(), Some(&b"first"[..]));
        assert_eq!(other.get("check", &b), None);
        assert_eq!(other.get("check", &c), None);
        // Written again (into the other's own pack), the whole record is
        // the one read, whichever pack is read last.
        other.put("check", &b, b"second");
        assert_eq!(
            another_process(dir.path()).get("check", &b).as_deref(),
            Some(&b"second"[..])
        );
    }

    #[test]
    fn many_packs_are_written_again_as_one() {
        let dir = tempfile::tempdir().unwrap();
        for n in 0..20u8 {
            another_process(dir.path()).put("check", &Cache::key(&[&[n]]), &[n]);
        }
        let count = || {
            std::fs::read_dir(dir.path().join(DIR).join("check"))
                .unwrap()
                .count()
        };
        assert_eq!(count(), 20);
        let reader = another_process(dir.path());
        assert_eq!(reader.get("check", &Cache::key(&[&[7]])), Some(vec![7]));
        assert_eq!(count(), 1);
        let after = another_process(dir.path());
        for n in 0..20u8 {
            assert_eq!(after.get("check", &Cache::key(&[&[n]])), Some(vec![n]));
        }
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
