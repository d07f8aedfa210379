//! `sanitize=`: each checker through the real tools (gcc's
//! AddressSanitizer, ThreadSanitizer and UBSan, Valgrind's Memcheck), a
//! claim that holds and one that does not for each, a report that names
//! another bug, a clean program under `expect=ub`, the checker named in
//! every report format and in the lock, and a missing Valgrind.

use super::*;
use pretty_assertions::assert_eq;

pub(super) const SANITIZED: &str = r#"# Checkers

`````compare title="Freeing"
```c caption="use after free" expect=ub sanitize=address
~ #include <stdlib.h>
int main(void) { int *p = malloc(sizeof *p); *p = 1; free(p); return *p; }
```

```output
AddressSanitizer: heap-use-after-free [..]
READ of size 4 [..]
```

```c caption="double free, said to be use after free" expect=ub sanitize=address
~ #include <stdlib.h>
int main(void) { int *p = malloc(4); free(p); free(p); return 0; }
```

```output
heap-use-after-free
```

```c caption="a leak under expect=run" expect=run sanitize="address,undefined"
~ #include <stdlib.h>
int main(void) { void *volatile p = malloc(64); p = 0; return 0; }
```

```rust caption="Rust under Memcheck" sanitize=memcheck
fn main() { let v = vec![1, 2, 3]; println!("{}", v.iter().sum::<i32>()); }
```

```output
6
```
`````

`````compare title="Races"
```c caption="racy counter" expect=ub sanitize=thread
~ #include <pthread.h>
~ static long n;
~ static void *work(void *a) { (void)a; for (int i = 0; i < 1000; i++) n++; return 0; }
int main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, work, 0); for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }
```

```output
ThreadSanitizer: data race
```

```c caption="one thread" expect=ub sanitize=thread
int main(void) { return 0; }
```

```c caption="clean under two" expect=run sanitize="thread,undefined"
~ #include <stdio.h>
int main(void) { printf("%d\n", 40 + 2); return 0; }
```

```output
42
```

```c caption="overflow" expect=ub sanitize=undefined
~ #include <limits.h>
int main(void) { volatile int x = INT_MAX; x += 1; return 0; }
```

```output
signed integer overflow
```
`````

`````compare title="Uninitialised"
```c caption="uninitialised read" expect=ub sanitize=memcheck
~ #include <stdio.h>
~ int more(void) { return 0; }
int main(void) { int x; while (more()) x = 42; if (x == 42) puts("42"); return 0; }
```

```output
Conditional jump or move depends on uninitialised value(s)
   at 0x[..]: main (main.c:[..])
```

```c caption="nothing uninitialised" expect=ub sanitize=memcheck
int main(void) { return 0; }
```

```c caption="said to be clean" expect=run sanitize=memcheck
~ #include <stdio.h>
int main(void) { int x; if (x > 0) puts("positive"); return 0; }
```

```cpp caption="a pointer into a vector that grew" expect=ub sanitize=address
~ #include <iostream>
~ #include <vector>
int main() { std::vector<int> v(3); int *p = v.data(); v.push_back(1); v.push_back(2); std::cout << p[0] << std::endl; }
```

```output
AddressSanitizer: heap-use-after-free
```
`````
"#;

fn at(caption: &str) -> String {
    format!(
        "src/s.md:{}",
        line_of(SANITIZED, &format!("caption=\"{caption}\""))
    )
}

#[test]
fn each_checker_proves_its_claims_and_fails_the_false_ones() {
    crate::tools::valgrind();
    let book = TestBook::new().chapter("s.md", SANITIZED);
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

fn side(caption: &str) -> String {
    format!("{}: compare side \"{caption}\"", at(caption))
}

#[test]
fn the_checker_is_named_in_every_report_format_and_in_the_lock() {
    crate::tools::valgrind();
    let book = TestBook::new().chapter("s.md", SANITIZED);
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

#[test]
fn a_missing_valgrind_is_one_message_naming_it_and_its_key() {
    let book = TestBook::new()
        .companion("valgrind = \"/nonexistent/valgrind\"")
        .chapter("s.md", SANITIZED);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1);
    let errors: Vec<&str> = stdout.lines().filter(|l| l.starts_with("error:")).collect();
    let blocks: Vec<String> = [
        "Rust under Memcheck",
        "uninitialised read",
        "nothing uninitialised",
        "said to be clean",
    ]
    .iter()
    .map(|c| at(c))
    .collect();
    assert_eq!(
        errors,
        [format!(
            "error: the checker `/nonexistent/valgrind` could not be run (install Valgrind (`apt-get install valgrind`), or set `valgrind` in [preprocessor.companion] to its path); 4 blocks not checked: {}",
            blocks.join(", ")
        )]
    );
    // Not a verdict about the code: the sides say "not checked".
    assert!(
        stdout.contains(&format!(
            "FAILED  {} under Memcheck (expect=ub): not checked, `/nonexistent/valgrind` could not be run",
            side("uninitialised read")
        )),
        "{stdout}"
    );
    assert!(!stdout.contains("Memcheck reported"), "{stdout}");
}

#[test]
fn sanitize_on_a_rust_example_takes_memcheck_only() {
    let book = TestBook::new().chapter(
        "r.md",
        "# R\n\n```rust example sanitize=address\nfn main() {}\n```\n",
    );
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains(
            "FAILED  src/r.md:3:17: found `sanitize=address` on Rust code; expected `memcheck` (the sanitizers need a nightly Rust compiler)"
        ),
        "{stdout}"
    );
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
    let book = TestBook::new()
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

/// A program that behaves as ThreadSanitizer does on a kernel whose
/// address-space layout defeats it: the mapping error while the layout is
/// randomised, a clean run once it is not (`setarch -R`).
const MAPPING: &str = r#"# Mapping

`````compare
```c caption="needs a fixed layout" expect=run sanitize=thread
~ #include <stdio.h>
~ #include <sys/personality.h>
int main(void)
{
    if (!(personality(0xffffffff) & ADDR_NO_RANDOMIZE)) {
        fprintf(stderr, "FATAL: ThreadSanitizer: unexpected memory mapping 0x1-0x2\n");
        return 66;
    }
    puts("ran without randomisation");
    return 0;
}
```

```output
ran without randomisation
```

```python
pass
```
`````
"#;

#[test]
fn thread_sanitizer_runs_again_without_address_space_randomisation() {
    let book = TestBook::new().chapter("m.md", MAPPING);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.ends_with("1 passed, 0 failed\n"), "{stdout}");

    // When the layout defeats it even then, ThreadSanitizer could not be
    // run: one message naming its runtime, no verdict on the code.
    let always = MAPPING.replace(
        "if (!(personality(0xffffffff) & ADDR_NO_RANDOMIZE))",
        "if (personality(0xffffffff) != -1)",
    );
    let book = TestBook::new().chapter("m.md", &always);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    let errors: Vec<&str> = stdout.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(
        errors,
        [
            "error: the sanitizer runtime `libtsan` could not be run (install `libtsan` for the C compiler, or set `cc` in [preprocessor.companion] to a compiler that has it); 1 block not checked: src/m.md:4"
        ]
    );
    assert!(!stdout.contains("the output differs"), "{stdout}");
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
    let book = TestBook::new()
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

/// Programs that touch 256 MiB, and 4 MiB, under the checkers that get no
/// address-space limit, in a book whose `memory` is 64 MiB.
const GREEDY: &str = r#"# Memory

`````compare
```c caption="256 MiB under ThreadSanitizer" expect=run sanitize=thread
~ #include <stdio.h>
~ #include <stdlib.h>
~ #include <string.h>
int main(void) { size_t n = (size_t)256 << 20; char *p = malloc(n); if (!p) return 2; memset(p, 1, n); printf("%d\n", p[n - 1]); free(p); return 0; }
```

```output
1
```

```c caption="256 MiB under AddressSanitizer" expect=run sanitize=address
~ #include <stdio.h>
~ #include <stdlib.h>
~ #include <string.h>
int main(void) { size_t n = (size_t)256 << 20; char *p = malloc(n); if (!p) return 2; memset(p, 1, n); printf("%d\n", p[n - 1]); free(p); return 0; }
```

```output
1
```
`````

`````compare
```c caption="4 MiB under ThreadSanitizer" expect=run sanitize=thread
~ #include <stdio.h>
~ #include <stdlib.h>
~ #include <string.h>
int main(void) { size_t n = (size_t)4 << 20; char *p = malloc(n); if (!p) return 2; memset(p, 1, n); printf("%d\n", p[n - 1]); free(p); return 0; }
```

```output
1
```

```c caption="4 MiB under AddressSanitizer" expect=run sanitize=address
~ #include <stdio.h>
~ #include <stdlib.h>
~ #include <string.h>
int main(void) { size_t n = (size_t)4 << 20; char *p = malloc(n); if (!p) return 2; memset(p, 1, n); printf("%d\n", p[n - 1]); free(p); return 0; }
```

```output
1
```
`````
"#;

#[test]
fn memory_limits_resident_memory_under_the_sanitizers_that_reserve_address_space() {
    let book = TestBook::new()
        .companion("memory = \"64 MiB\"")
        .chapter("g.md", GREEDY);
    book.write();
    let (stdout, stderr, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    let side = |caption: &str| {
        format!(
            "src/g.md:{}: compare side \"{caption}\"",
            line_of(GREEDY, &format!("caption=\"{caption}\""))
        )
    };
    let got: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") || l.starts_with("FAILED "))
        .collect();
    let limit = "the program used more than its 64 MiB of memory and was killed (config `memory`)";
    let want = [
        format!(
            "FAILED  {} under ThreadSanitizer (expect=run): {limit}",
            side("256 MiB under ThreadSanitizer")
        ),
        format!(
            "FAILED  {} under AddressSanitizer (expect=run): {limit}",
            side("256 MiB under AddressSanitizer")
        ),
        format!(
            "ok      {} under ThreadSanitizer (expect=run)",
            side("4 MiB under ThreadSanitizer")
        ),
        format!(
            "ok      {} under AddressSanitizer (expect=run)",
            side("4 MiB under AddressSanitizer")
        ),
    ];
    assert_eq!(got, want, "{stdout}");
}
