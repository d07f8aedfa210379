use super::*;

fn entry(hash: &str, verdict: Recorded, toolchain: &str) -> Entry {
    Entry {
        chapter: "src/a.md".into(),
        line: 3,
        what: "asm of rust example".into(),
        hash: hash.into(),
        expect: mdbook_companion_core::expect::Expect::Asm,
        verdict,
        toolchain: toolchain.into(),
        missing: None,
        run: None,
    }
}

#[test]
fn claims_about_another_architecture_keep_the_recorded_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let old = Lock {
        version: lock::VERSION,
        blocks: vec![
            entry("a", Recorded::Passed, "rustc 1.95.0"),
            entry("b", Recorded::Failed, "rustc 1.95.0"),
        ],
        assembly: Vec::new(),
    };
    old.write(dir.path()).unwrap();
    let new = Lock {
        version: lock::VERSION,
        blocks: vec![
            entry("a", Recorded::OtherArch, ""),
            entry("b", Recorded::Passed, "rustc 1.96.0"),
            entry("c", Recorded::OtherArch, ""),
        ],
        assembly: Vec::new(),
    };
    let kept = keep_other_arch(&Lock::read(dir.path()), new);
    let got: Vec<(Recorded, &str)> = kept
        .blocks
        .iter()
        .map(|e| (e.verdict, e.toolchain.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (Recorded::Passed, "rustc 1.95.0"),
            (Recorded::Passed, "rustc 1.96.0"),
            (Recorded::OtherArch, "")
        ]
    );
    // `b` changed and `c` is new; `a` agrees with the lock.
    assert_eq!(
        differences(&Lock::read(dir.path()), &kept, &[], |_, _| false).len(),
        2
    );
}

/// A lock with every field of an entry, its run and a panel filled.
fn full() -> Lock {
    Lock {
        version: lock::VERSION,
        blocks: vec![Entry {
            expect: mdbook_companion_core::expect::Expect::Run,
            run: Some(RecordedRun {
                compiled: true,
                stdout: "42\nmore\n".into(),
                stderr: "err\n".into(),
                toolchain: "rustc 1.95.0".into(),
                // A C program's ending and its checker's report.
                status: Some("exited with code 1".into()),
                report: Some("==…==ERROR: AddressSanitizer: heap-use-after-free\n".into()),
            }),
            // Only an unchecked claim has one; here so that the walk
            // below forges it too.
            missing: Some("valgrind".into()),
            ..entry("a1", Recorded::Passed, "rustc 1.95.0")
        }],
        assembly: vec![Assembly {
            hash: "b2".into(),
            toolchain: "rustc 1.95.0".into(),
            listing: "twice:\n        lea eax, [rdi + rdi]\n        ret\n".into(),
            lines: vec![0, 1, 1],
        }],
    }
}

/// Another value of the same kind that still makes a lock: text with
/// a line more, or another name of an enum; a number plus one; a
/// flag flipped; a list one longer.
fn forgeries(v: &toml::Value) -> Vec<toml::Value> {
    use toml::Value as V;
    match v {
        V::String(s) => std::iter::once(format!("{s}FORGED\n"))
            .chain(["panic", "failed"].map(str::to_owned))
            .filter(|f| f != s)
            .map(V::String)
            .collect(),
        V::Integer(i) => vec![V::Integer(i + 1)],
        V::Boolean(b) => vec![V::Boolean(!b)],
        V::Array(a) => vec![V::Array([a.clone(), vec![V::Integer(7)]].concat())],
        _ => Vec::new(),
    }
}

/// Every field a lock entry, its recorded run and an assembly panel
/// hold, walked from the lock as serde writes it (a field added to
/// any of them is walked too), is forged in turn: `--locked` fails
/// naming the field, and the field is a fact the lock vouches for.
#[test]
fn locked_fails_naming_every_field_forged_in_the_lock() {
    let dir = tempfile::tempdir().unwrap();
    let honest = full();
    let places = [("b2".to_owned(), "src/a.md:3".to_owned())];
    let vouched: BTreeSet<&str> = honest.blocks[0]
        .facts()
        .into_iter()
        .chain(honest.assembly[0].facts())
        .map(|(f, _)| f)
        .collect();
    let locked = |forged: &Lock| {
        std::fs::write(Lock::path(dir.path()), forged.to_text()).unwrap();
        differences(&Lock::read(dir.path()), &honest, &places, |_, _| false)
    };
    assert_eq!(locked(&honest), Vec::<String>::new());
    let value = toml::Value::try_from(&honest).unwrap();
    // (field as the lock names it, where it is in the TOML)
    let mut fields: Vec<(String, Vec<&str>)> = Vec::new();
    let tables = [("", vec!["block"]), ("assembly.", vec!["assembly"])];
    for (prefix, at) in &tables {
        let table = value[at[0]][0].as_table().unwrap();
        for (key, v) in table {
            let key = key.as_str();
            let name = format!("{prefix}{key}");
            let path = [at[0], key].to_vec();
            fields.push((name.clone(), path.clone()));
            if let Some(inner) = v.as_table() {
                for k in inner.keys() {
                    let path = [path.clone(), vec![k.as_str()]].concat();
                    fields.push((format!("{name}.{k}"), path));
                }
            }
        }
    }
    let walked: BTreeSet<&str> = fields.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(
        walked, vouched,
        "every field of the lock is a fact it vouches for"
    );
    for (name, path) in &fields {
        let mut forged_values = Vec::new();
        let (parent, last) = path.split_at(path.len() - 1);
        let get = |v: &toml::Value| -> toml::Value {
            let mut at = &v[parent[0]][0];
            for k in &parent[1..] {
                at = &at[*k];
            }
            at[last[0]].clone()
        };
        let old = get(&value);
        let mut candidates = forgeries(&old);
        if old.is_table() {
            candidates.push(toml::Value::String("removed".into()));
        }
        for candidate in candidates {
            let mut v = value.clone();
            let mut at = &mut v[parent[0]][0];
            for k in &parent[1..] {
                at = &mut at[*k];
            }
            let table = at.as_table_mut().unwrap();
            match candidate.as_str() {
                Some("removed") if old.is_table() => drop(table.remove(last[0])),
                _ => drop(table.insert(last[0].to_owned(), candidate)),
            }
            if let Ok(lock) = v.try_into::<Lock>() {
                forged_values.push(lock);
                break;
            }
        }
        let forged = forged_values
            .pop()
            .unwrap_or_else(|| panic!("no forgery of {name} makes a lock: add one"));
        assert_ne!(forged, honest, "{name}");
        let out = locked(&forged);
        assert!(
            out.iter()
                .any(|l| l.contains(&format!("{name}: ")) || l.contains(&format!("{name} line "))),
            "{name} forged: {out:?}"
        );
    }
}

/// A changed field is told at its first line that differs, a long
/// line cut around its first character that differs: the difference
/// is in sight, however far into the value it is.
#[test]
fn a_change_is_told_at_its_first_differing_line_and_character() {
    let long = "x".repeat(90);
    let change = |locked: String, now: String| {
        difference(&lock::Change {
            field: "run.stdout",
            locked,
            now,
        })
    };
    assert_eq!(
        change(format!("a\nb\n{long}1\n"), format!("a\nb\n{long}2\n")),
        format!(
            "run.stdout line 3: …\"{}1\\n\" in companion.lock, …\"{}2\\n\" now",
            "x".repeat(58),
            "x".repeat(58)
        )
    );
    assert_eq!(
        change(format!("{long}\n"), format!("{long}\nmore\n")),
        "run.stdout line 2: nothing in companion.lock, \"more\\n\" now"
    );
    assert_eq!(
        change("FORGED\n".into(), "42\n".into()),
        "run.stdout: \"FORGED\\n\" in companion.lock, \"42\\n\" now"
    );
    let middle = format!("{long}{long}");
    let mut other = middle.clone();
    other.replace_range(100..101, "y");
    let x = |n| "x".repeat(n);
    assert_eq!(
        change(middle, other),
        format!(
            "run.stdout: …\"{}\"… in companion.lock, …\"{}y{}\"… now",
            x(60),
            x(20),
            x(39)
        )
    );
}

/// A changed field of several lines is shown as a small unified diff
/// under the report's line: the lines around the first difference,
/// whole, so that two values that quote alike are told apart.
#[test]
fn locked_shows_a_changed_run_as_a_small_diff() {
    let dir = tempfile::tempdir().unwrap();
    let run = |stdout: &str| {
        let mut lock = full();
        lock.assembly.clear();
        lock.blocks[0].missing = None;
        if let Some(r) = &mut lock.blocks[0].run {
            r.stdout = stdout.into();
        }
        lock
    };
    let now = "1500: MTU 1500\nabc: error NotANumber(ParseIntError { kind: InvalidDigit })\n1: a\n2: b\n3: c\n4: d\n";
    let locked = now.replace("InvalidDigit", "Empty");
    std::fs::write(Lock::path(dir.path()), run(&locked).to_text()).unwrap();
    let out = differences(&Lock::read(dir.path()), &run(now), &[], |_, _| false);
    assert_eq!(
        out,
        [concat!(
            "src/a.md:3: asm of rust example: run.stdout line 2: \"abc: error NotANumber(ParseIntError { kind: Empty })\\n\" in companion.lock, \"abc: error NotANumber(ParseIntError { kind: InvalidDigit })\\n\" now; run `mdbook-companion check` and commit companion.lock\n",
            "    | --- run.stdout in companion.lock\n",
            "    | +++ run.stdout now\n",
            "    | @@ -1,5 +1,5 @@\n",
            "    |  1500: MTU 1500\n",
            "    | -abc: error NotANumber(ParseIntError { kind: Empty })\n",
            "    | +abc: error NotANumber(ParseIntError { kind: InvalidDigit })\n",
            "    |  1: a\n",
            "    |  2: b\n",
            "    |  3: c",
        )]
    );
}
