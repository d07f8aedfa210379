//! What binds a cache entry to its place: a MAC (HMAC-SHA-256 over the
//! entry's namespace, key and payload) under a secret of the cache's, so
//! that an entry nobody with the secret made, or one moved to another
//! key, is a miss.
//!
//! A secret is 32 random bytes in a file of the cache's directory,
//! `secret-<id>` (its id: the first 16 hex digits of its SHA-256), made
//! on first use, mode 0600, written whole before it is linked into
//! place. An entry names the secret it was sealed with. A directory may
//! hold several: caches of CI jobs that each checked a share of a book
//! (`--partition`) and were copied into one keep every job's entries. A
//! secret whose file is missing or cannot be read leaves the entries it
//! sealed misses, and a process that finds none makes a fresh one. Which
//! secrets a process trusts is fixed the first time it reads them: one
//! that appears later (made by whatever runs meanwhile) seals nothing
//! this process takes.

use mdbook_companion_core::hash;
use std::collections::HashMap;
use std::io::Write as _;
use std::path::Path;
use std::sync::Arc;

/// The bytes of a secret.
const LEN: usize = 32;

/// What a secret's file name starts with.
const PREFIX: &str = "secret-";

/// The secrets read from one directory at most (a directory full of
/// them costs a read each, once).
const MAX: usize = 64;

/// The first line of every entry, up to the id of its secret: the
/// format's version and the MAC's name. Then `<id>:<mac>` and a newline.
const MAGIC: &[u8] = b"companion-cache 2 hmac-sha256 ";

/// Hex digits of a secret's id.
const ID_LEN: usize = 16;

/// A secret and its id.
pub(super) type Secret = (String, [u8; LEN]);

/// The secrets of one cache directory, as this process knows them.
#[derive(Debug, Default)]
pub(super) struct Secrets {
    /// The directory's secrets were read.
    read: bool,
    /// The secrets this process trusts, by id: those read, and its own.
    known: Arc<HashMap<String, [u8; LEN]>>,
    /// The secret this process seals with.
    own: Option<Secret>,
}

impl Secrets {
    /// The secrets entries are opened with, read from `dir` the first
    /// time.
    pub(super) fn known(&mut self, dir: &Path) -> Arc<HashMap<String, [u8; LEN]>> {
        if !self.read {
            self.read = true;
            self.known = Arc::new(read_all(dir));
        }
        Arc::clone(&self.known)
    }

    /// The secret this process seals with: one of `dir`'s (the same one
    /// every time), or a fresh one made there. Its file is put back when
    /// it is gone (the cache deleted while this process runs), so that
    /// what it seals stays open to the next process.
    pub(super) fn own(&mut self, dir: &Path) -> std::io::Result<Secret> {
        let known = self.known(dir);
        if let Some((id, secret)) = &self.own {
            if std::fs::symlink_metadata(dir.join(format!("{PREFIX}{id}"))).is_err() {
                write(dir, secret)?;
            }
            return Ok((id.clone(), *secret));
        }
        let own = match known.iter().min_by(|a, b| a.0.cmp(b.0)) {
            Some((id, secret)) => (id.clone(), *secret),
            None => {
                let mut secret = [0u8; LEN];
                getrandom::fill(&mut secret).map_err(std::io::Error::other)?;
                let id = write(dir, &secret)?;
                Arc::make_mut(&mut self.known).insert(id.clone(), secret);
                (id, secret)
            }
        };
        self.own = Some(own.clone());
        Ok(own)
    }
}

/// A secret's id.
fn id(secret: &[u8; LEN]) -> String {
    hash::sha256(secret)[..ID_LEN].to_owned()
}

/// Every secret of `dir` that can be read: a regular file named for it,
/// of [`LEN`] bytes whose id is its name's.
fn read_all(dir: &Path) -> HashMap<String, [u8; LEN]> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.starts_with(PREFIX))
        .collect();
    names.sort();
    names
        .into_iter()
        .filter_map(|name| {
            let bytes = read(&dir.join(&name))?;
            let id = id(&bytes);
            (name[PREFIX.len()..] == id).then_some((id, bytes))
        })
        .take(MAX)
        .collect()
}

/// The secret in the file at `path`: a regular file (not followed if it
/// is a link, not waited on if it is a FIFO) of [`LEN`] bytes, read no
/// further than that.
fn read(path: &Path) -> Option<[u8; LEN]> {
    use std::io::Read as _;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let file = options.open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::with_capacity(LEN + 1);
    file.take(LEN as u64 + 1).read_to_end(&mut bytes).ok()?;
    bytes.try_into().ok()
}

/// Writes `secret` into `dir` as its file (only its owner may read it),
/// whole before it is linked into place; its id.
fn write(dir: &Path, secret: &[u8; LEN]) -> std::io::Result<String> {
    let id = id(secret);
    let mut builder = tempfile::Builder::new();
    builder.prefix(".secret-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        builder.permissions(std::fs::Permissions::from_mode(0o600));
    }
    let mut file = builder.tempfile_in(dir)?;
    file.write_all(secret)?;
    let path = dir.join(format!("{PREFIX}{id}"));
    match file.persist_noclobber(&path) {
        Ok(_) => Ok(id),
        // The same secret, or something else by its name (which is not
        // read as a secret, and is replaced).
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {
            if read(&path).as_ref() != Some(secret) {
                e.file.persist(&path).map_err(|e| e.error)?;
            }
            Ok(id)
        }
        Err(e) => Err(e.error),
    }
}

/// The parts a MAC is over: the namespace and key an entry is stored
/// under, and its payload.
fn bound<'a>(namespace: &'a str, key: &'a str, bytes: &'a [u8]) -> [&'a [u8]; 3] {
    [namespace.as_bytes(), key.as_bytes(), bytes]
}

/// An entry as stored: `MAGIC`, the id of the secret it is sealed with,
/// `:`, the hex MAC of its namespace, key and `bytes` under that secret,
/// a newline, then `bytes`.
pub(super) fn seal(secret: &Secret, namespace: &str, key: &str, bytes: &[u8]) -> Vec<u8> {
    let (id, secret) = secret;
    let tag = hash::mac(secret, &bound(namespace, key, bytes));
    let mut out = Vec::with_capacity(MAGIC.len() + id.len() + 1 + tag.len() + 1 + bytes.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(id.as_bytes());
    out.push(b':');
    out.extend_from_slice(tag.as_bytes());
    out.push(b'\n');
    out.extend_from_slice(bytes);
    out
}

/// The payload of an entry stored under `namespace` and `key`, if its
/// header is right and its MAC holds under the secret it names, one of
/// `known`.
pub(super) fn open<'s>(
    known: &HashMap<String, [u8; LEN]>,
    namespace: &str,
    key: &str,
    stored: &'s [u8],
) -> Option<&'s [u8]> {
    const TAG: usize = 2 * hash::MAC_LEN;
    let rest = stored.strip_prefix(MAGIC)?;
    let id = std::str::from_utf8(rest.get(..ID_LEN)?).ok()?;
    let rest = rest.get(ID_LEN..)?.strip_prefix(b":")?;
    let (tag, newline, bytes) = (rest.get(..TAG)?, rest.get(TAG)?, rest.get(TAG + 1..)?);
    let secret = known.get(id)?;
    (*newline == b'\n' && hash::mac_holds(secret, &bound(namespace, key, bytes), tag))
        .then_some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_opens_under_its_secret_namespace_and_key_only() {
        let dir = tempfile::tempdir().unwrap();
        let mut secrets = Secrets::default();
        let own = secrets.own(dir.path()).unwrap();
        let known = secrets.known(dir.path());
        let stored = seal(&own, "check", "k1", b"payload");
        assert_eq!(open(&known, "check", "k1", &stored), Some(&b"payload"[..]));
        assert_eq!(open(&known, "check", "k2", &stored), None);
        assert_eq!(open(&known, "check-again", "k1", &stored), None);
        // Another secret by the same id: a MAC that does not hold.
        let other = (own.0.clone(), [7; LEN]);
        assert_eq!(
            open(
                &known,
                "check",
                "k1",
                &seal(&other, "check", "k1", b"payload")
            ),
            None
        );
        // An unknown secret's entry.
        let unknown = ("0123456789abcdef".to_owned(), [7; LEN]);
        assert_eq!(
            open(
                &known,
                "check",
                "k1",
                &seal(&unknown, "check", "k1", b"payload")
            ),
            None
        );
        // Cut anywhere in its header.
        for cut in 0..MAGIC.len() + ID_LEN + 2 + 2 * hash::MAC_LEN {
            assert_eq!(open(&known, "check", "k1", &stored[..cut]), None, "{cut}");
        }
    }

    #[test]
    fn a_process_seals_with_one_secret_and_reads_every_readable_one() {
        let dir = tempfile::tempdir().unwrap();
        let mut first = Secrets::default();
        let a = first.own(dir.path()).unwrap();
        assert_eq!(first.own(dir.path()).unwrap(), a, "one secret per process");
        // Another process takes the one that is there.
        assert_eq!(Secrets::default().own(dir.path()).unwrap(), a);
        // A second cache's secret copied in (CI shares merged): both read.
        let b = {
            let elsewhere = tempfile::tempdir().unwrap();
            let b = Secrets::default().own(elsewhere.path()).unwrap();
            let name = format!("{PREFIX}{}", b.0);
            std::fs::copy(elsewhere.path().join(&name), dir.path().join(&name)).unwrap();
            b
        };
        let known = Secrets::default().known(dir.path());
        assert_eq!(known.get(&a.0), Some(&a.1));
        assert_eq!(known.get(&b.0), Some(&b.1));
        // A secret that appears after a process read them is not its.
        let c = (id(&[3; LEN]), [3; LEN]);
        write(dir.path(), &c.1).unwrap();
        assert!(!first.known(dir.path()).contains_key(&c.0));
        // A file whose bytes are not the secret its name says is none.
        std::fs::write(dir.path().join(format!("{PREFIX}{}", c.0)), [4; LEN]).unwrap();
        assert!(!Secrets::default().known(dir.path()).contains_key(&c.0));
        // Gone while a process runs: put back, the same.
        std::fs::remove_file(dir.path().join(format!("{PREFIX}{}", a.0))).unwrap();
        assert_eq!(first.own(dir.path()).unwrap(), a);
        assert_eq!(Secrets::default().known(dir.path()).get(&a.0), Some(&a.1));
    }
}
