//! Issue 57: a cache record planted for another block's key is a miss.

use crate::support::BookTest;
use snapbox::str;
use std::path::Path;

/// The records of the pack at `dir` (one process's pack: the first file
/// there), as `(key, stored record)`.
fn pack_records(dir: &Path) -> (std::path::PathBuf, Vec<(String, Vec<u8>)>) {
    let pack = std::fs::read_dir(dir)
        .expect("the pack as the check wrote it")
        .map(|e| e.expect("the pack as the check wrote it").path())
        .find(|p| {
            p.file_name()
                .expect("the pack as the check wrote it")
                .to_string_lossy()
                .starts_with("pack-")
        })
        .expect("a pack");
    let bytes = std::fs::read(&pack).expect("the pack as the check wrote it");
    let mut rest = &bytes[bytes
        .iter()
        .position(|&b| b == b'\n')
        .expect("the pack as the check wrote it")
        + 1..];
    let mut records = Vec::new();
    while let Some(end) = rest.iter().position(|&b| b == b'\n') {
        let line = std::str::from_utf8(&rest[..end]).expect("the pack as the check wrote it");
        let (key, len) = line
            .split_once(' ')
            .expect("the pack as the check wrote it");
        let len: usize = len.parse().expect("the pack as the check wrote it");
        records.push((key.to_owned(), rest[end + 1..end + 1 + len].to_vec()));
        rest = &rest[end + 1 + len..];
    }
    (pack, records)
}

/// A cache record is bound to its key by a secret of the cache's that
/// programs cannot read (issue 57, item 3). Planted as an attacker could
/// make it (the block's own key, a payload that says it printed 42, the
/// record's header as the cache writes it and the payload's SHA-256 where
/// the cache's checksum goes, but no secret), the record is a miss: the
/// program runs again, prints 41 and the claim of 42 fails (before, the
/// planted record was taken and `check` passed).
#[test]
fn a_planted_cache_record_is_a_miss_and_the_false_claim_fails() {
    let book = BookTest::new().chapter(
        "ch.md",
        "```rust example\nfn main() {\n    println!(\"41\");\n}\n```\n\n```output\n42\n```\n",
    );
    let failed = str![[r#"
FAILED  src/ch.md:1: rust example (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -42
    +41
compiler runs: 2, program runs: 2, from cache: 0
0 passed, 1 failed

"#]];
    book.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stdout(failed.clone());
    });
    let (pack, records) = pack_records(&book.root().join(".companion-cache/check"));
    let (key, stored) = records
        .iter()
        .find(|(_, s)| s.windows(6).any(|w| w == br#""41\n""#.as_slice()))
        .expect("the block's record");
    let newline = stored
        .iter()
        .position(|&b| b == b'\n')
        .expect("the pack as the check wrote it");
    let header = &stored[..newline];
    let colon = header
        .iter()
        .rposition(|&b| b == b':')
        .expect("the pack as the check wrote it");
    let payload = String::from_utf8(stored[newline + 1..].to_vec())
        .expect("the pack as the check wrote it")
        .replace(r#""41\n""#, r#""42\n""#);
    let sum = mdbook_companion_core::hash::sha256(payload.as_bytes());
    let mut forged = header[..=colon].to_vec();
    forged.extend_from_slice(sum.as_bytes());
    forged.push(b'\n');
    forged.extend_from_slice(payload.as_bytes());
    // The pack written again with the planted record in the place of the
    // block's own.
    let old = std::fs::read(&pack).expect("the pack as the check wrote it");
    let mut bytes = old[..=old
        .iter()
        .position(|&b| b == b'\n')
        .expect("the pack as the check wrote it")]
        .to_vec();
    for (k, stored) in &records {
        let record = if k == key { &forged } else { stored };
        bytes.extend_from_slice(format!("{k} {}\n", record.len()).as_bytes());
        bytes.extend_from_slice(record);
    }
    std::fs::write(&pack, bytes).expect("the pack as the check wrote it");
    book.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stdout(str![[r#"
FAILED  src/ch.md:1: rust example (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -42
    +41
compiler runs: 1, program runs: 1, from cache: 0
0 passed, 1 failed

"#]]);
    });
    book.run(&["check", "--locked"], |cmd| {
        cmd.expect_failure();
    });
}
