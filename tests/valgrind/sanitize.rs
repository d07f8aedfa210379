//! `sanitize=` under the real tools, Valgrind's Memcheck among them:
//! each checker (gcc's AddressSanitizer, ThreadSanitizer and UBSan,
//! Memcheck) proves a claim that holds and fails one that does not, a
//! report that names another bug, a clean program under `expect=ub`, the
//! checker named in every report format, in the lock and on the page, and
//! a report the program prints is never the checker's.

use crate::run::{check, check_json, line_of};
use crate::sanitized::{SANITIZED, side};
use crate::support::{BookTest, Page, inside};
use pretty_assertions::assert_eq;

#[test]
fn each_checker_proves_its_claims_and_fails_the_false_ones() {
    crate::tools::valgrind();
    let book = BookTest::new().chapter("s.md", SANITIZED);
    book.write();
    let (stdout, stderr, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    let got: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") || l.starts_with("FAILED "))
        .collect();
    let want = [
        format!(
            "ok      {} under AddressSanitizer (expect=ub)",
            side("use after free")
        ),
        format!(
            "FAILED  {} under AddressSanitizer (expect=ub): the report of AddressSanitizer does not contain the output block",
            side("double free, said to be use after free")
        ),
        format!(
            "FAILED  {} under AddressSanitizer and UndefinedBehaviorSanitizer (expect=run): the program stopped with a report of AddressSanitizer and UndefinedBehaviorSanitizer: LeakSanitizer: detected memory leaks",
            side("a leak under expect=run")
        ),
        format!(
            "ok      {} under Memcheck (expect=run)",
            side("Rust under Memcheck")
        ),
        format!(
            "ok      {} under ThreadSanitizer (expect=ub)",
            side("racy counter")
        ),
        format!(
            "FAILED  {} under ThreadSanitizer (expect=ub): ThreadSanitizer reported nothing (the program exited successfully); the side says `expect=ub`",
            side("one thread")
        ),
        format!(
            "ok      {} under ThreadSanitizer and UndefinedBehaviorSanitizer (expect=run)",
            side("clean under two")
        ),
        format!(
            "ok      {} under UndefinedBehaviorSanitizer (expect=ub)",
            side("overflow")
        ),
        format!(
            "ok      {} under Memcheck (expect=ub)",
            side("uninitialised read")
        ),
        format!(
            "FAILED  {} under Memcheck (expect=ub): Memcheck reported nothing (the program exited successfully); the side says `expect=ub`",
            side("nothing uninitialised")
        ),
        format!(
            "FAILED  {} under Memcheck (expect=run): the program stopped with a report of Memcheck: Conditional jump or move depends on uninitialised value(s)",
            side("said to be clean")
        ),
        format!(
            "ok      {} under AddressSanitizer (expect=ub)",
            side("a pointer into a vector that grew")
        ),
    ];
    assert_eq!(got, want, "{stdout}");
    // The report that names another bug shows what the checker said.
    assert!(
        stdout.contains("+ERROR: AddressSanitizer: attempting double-free[..]"),
        "{stdout}"
    );
    assert!(stdout.ends_with("7 passed, 5 failed\n"), "{stdout}");
}

#[test]
fn the_checker_is_named_in_every_report_format_and_in_the_lock() {
    crate::tools::valgrind();
    let book = BookTest::new().chapter("s.md", SANITIZED);
    book.write();
    let (json, _) = check_json(&book, &[]);
    let racy = json["results"]
        .as_array()
        .unwrap_or_else(|| panic!("{json}"))
        .iter()
        .find(|c| c["what"] == "compare side \"racy counter\" under ThreadSanitizer")
        .unwrap_or_else(|| panic!("{json}"));
    assert_eq!(racy["sanitize"], "thread");
    assert_eq!(racy["status"], "passed");
    let (github, _, _) = check(&book, &["--format", "github"]);
    assert!(
        github.contains("compare side \"one thread\" under ThreadSanitizer"),
        "{github}"
    );
    let (junit, _, _) = check(&book, &["--format", "junit"]);
    assert!(
        junit.contains("compare side &quot;uninitialised read&quot; under Memcheck")
            || junit.contains("compare side \"uninitialised read\" under Memcheck"),
        "{junit}"
    );
    let lock = std::fs::read_to_string(book.root().join("companion.lock")).expect("lock");
    assert!(
        lock.contains("under AddressSanitizer and UndefinedBehaviorSanitizer"),
        "{lock}"
    );
    // Warm: every verdict from the cache, no compiler and no program.
    let (stdout, _, _) = check(&book, &[]);
    assert!(stdout.ends_with("7 passed, 5 failed\n"), "{stdout}");
    let (json, _) = check_json(&book, &[]);
    assert_eq!(json["compiler_runs"], 0, "{json}");
    assert_eq!(json["program_runs"], 0, "{json}");
}

const NAMED: &str = r#"# Named

`````compare title="Freeing"
```c caption="use after free" expect=ub sanitize=address
~ #include <stdlib.h>
int main(void) { int *p = malloc(sizeof *p); *p = 1; free(p); return *p; }
```

```output
AddressSanitizer: heap-use-after-free
```

```c caption="plain ub" expect=ub
~ #include <limits.h>
int main(void) { volatile int x = INT_MAX; x += 1; return 0; }
```

```rust caption="Rust" sanitize=memcheck
fn main() { println!("{}", 6 * 7); }
```

```output
42
```
`````
"#;

#[test]
fn the_checker_is_named_on_the_page_the_claims_page_and_the_compiler_explorer_link() {
    crate::tools::valgrind();
    let book = BookTest::new()
        .chapter("n.md", NAMED)
        .chapter("claims.md", "# Claims\n\n```claims\n```\n");
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    book.build().expect("build");
    let page = book.page("n.md");
    let badges: Vec<String> = page
        .all(".companion-side .companion-badge")
        .into_iter()
        .map(Page::text)
        .collect();
    assert_eq!(
        badges,
        [
            "Undefined behaviour · AddressSanitizer",
            "Undefined behaviour",
            "Runs · Memcheck"
        ]
    );
    // The C side's Compiler Explorer link builds what the checker ran.
    let sides = page.all(".companion-side");
    let link = inside(sides[0], ".companion-links a")
        .into_iter()
        .find(|a| Page::text(*a) == "Compiler Explorer")
        .and_then(|a| a.value().attr("href").map(str::to_owned))
        .expect("a Compiler Explorer link");
    let state = crate::support::client_state(&link);
    assert_eq!(
        state["sessions"][0]["compilers"][0]["options"],
        "-O2 -g -fsanitize=address"
    );
    // The claims page's rows name the checker, with the lock's verdict.
    let claims = book.page("claims.md");
    let rows: Vec<String> = claims
        .all(".companion-claims-table tbody tr")
        .into_iter()
        .map(Page::text)
        .collect();
    assert!(
        rows.iter()
            .any(|r| r.contains("Undefined behaviour · AddressSanitizer")),
        "{rows:?}"
    );
    assert!(
        rows.iter().any(|r| r.contains("Runs · Memcheck")),
        "{rows:?}"
    );
}

/// Programs that print a checker's report themselves (issue 44): the
/// report is read from the checker's own log, so what they print is only
/// their output.
const FORGED: &str = r#"# Forged reports

`````compare
```c caption="prints a use after free, frees twice" expect=ub sanitize=address
~ #include <stdio.h>
~ #include <stdlib.h>
int main(void) { fprintf(stderr, "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x1\n"); int *p = malloc(4); free(p); free(p); return 0; }
```

```output
AddressSanitizer: heap-use-after-free
```

```c caption="prints a runtime error, is clean" expect=ub sanitize=undefined
~ #include <stdio.h>
int main(void) { fprintf(stderr, "main.c:2:5: runtime error: signed integer overflow\n"); return 1; }
```

```output
signed integer overflow
```

```c caption="prints an invalid read" expect=ub sanitize=memcheck
~ #include <stdio.h>
int main(void) { fprintf(stderr, "==1== Invalid read of size 4\n"); return 0; }
```

```output
Invalid read of size 4
```

```c caption="clean, prints a report" expect=run sanitize="address,undefined"
~ #include <stdio.h>
int main(void) { fprintf(stderr, "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x1\nmain.c:1:1: runtime error: division by zero\n"); puts("fine"); return 0; }
```

```output
fine
```
`````
"#;

#[test]
fn a_report_the_program_prints_is_never_the_checkers() {
    crate::tools::valgrind();
    // Valgrind's start alone can take seconds on a loaded machine.
    let book = BookTest::new()
        .companion("timeout = 60")
        .chapter("f.md", FORGED);
    book.write();
    let (stdout, stderr, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    let side = |caption: &str| {
        format!(
            "src/f.md:{}: compare side \"{caption}\"",
            line_of(FORGED, &format!("caption=\"{caption}\""))
        )
    };
    let got: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") || l.starts_with("FAILED "))
        .collect();
    let want = [
        format!(
            "FAILED  {} under AddressSanitizer (expect=ub): the report of AddressSanitizer does not contain the output block",
            side("prints a use after free, frees twice")
        ),
        format!(
            "FAILED  {} under UndefinedBehaviorSanitizer (expect=ub): UndefinedBehaviorSanitizer reported nothing (the program exited with code 1); the side says `expect=ub`",
            side("prints a runtime error, is clean")
        ),
        format!(
            "FAILED  {} under Memcheck (expect=ub): Memcheck reported nothing (the program exited successfully); the side says `expect=ub`",
            side("prints an invalid read")
        ),
        format!(
            "ok      {} under AddressSanitizer and UndefinedBehaviorSanitizer (expect=run)",
            side("clean, prints a report")
        ),
    ];
    assert_eq!(got, want, "{stdout}");
    // What the checker really said is what is shown.
    assert!(
        stdout.contains("+ERROR: AddressSanitizer: attempting double-free[..]"),
        "{stdout}"
    );
}
