//! `sanitize=` without Valgrind: gcc's ThreadSanitizer run again without
//! address-space randomisation, `memory` under the sanitizers, a checker
//! the language does not take, and a missing Valgrind. The claims that
//! run under Valgrind (each checker proving its claims, the checker named
//! in every report format, in the lock and on the page, a report the
//! program prints) are in the Valgrind target, `tests/valgrind/`.

use super::sanitized::{SANITIZED, at, side};
use super::*;
use pretty_assertions::assert_eq;

#[test]
fn a_missing_valgrind_is_one_message_naming_it_and_its_key() {
    let book = BookTest::new()
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
    let book = BookTest::new().chapter(
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
    let book = BookTest::new().chapter("m.md", MAPPING);
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
    let book = BookTest::new().chapter("m.md", &always);
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
    let book = BookTest::new()
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
