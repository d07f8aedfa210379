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
use std::collections::hash_map::Entry;
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

    /// Reads the packs of `namespace` now (one of [`PACKED`]), as its
    /// first [`Cache::get`] would: on a thread of its own while the book
    /// loads, rather than while every worker waits for it.
    pub fn preload(&self, namespace: &str) {
        if PACKED.contains(&namespace) && self.exists() {
            let mut packs = self.packs.lock().unwrap_or_else(|e| e.into_inner());
            self.load(&mut packs, namespace);
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
    /// `PACKS` (16) packs are written again as one, with the records whose
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
                    // A record's MAC is checked when it is read (`get`);
                    // here only where a second record of its key must
                    // choose between them.
                    for (key, stored) in records(&pack) {
                        match entries.entry(key) {
                            Entry::Vacant(v) => {
                                v.insert(stored);
                            }
                            Entry::Occupied(mut o) => {
                                if seal::open(&known, namespace, o.key(), &stored).is_some() {
                                    o.insert(stored);
                                }
                            }
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
            Entry::Occupied(o) => o.into_mut(),
            Entry::Vacant(v) => {
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
mod tests;
