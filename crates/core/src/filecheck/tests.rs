use super::matcher::find_words;
use super::*;
use pretty_assertions::assert_eq;
use regex::Regex;

const DIVIDE: &str = "divide:\n    mov eax, edi\n    cdq\n    idiv esi\n    ret\n";

fn run(checks: &str, listing: &str) -> Result<(), Failure> {
    parse(checks)
        .unwrap_or_else(|e| panic!("{e:?}"))
        .run(listing)
}

fn err(checks: &str) -> SyntaxError {
    parse(checks).unwrap_err()
}

#[test]
fn holding_claims_pass() {
    for checks in [
        "CHECK: idiv",
        "CHECK-LABEL: divide:\nCHECK: mov eax, edi\nCHECK-NEXT: cdq\nCHECK-NEXT: idiv",
        "CHECK: mov\nCHECK-SAME: edi",
        "CHECK-NOT: call\nCHECK: idiv\nCHECK-NOT: call",
        "CHECK: mov   eax,\tedi",
        "CHECK: idiv {{e[sd]i}}",
        "CHECK-COUNT-2: {{^ +[a-z]+ e}}",
        "  CHECK: cdq\n\n   CHECK-NEXT: idiv",
        "CHECK-NOT: call",
    ] {
        assert_eq!(run(checks, DIVIDE), Ok(()), "{checks}");
    }
}

#[test]
fn false_claims_fail_at_their_line_showing_where_the_search_stood() {
    let f = run("CHECK: cdq\nCHECK: call", DIVIDE).unwrap_err();
    assert_eq!(
        f.to_string(),
        "`CHECK: call` was not found; the search stood at line 3 of the listing: `cdq`"
    );
    assert_eq!((f.directive, f.line), (1, 2));

    let f = run("CHECK: mov\nCHECK-NEXT: idiv", DIVIDE).unwrap_err();
    assert_eq!(
        f.to_string(),
        "`CHECK-NEXT: idiv` is on line 4, not on the line after line 2 (the last match); the search stood at line 3 of the listing: `cdq`"
    );

    let f = run("CHECK: mov\nCHECK-NOT: cdq\nCHECK: ret", DIVIDE).unwrap_err();
    assert_eq!(
        f.to_string(),
        "`CHECK-NOT: cdq` was found on line 3, where it must not be; the search stood at line 3 of the listing: `cdq`"
    );
    assert_eq!(f.line, 2);

    let f = run("CHECK: cdq\nCHECK-SAME: idiv", DIVIDE).unwrap_err();
    assert_eq!(f.reason, "is not on line 3 (the last match's line)");

    let f = run("CHECK-COUNT-3: {{e[sd]i}}", DIVIDE).unwrap_err();
    assert_eq!(f.reason, "was found 2 of 3 times");

    let f = run("CHECK-LABEL: divide:\nCHECK-LABEL: other:", DIVIDE).unwrap_err();
    assert_eq!((f.line, f.stood.line), (2, 1));
}

#[test]
fn order_matters_and_matches_do_not_go_back() {
    assert!(run("CHECK: idiv\nCHECK: cdq", DIVIDE).is_err());
    assert!(run("CHECK: idiv\nCHECK-NOT: ret", DIVIDE).is_err());
    // `CHECK-NOT` before the first match covers the start.
    assert!(run("CHECK-NOT: mov\nCHECK: idiv", DIVIDE).is_err());
    // A trailing `CHECK-NOT` covers up to the end.
    assert!(run("CHECK: mov\nCHECK-NOT: ret", DIVIDE).is_err());
    // Whitespace runs match whitespace, not nothing.
    assert!(run("CHECK: mo v", DIVIDE).is_err());
}

#[test]
fn labels_cut_the_listing_into_regions() {
    let two = "f:\n    call g\n    ret\n\ng:\n    xor eax, eax\n    ret\n";
    // `call` is in f's region, not g's.
    assert_eq!(run("CHECK-LABEL: f:\nCHECK: call", two), Ok(()));
    let f = run("CHECK-LABEL: g:\nCHECK: call", two).unwrap_err();
    assert_eq!(f.stood.line, 5);
    // A CHECK-NOT in f's region stops at g's label.
    assert_eq!(
        run(
            "CHECK-LABEL: f:\nCHECK-NOT: xor\nCHECK-LABEL: g:\nCHECK: xor",
            two
        ),
        Ok(())
    );
    assert!(run("CHECK-LABEL: f:\nCHECK: xor\nCHECK-LABEL: g:", two).is_err());
    // CHECK-NEXT right after a label is the label's next line.
    assert_eq!(run("CHECK-LABEL: g:\nCHECK-NEXT: xor", two), Ok(()));
}

#[test]
fn lines_that_are_not_directives_are_located_errors() {
    let cases: [(&str, usize, &str); 9] = [
        (
            "CHECK: a\nCHECK-NXT: b",
            9,
            "found `CHECK-NXT:`; expected `CHECK:`, `CHECK-NEXT:`, `CHECK-SAME:`, `CHECK-NOT:`, `CHECK-LABEL:` or `CHECK-COUNT-n:` and a pattern",
        ),
        (
            "  idiv",
            2,
            "found `idiv`; expected `CHECK:`, `CHECK-NEXT:`, `CHECK-SAME:`, `CHECK-NOT:`, `CHECK-LABEL:` or `CHECK-COUNT-n:` and a pattern",
        ),
        (
            "CHECK:   ",
            6,
            "found `CHECK:` with nothing after it; expected a pattern to look for",
        ),
        (
            "CHECK-COUNT-0: x",
            0,
            "found `CHECK-COUNT-0:`; expected a count of at least 1 (`CHECK-COUNT-2:`)",
        ),
        (
            "CHECK-NEXT: x",
            0,
            "found `CHECK-NEXT:` before any line was matched; expected it after a `CHECK:`, `CHECK-LABEL:` or another directive that matches a line",
        ),
        (
            "CHECK-NOT: b\nCHECK-SAME: c",
            13,
            "found `CHECK-SAME:` before any line was matched; expected it after a `CHECK:`, `CHECK-LABEL:` or another directive that matches a line",
        ),
        (
            "CHECK: a {{b",
            9,
            "found `{{` without its closing `}}`; expected `{{regex}}`",
        ),
        (
            "CHECK: [[REG:e.x]]",
            7,
            "found `[[`, a FileCheck variable; expected literal text or `{{regex}}` (variables are not supported)",
        ),
        ("CHECK: {{}}", 7, "found `{{}}`; expected a regex inside"),
    ];
    for (text, offset, message) in cases {
        assert_eq!(
            err(text),
            SyntaxError {
                offset,
                message: message.into()
            },
            "{text}"
        );
    }
    let bad = err("CHECK: x {{a(}}");
    assert_eq!(bad.offset, 11);
    assert!(
        bad.message
            .starts_with("found `{{a(}}`, which is not a valid regex ("),
        "{}",
        bad.message
    );
}

#[test]
fn regex_braces_and_lines_are_read_as_written() {
    let c = parse("\nCHECK: {{a{2}}}b\r\n  CHECK-NOT: c").unwrap();
    let d = &c.directives;
    assert_eq!(
        (d[0].line, d[0].offset, d[0].pattern.as_str()),
        (2, 1, "{{a{2}}}b")
    );
    assert_eq!((d[1].line, d[1].offset, d[1].kind), (3, 21, Rule::Not));
    assert_eq!(c.run("xaab\n"), Ok(()));
    assert!(c.run("xab\n").is_err());
    assert_eq!(parse("").unwrap().directives.len(), 0);
}

#[test]
fn claims_in_words() {
    let c = parse(
            "CHECK-LABEL: divide:\nCHECK-NOT: call\nCHECK: idiv\nCHECK-NEXT: ret\nCHECK-SAME: x\nCHECK-COUNT-2: y\nCHECK-NOT: call\nCHECK-LABEL: g:\nCHECK-NOT: z",
        )
        .unwrap();
    let phrases: Vec<(Phrase, &str, usize)> = c
        .describe()
        .iter()
        .map(|s| (s.phrase, Phrase::words(s.phrase), s.count))
        .collect();
    assert_eq!(
        phrases,
        [
            (Phrase::Label, "In {pattern}:", 1),
            (Phrase::NotBefore, "no {pattern} before the next match", 1),
            (Phrase::Appears, "{pattern} appears", 1),
            (Phrase::Next, "on the next line, {pattern}", 1),
            (Phrase::Same, "on the same line, {pattern}", 1),
            (Phrase::Times, "then {pattern}, {n} times", 2),
            (Phrase::NotAfter, "no {pattern} after that", 1),
            (Phrase::Label, "In {pattern}:", 1),
            (Phrase::Nowhere, "no {pattern} anywhere", 1),
        ]
    );
    assert_eq!(c.describe()[2].pattern, "idiv");
}

/// `fuzz/` filecheck target: `CHECK-COUNT-n` of a pattern that
/// matches nothing (`{{x*}}`) found the same empty match n times, so a
/// large n hung the check.
#[test]
fn fuzz_filecheck_count_of_an_empty_match_is_not_a_loop() {
    let c = parse("CHECK-COUNT-1000000: {{x*}}").unwrap();
    WORK.with(|w| w.set(0));
    assert_eq!(c.run("a\n"), Ok(()));
    assert!(WORK.with(|w| w.get()) < 10, "one step per distinct match");
    let c = parse("CHECK-COUNT-18446744073709551615: {{x*}}").unwrap();
    assert_eq!(c.run("a\nb\n"), Ok(()));
    // Matches that move on are still each counted.
    assert!(run("CHECK-COUNT-3: {{x*}}a", "aa\n").is_err());
    assert_eq!(run("CHECK-COUNT-2: {{x*}}a", "aa\n"), Ok(()));
}

#[test]
fn equal_blocks_are_equal_checks() {
    assert_eq!(parse("CHECK: a").unwrap(), parse("CHECK: a").unwrap());
    assert_ne!(parse("CHECK: a").unwrap(), parse("CHECK: b").unwrap());
}

#[test]
fn literal_patterns_match_where_their_regex_would() {
    let lines = [
        "    mov eax, edi",
        "\tmov\t\teax, edi",
        "  movl  eax,edi mov eax, edi",
        "aaab aab ab",
        "call  \t qword ptr [rip + f@GOTPCREL]",
        "é mov  é eax",
        "",
    ];
    let patterns = [
        "mov eax, edi",
        "mov eax,",
        "eax, edi",
        "aab",
        "a ab",
        "aab ab",
        "call qword ptr [rip + f@GOTPCREL]",
        "é eax",
        "mov",
        "ab a",
    ];
    for pattern in patterns {
        let Matcher::Words(words) = compile(pattern).unwrap() else {
            panic!("{pattern} is literal");
        };
        let mut re = String::new();
        for (i, w) in words.iter().enumerate() {
            if i > 0 {
                re.push_str("[ \\t]+");
            }
            re.push_str(&regex::escape(w));
        }
        let re = Regex::new(&re).unwrap();
        for line in lines {
            for begin in (0..=line.len()).filter(|b| line.is_char_boundary(*b)) {
                let want = re.find_at(line, begin).map(|m| (m.start(), m.end()));
                assert_eq!(
                    find_words(&words, line, begin),
                    want,
                    "{pattern:?} in {line:?} from {begin}"
                );
            }
        }
    }
}

/// Matching counts its steps (lines looked at, candidates tried):
/// linear in the directives and the listing, not timed.
#[test]
fn matching_is_linear_in_the_lines() {
    let steps = |n: usize| {
        let mut listing = String::from("f:\n");
        let mut checks = String::from("CHECK-LABEL: f:\n");
        for i in 0..n {
            listing.push_str(&format!("\tmov\tDWORD PTR {}[rdi], {i}\n", 4 * i));
            checks.push_str(&format!("CHECK: mov DWORD PTR {}[rdi], {i}\n", 4 * i));
            if i % 100 == 0 {
                checks.push_str("CHECK-NOT: call\n");
            }
        }
        listing.push_str("\tret\n");
        checks.push_str("CHECK-NEXT: ret\n");
        let checks = parse(&checks).unwrap();
        WORK.with(|w| w.set(0));
        checks.run(&listing).unwrap();
        WORK.with(std::cell::Cell::get)
    };
    let (small, large) = (steps(1_000), steps(16_000));
    assert!(
        large <= small * 16 + 16 && large >= 16_000,
        "{small} steps for 1,000 lines, {large} for 16,000"
    );
}

#[test]
fn a_regex_is_built_on_first_use_once_per_text() {
    let text = "CHECK: {{i?div}} esi\nCHECK: ret\nCHECK-NOT: {{i?div}} esi";
    let checks = parse(text).unwrap();
    let Matcher::Regex(_, built) = &checks.directives[0].matcher else {
        panic!("a regex pattern");
    };
    assert!(built.get().is_none(), "built before use");
    assert!(matches!(checks.directives[1].matcher, Matcher::Words(_)));
    WORK.with(|w| w.set(0));
    assert_eq!(checks.run(DIVIDE), Ok(()));
    let first = WORK.with(std::cell::Cell::get);
    assert!(built.get().is_some());
    // The same block read again: the same search, nothing built (the
    // first run built the regex once, for both its directives).
    let again = parse(text).unwrap();
    WORK.with(|w| w.set(0));
    assert_eq!(again.run(DIVIDE), Ok(()));
    assert_eq!(WORK.with(std::cell::Cell::get), first - 1);
}
