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
