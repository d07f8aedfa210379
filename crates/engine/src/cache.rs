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
//! namespace reads its packs whole. A file per entry costs a cold check
//! much more on a filesystem that looks past recently deleted inodes for
//! each new one (ext4 without a journal; the figures are on the guide's
//! Performance page). A record cut short (a process
//! killed while writing) ends the pack's reading; a record whose MAC
//! does not hold is a miss, as an entry's file is.
//!
//! Every entry is bound to its namespace and key by a MAC under a secret
//! of the cache's (`seal`): a checksum alone let anyone who could
//! append to a pack plant a record for another block's key (a program
//! saying it printed 42 when it prints 41, and `check` believing it).
//! Without a secret no record can be made that is taken, and the book's
//! programs never see the cache (the sandbox hides it). A secret that is
//! missing or cannot be read leaves its records misses.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

mod seal;

use seal::Secrets;

/// The cache directory's name, under the book root.
pub const DIR: &str = ".companion-cache";

/// The namespaces written as packs (see the module's documentation): a
/// check's observations, second runs and further runs.
pub const PACKED: [&str; 3] = ["check", "check-again", "check-runs"];

/// The first line of a pack.
const PACK_MAGIC: &[u8] = b"companion-cache-pack 2\n";

/// The packs of one cache directory, shared by every handle on it in this
/// process: the entries read or written, by namespace and key (stored
/// form, as [`seal::seal`] makes it), the pack this process appends to in
/// each namespace, and the cache's secrets.
#[derive(Debug, Default)]
struct Packs {
    entries: HashMap<String, HashMap<String, Vec<u8>>>,
    own: HashMap<String, std::fs::File>,
    secrets: Secrets,
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
    /// current format or whose MAC does not hold (a torn write, a flipped
    /// bit, a hand edit, a record planted or moved from another key) is
    /// reported once and treated as a miss, so it is computed again and
    /// overwritten, never shown. Without the cache's secret every entry
    /// is a miss.
    pub fn get(&self, namespace: &str, key: &str) -> Option<Vec<u8>> {
        let path = self.path(namespace, key)?;
        let dir = self.dir.as_ref()?;
        let (known, packed) = {
            let mut packs = self.packs.lock().unwrap_or_else(|e| e.into_inner());
            let known = packs.secrets.known(dir);
            let packed = match PACKED.contains(&namespace) {
                true => self
                    .load(&mut packs, namespace)
                    .and_then(|entries| entries.get(key).cloned()),
                false => None,
            };
            (known, packed)
        };
        let stored = match packed {
            Some(stored) => stored,
            None => read_regular(&path)?,
        };
        match seal::open(&known, namespace, key, &stored) {
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
        let written = self.own_secret().and_then(|secret| {
            let stored = seal::seal(&secret, namespace, key, bytes);
            match PACKED.contains(&namespace) {
                true => self.append(namespace, key, stored),
                false => self.write(&path, &stored),
            }
        });
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
    pub(crate) fn ensure_dir(&self) -> std::io::Result<Option<&Path>> {
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        if !dir.exists() {
            std::fs::create_dir_all(dir)?;
            std::fs::write(dir.join(".gitignore"), "*\n")?;
        }
        Ok(Some(dir))
    }

    /// The secret this process seals entries with (made, with the
    /// cache's directory, if there is none).
    fn own_secret(&self) -> std::io::Result<seal::Secret> {
        let Some(dir) = self.ensure_dir()? else {
            return Err(std::io::Error::other("the cache is disabled"));
        };
        let mut packs = self.packs.lock().unwrap_or_else(|e| e.into_inner());
        packs.secrets.own(dir)
    }

    /// The entries of `namespace`'s packs, read the first time. Of two
    /// records of one key, one whose MAC holds is kept. More than
    /// [`PACKS`] packs are written again as one, with the records whose
    /// MAC holds (what another process still appends to a pack removed
    /// here is lost: a miss, later).
    fn load<'p>(
        &self,
        packs: &'p mut Packs,
        namespace: &str,
    ) -> Option<&'p mut HashMap<String, Vec<u8>>> {
        /// Packs in a namespace beyond which they are written as one.
        const PACKS: usize = 16;
        if !packs.entries.contains_key(namespace) {
            let known = packs.secrets.known(self.dir.as_ref()?);
            let mut entries: HashMap<String, Vec<u8>> = HashMap::new();
            let dir = self.dir.as_ref()?.join(namespace);
            let mut files = Vec::new();
            for file in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                if !file.file_name().as_encoded_bytes().starts_with(b"pack-") {
                    continue;
                }
                if let Some(pack) = read_regular(&file.path()) {
                    for (key, stored) in records(&pack) {
                        if seal::open(&known, namespace, &key, &stored).is_some()
                            || !entries.contains_key(&key)
                        {
                            entries.insert(key, stored);
                        }
                    }
                }
                files.push(file.path());
            }
            if files.len() > PACKS && !packs.own.contains_key(namespace) {
                let mut whole = PACK_MAGIC.to_vec();
                let holds =
                    |(k, e): &(&String, &Vec<u8>)| seal::open(&known, namespace, k, e).is_some();
                for (key, stored) in entries.iter().filter(holds) {
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

    /// Appends the `stored` entry for `key` to this process's pack of
    /// `namespace`.
    fn append(&self, namespace: &str, key: &str, stored: Vec<u8>) -> std::io::Result<()> {
        let Some(dir) = self.ensure_dir()? else {
            return Ok(());
        };
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

    /// Writes the `stored` entry at `path`, atomically.
    fn write(&self, path: &Path, stored: &[u8]) -> std::io::Result<()> {
        self.ensure_dir()?;
        let parent = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent)?;
        let mut tmp = tempfile::NamedTempFile::new_in(parent)?;
        std::io::Write::write_all(&mut tmp, stored)?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    }
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
            ("header only", good[..40].to_vec()),
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
        // Sealed with the cache's own secret: taken, were the link
        // followed.
        cache.ensure_dir().unwrap();
        let own = Secrets::default().own(&dir.path().join(DIR)).unwrap();
        let forged = |key: &str| seal::seal(&own, "asm", key, b"forged");
        std::fs::write(&outside, forged("link0000")).unwrap();
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
        assert_eq!(std::fs::read(&outside).unwrap(), forged("link0000"));
    }

    #[test]
    fn deleted_cache_is_a_miss_and_is_rebuilt() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::for_book(dir.path());
        cache.put("asm", "abcd", b"x");
        std::fs::remove_dir_all(dir.path().join(DIR)).unwrap();
        assert_eq!(cache.get("asm", "abcd"), None);
        // Written again after the deletion, under a secret made again,
        // which the next process reads.
        cache.put("asm", "abcd", b"y");
        assert_eq!(cache.get("asm", "abcd").as_deref(), Some(&b"y"[..]));
        assert_eq!(
            another_process(dir.path()).get("asm", "abcd").as_deref(),
            Some(&b"y"[..])
        );
    }

    /// The path of `key`'s entry in `namespace` (a namespace of files).
    fn entry(dir: &Path, namespace: &str, key: &str) -> PathBuf {
        dir.join(DIR).join(namespace).join(&key[..2]).join(key)
    }

    #[test]
    fn a_record_moved_to_another_key_or_namespace_is_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        let cache = another_process(dir.path());
        let (a, b) = (Cache::key(&[b"prints 42"]), Cache::key(&[b"prints 41"]));
        // A file entry copied to another key's place.
        cache.put("asm", &a, b"listing of a");
        std::fs::create_dir_all(entry(dir.path(), "asm", &b).parent().unwrap()).unwrap();
        std::fs::copy(entry(dir.path(), "asm", &a), entry(dir.path(), "asm", &b)).unwrap();
        assert_eq!(cache.get("asm", &b), None);
        assert_eq!(cache.get("asm", &a).as_deref(), Some(&b"listing of a"[..]));
        // A pack's record appended again under another key, and under the
        // same key in another namespace.
        cache.put("check", &a, b"{\"stdout\":\"42\\n\"}");
        let (pack, stored) = {
            let check = dir.path().join(DIR).join("check");
            let pack = std::fs::read_dir(&check)
                .unwrap()
                .next()
                .unwrap()
                .unwrap()
                .path();
            let bytes = std::fs::read(&pack).unwrap();
            let (_, stored) = records(&bytes).into_iter().find(|(k, _)| *k == a).unwrap();
            (pack, stored)
        };
        let mut bytes = std::fs::read(&pack).unwrap();
        bytes.extend_from_slice(format!("{b} {}\n", stored.len()).as_bytes());
        bytes.extend_from_slice(&stored);
        std::fs::write(&pack, &bytes).unwrap();
        let again = dir.path().join(DIR).join("check-again");
        std::fs::create_dir_all(&again).unwrap();
        std::fs::copy(&pack, again.join("pack-moved")).unwrap();
        let other = another_process(dir.path());
        assert_eq!(other.get("check", &b), None);
        assert_eq!(other.get("check-again", &a), None);
        assert_eq!(
            other.get("check", &a).as_deref(),
            Some(&b"{\"stdout\":\"42\\n\"}"[..])
        );
    }

    /// The cache's secrets' files (`secret-…`) in `dir`'s cache.
    fn secret_files(dir: &Path) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(DIR))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("secret-")
            })
            .collect();
        files.sort();
        files
    }

    #[test]
    fn a_record_needs_a_secret_of_the_caches() {
        for lose in ["removed", "cut short", "a folder"] {
            let dir = tempfile::tempdir().unwrap();
            let cache = another_process(dir.path());
            let key = Cache::key(&[b"code"]);
            cache.put("check", &key, b"observed");
            cache.put("asm", &key, b"listing");
            let [secret] = &secret_files(dir.path())[..] else {
                panic!("one secret");
            };
            // Only its owner may read it.
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt as _;
                let mode = std::fs::metadata(secret).unwrap().permissions().mode();
                assert_eq!(mode & 0o777, 0o600);
            }
            // A record made as one who knows all but the secret could (the
            // secret's id, the namespace, key and payload) is a miss.
            let id = secret.file_name().unwrap().to_string_lossy()["secret-".len()..].to_owned();
            let guessed = seal::seal(&(id, [0; 32]), "asm", &key, b"planted");
            std::fs::write(entry(dir.path(), "asm", &key), guessed).unwrap();
            assert_eq!(another_process(dir.path()).get("asm", &key), None);
            cache.put("asm", &key, b"listing");
            assert_eq!(
                another_process(dir.path()).get("asm", &key).as_deref(),
                Some(&b"listing"[..])
            );
            // Without the secret every record is a miss, and the next
            // write makes a fresh one.
            let bytes = std::fs::read(secret).unwrap();
            std::fs::remove_file(secret).unwrap();
            match lose {
                "cut short" => std::fs::write(secret, &bytes[..5]).unwrap(),
                "a folder" => std::fs::create_dir(secret).unwrap(),
                _ => {}
            }
            let after = another_process(dir.path());
            assert_eq!(after.get("check", &key), None, "{lose}");
            assert_eq!(after.get("asm", &key), None, "{lose}");
            after.put("asm", &key, b"listing");
            assert_eq!(after.get("asm", &key).as_deref(), Some(&b"listing"[..]));
            let files = secret_files(dir.path());
            let fresh = files.iter().find(|f| *f != secret).expect("a fresh secret");
            assert_ne!(std::fs::read(fresh).unwrap(), bytes, "{lose}");
            let next = another_process(dir.path());
            assert_eq!(next.get("asm", &key).as_deref(), Some(&b"listing"[..]));
            assert_eq!(next.get("check", &key), None, "{lose}");
        }
    }

    /// Copies the files under `from` into `to`, as CI merges the caches
    /// of the jobs that each checked a share of a book.
    fn copy_into(from: &Path, to: &Path) {
        for e in std::fs::read_dir(from).unwrap() {
            let path = e.unwrap().path();
            let target = to.join(path.file_name().unwrap());
            if path.is_dir() {
                std::fs::create_dir_all(&target).unwrap();
                copy_into(&path, &target);
            } else {
                std::fs::copy(&path, &target).unwrap();
            }
        }
    }

    #[test]
    fn caches_copied_into_one_keep_every_entry() {
        let (one, two, merged) = (
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
        );
        let (a, b) = (Cache::key(&[b"share 1"]), Cache::key(&[b"share 2"]));
        another_process(one.path()).put("check", &a, b"one");
        another_process(one.path()).put("asm", &a, b"one");
        another_process(two.path()).put("check", &b, b"two");
        another_process(two.path()).put("asm", &b, b"two");
        std::fs::create_dir(merged.path().join(DIR)).unwrap();
        for share in [&one, &two] {
            copy_into(&share.path().join(DIR), &merged.path().join(DIR));
        }
        assert_eq!(secret_files(merged.path()).len(), 2);
        let reader = another_process(merged.path());
        for (key, bytes) in [(&a, &b"one"[..]), (&b, b"two")] {
            assert_eq!(reader.get("check", key).as_deref(), Some(bytes));
            assert_eq!(reader.get("asm", key).as_deref(), Some(bytes));
        }
    }

    #[test]
    fn processes_that_make_a_secret_at_once_keep_their_entries() {
        let dir = tempfile::tempdir().unwrap();
        let caches: Vec<Cache> = (0..8).map(|_| another_process(dir.path())).collect();
        std::thread::scope(|s| {
            for (n, cache) in caches.iter().enumerate() {
                s.spawn(move || cache.put("asm", &Cache::key(&[&[n as u8]]), &[n as u8]));
            }
        });
        let reader = another_process(dir.path());
        for n in 0..8u8 {
            assert_eq!(reader.get("asm", &Cache::key(&[&[n]])), Some(vec![n]));
        }
    }
}
