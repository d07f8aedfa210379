use super::*;

fn entry(chapter: &str, line: usize, hash: &str) -> Entry {
    Entry {
        chapter: chapter.into(),
        line,
        what: "rust example \"a\"".into(),
        hash: hash.into(),
        expect: Expect::Run,
        verdict: Recorded::Passed,
        toolchain: "rustc 1.95.0".into(),
        missing: None,
        run: None,
    }
}

/// A compiled run's record under the toolchain of [`entry`].
fn ran(stdout: &str, stderr: &str) -> RecordedRun {
    RecordedRun {
        compiled: true,
        stdout: stdout.into(),
        stderr: stderr.into(),
        toolchain: "rustc 1.95.0".into(),
        status: None,
        report: None,
    }
}

#[test]
fn text_is_sorted_and_round_trips() {
    let lock = Lock {
        version: VERSION,
        blocks: vec![
            Entry {
                run: Some(ran(
                    "42\n\"quoted\"\n",
                    "thread 'main' panicked at main.rs:1:1:\nboom\n",
                )),
                ..entry("src/b.md", 3, "22")
            },
            entry("src/a.md", 9, "11"),
        ],
        assembly: vec![Assembly {
            hash: "33".into(),
            toolchain: "cc 12".into(),
            listing: "f:\n        mov eax, 1\n        ret\n".into(),
            lines: vec![0, 2, 3],
        }],
    };
    let text = lock.to_text();
    let mut shuffled = lock.clone();
    shuffled.blocks.reverse();
    assert_eq!(shuffled.to_text(), text, "one order whatever the input's");
    assert!(text.find("src/a.md").unwrap() < text.find("src/b.md").unwrap());
    let back: Lock = toml::from_str(&text).unwrap();
    let mut sorted = lock;
    sorted.normalize();
    assert_eq!(back, sorted);
}

#[test]
fn write_is_atomic_and_read_tells_missing_from_invalid() {
    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(Lock::read(dir.path()), Read::Missing));
    let lock = Lock {
        version: VERSION,
        blocks: vec![entry("src/a.md", 1, "aa")],
        assembly: Vec::new(),
    };
    assert!(lock.write(dir.path()).unwrap());
    assert!(!lock.write(dir.path()).unwrap(), "unchanged: not rewritten");
    match Lock::read(dir.path()) {
        Read::Lock(l) => assert_eq!(l.blocks, lock.blocks),
        other => panic!("{other:?}"),
    }
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, [FILE], "no temporary file left behind");
    std::fs::write(
        Lock::path(dir.path()),
        "version = 1\n[[block]]\nchapter = 3\n",
    )
    .unwrap();
    assert!(matches!(Lock::read(dir.path()), Read::Invalid(m) if m.contains("companion.lock")));
    std::fs::write(Lock::path(dir.path()), "version = 9\n").unwrap();
    assert!(matches!(Lock::read(dir.path()), Read::Invalid(m) if m.contains("version 9")));
}

#[test]
fn parse_errors_name_line_and_column() {
    for (text, want) in [
        (
            "version = 1\n[[block]]\nchapter = \"src/a.md\"\nline = \"x\"\n",
            (4, 8, "invalid type: string \"x\", expected usize"),
        ),
        (
            "version = 1\n<<<<<<< HEAD\n[[block]]\n=======\n>>>>>>> other\n",
            (
                2,
                1,
                "found a merge conflict marker; expected a lock whose conflict is resolved",
            ),
        ),
        (
            "# c\nversion = 2\n",
            (
                2,
                1,
                "found format version 2; expected version 1, the one this mdbook-companion reads",
            ),
        ),
        ("nonsense", (1, 9, "key with no value, expected `=`")),
    ] {
        let e = Lock::parse(text).unwrap_err();
        assert_eq!((e.line, e.column, e.message.as_str()), want, "{text:?}");
    }
}

#[test]
fn output_that_looks_like_a_conflict_marker_is_no_conflict() {
    let lock = Lock {
        version: VERSION,
        blocks: vec![Entry {
            run: Some(ran("=======\n<<<<<<< x\n", "")),
            ..entry("src/a.md", 1, "aa")
        }],
        assembly: Vec::new(),
    };
    assert_eq!(Lock::parse(&lock.to_text()), Ok(lock));
}

/// What the `lock` fuzz target holds, for every `cargo test`: a text
/// the reader refuses is refused at a line and column inside it; a
/// lock it accepts is written back as text that reads as the same
/// lock. The texts are a real lock cut, spliced and garbled.
fn holds_for(text: &str) -> Result<(), proptest::test_runner::TestCaseError> {
    match Lock::parse(text) {
        Ok(lock) => {
            let mut sorted = lock.clone();
            sorted.normalize();
            proptest::prop_assert_eq!(Lock::parse(&lock.to_text()), Ok(sorted));
        }
        Err(e) => {
            let lines: Vec<&str> = text.split('\n').collect();
            proptest::prop_assert!(e.line >= 1 && e.line <= lines.len(), "{e}");
            let line = lines[e.line - 1];
            proptest::prop_assert!(e.column >= 1 && e.column <= line.chars().count() + 1);
            proptest::prop_assert!(!e.message.is_empty());
        }
    }
    Ok(())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    #[test]
    fn the_reader_places_every_refusal_and_round_trips_what_it_accepts(
        cut in 0usize..2000,
        at in 0usize..2000,
        insert in "(<<<<<<< |=======\n|\"|\\[\\[block\\]\\]\n|line = |\u{feff}|é|\r\n|[a-z=\\[\\]\" \n]{0,8})",
    ) {
        let lock = Lock {
            version: VERSION,
            blocks: vec![
                Entry {
                    run: Some(ran("hi\n", "")),
                    ..entry("src/a.md", 3, "aa")
                },
                entry("src/b.md", 9, "bb"),
            ],
            assembly: vec![Assembly {
                hash: "cc".into(),
                toolchain: "cc 12".into(),
                listing: "f:\n        ret\n".into(),
                lines: vec![0, 1],
            }],
        };
        let text = lock.to_text();
        let floor = |i: usize| (0..=i.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        let (cut, at) = (floor(cut), floor(at));
        holds_for(&text[..cut])?;
        holds_for(&format!("{}{insert}{}", &text[..at], &text[at..]))?;
        holds_for(&insert)?;
    }
}
