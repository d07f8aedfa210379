//! Issue 58: languages as data. Python and Go sides run and are checked
//! like C sides; a book declares more languages in book.toml (tried with
//! JavaScript on Node.js and Java), and a language whose command is
//! missing is one located error naming its key, the side not checked.

use crate::support::BookTest;
use snapbox::str;

/// The tools these tests run, or a loud failure naming the package.
fn needs(tools: &[(&str, &str)]) {
    for (tool, package) in tools {
        let found = std::process::Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(
            found,
            "`{tool}` is not installed: `apt-get install {package}` (as .ci/run does)"
        );
    }
}

/// A compare block of Python and Go sides, each claim one kind: a run
/// with its output, an uncaught error (`expect=panic`) with its message,
/// a compile failure with the compiler's words, and a false claim of
/// each language that must fail.
const SIDES: &str = r#"# Sides

````compare title="Division"
```python caption="Python" expect=panic
print(1 // 0)
```
```output
ZeroDivisionError: integer division or modulo by zero
```
```go caption="Go" expect=run
package main

import "fmt"

func main() {
	fmt.Println(7 / 2)
}
```
```output
3
```
```go caption="Go, unused" expect=compile-fail error="not used"
package main

func main() {
	x := 1
}
```
```rust caption="Rust" expect=run
fn main() { println!("{}", 7 / 2); }
```
```output
3
```
````

````compare title="Wrong"
```python caption="Python, wrong" expect=run
print(7 / 2)
```
```output
3
```
```go caption="Go, wrong" expect=panic
package main

func main() {}
```
```rust
fn main() {}
```
````

````compare title="Shown only"
```python
print("a Python side that says nothing is only shown")
```
```rust
fn main() { let _shown = 1; }
```
````
"#;

#[test]
fn python_and_go_sides_run_and_are_checked() {
    needs(&[("python3", "python3"), ("go", "golang-go")]);
    let book = BookTest::new().chapter("sides.md", SIDES);
    book.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stdout(str![[r#"
ok      src/sides.md:4: compare side "Python" (expect=panic)
ok      src/sides.md:10: compare side "Go" (expect=run)
ok      src/sides.md:22: compare side "Go, unused" (expect=compile-fail)
ok      src/sides.md:29: compare side "Rust" (expect=run)
FAILED  src/sides.md:38: compare side "Python, wrong" (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -3
    +3.5
FAILED  src/sides.md:44: compare side "Go, wrong" (expect=panic): the program exited successfully, not with an uncaught error; the side says `expect=panic`
ok      src/sides.md:49: compare side Rust (expect=run)
ok      src/sides.md:58: compare side Rust (expect=run)
compiler runs: [..], program runs: [..], from cache: 0
6 passed, 2 failed

"#]]);
    });
    // The page: each checked side has its badge, the side that says
    // nothing has none, and the Go side's code is highlighted as Go.
    let page = book.html("sides.md");
    let badges: Vec<String> = page
        .all(".companion-side .companion-badge")
        .into_iter()
        .map(crate::support::Page::text)
        .collect();
    assert!(badges.iter().any(|b| b.contains("Panics")), "{badges:?}");
    assert!(page.all("code.language-go").len() >= 2);
    // The Go side opens in Compiler Explorer as Go, with gc's defaults.
    let states: Vec<serde_json::Value> = page
        .all("a[href^='https://godbolt.org/clientstate/']")
        .into_iter()
        .filter_map(|a| a.value().attr("href"))
        .map(crate::support::client_state)
        .collect();
    let go = states
        .iter()
        .flat_map(|s| s["sessions"].as_array().cloned().unwrap_or_default())
        .find(|s| s["language"] == "go")
        .expect("a Go session");
    assert_eq!(go["compilers"][0]["id"], "gl1220", "{go}");
    assert_eq!(go["compilers"][0]["options"], "", "{go}");
}

#[test]
fn a_book_declares_languages_and_their_sides_are_checked() {
    needs(&[("node", "nodejs"), ("javac", "default-jdk-headless")]);
    let book = BookTest::new()
        .toml(
            r#"[preprocessor.companion.languages.js]
label = "JavaScript"
file = "main.js"
run = ["node", "{file}"]

[preprocessor.companion.languages.java]
label = "Java"
file = "Main.java"
compile = ["javac", "{file}"]
run = ["java", "-Xmx64m", "-XX:ReservedCodeCacheSize=32m", "-Xss1m", "-XX:-UsePerfData", "-cp", ".", "Main"]
panic-status = 1
panic-stderr = "Exception in thread"
"#,
        )
        .companion("memory = \"4 GiB\"")
        .chapter(
            "js.md",
            "# JS\n\n````compare\n```js expect=run\nconsole.log(7 / 2)\n```\n```output\n3.5\n```\n```java expect=panic\npublic class Main { public static void main(String[] a) { System.out.println(1 / a.length); } }\n```\n```output\nArithmeticException: / by zero\n```\n```java caption=\"Java, not Java\" expect=compile-fail error=\"illegal start\"\npublic class Main { int x = }\n```\n````\n",
        );
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/js.md:4: compare side JavaScript (expect=run)
ok      src/js.md:10: compare side Java (expect=panic)
ok      src/js.md:16: compare side "Java, not Java" (expect=compile-fail)
compiler runs: [..], program runs: [..], from cache: 0
3 passed, 0 failed

"#]]);
    });
    // The lock written by that check vouches for every side.
    book.run(&["check", "--locked"], |cmd| {
        cmd.expect_stdout(str![[r#"
...
3 passed, 0 failed

"#]]);
    });
}

#[test]
fn a_declared_language_whose_command_is_missing_is_one_located_error() {
    let book = BookTest::new()
        .toml("[preprocessor.companion.languages.zig]\nfile = \"main.zig\"\ncompile = [\"zig-not-installed\", \"build-exe\", \"{file}\"]\nrun = [\"{exe}\"]\n")
        .chapter(
            "z.md",
            "# Z\n\n````compare\n```zig expect=run\npub fn main() void {}\n```\n```zig expect=run\npub fn main() void { }\n```\n````\n",
        );
    book.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stdout(str![[r#"
FAILED  src/z.md:4: compare side zig (expect=run): not checked, `zig-not-installed` could not be run
FAILED  src/z.md:7: compare side zig (expect=run): not checked, `zig-not-installed` could not be run
error: the command `zig-not-installed` could not be run (install `zig-not-installed`, or set `languages.zig.compile` in [preprocessor.companion] to a command that runs); 2 blocks not checked: src/z.md:4, src/z.md:7
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 2 failed

"#]]);
    });
    // A bad declaration is an error located at its key in book.toml.
    let bad = BookTest::new()
        .toml("[preprocessor.companion.languages.js]\nfile = \"main.js\"\nrun = []\n")
        .chapter("a.md", "# A\n");
    let ran = bad.run(&["check"], |cmd| {
        cmd.expect_failure();
    });
    assert!(
        ran.stderr.contains("book.toml:")
            && ran
                .stderr
                .contains("languages.js.run: found an empty `run`"),
        "{}",
        ran.stderr
    );
}

/// Go sides with `asm`: one whose program is `main` alone, one whose
/// ```asm block holds (`IDIVQ` in `divide`), one whose block is false.
const GO_ASM: &str = r#"# Go

````compare title="Go's assembly"
```go caption="Go" asm
package main

func main() {
	println(7)
}
```
```go caption="Go, divide" expect=run asm
package main

func divide(a, b int) int {
	return a / b
}

func main() {
	divide(7, 2)
}
```
```asm
CHECK: main.divide:
CHECK: IDIVQ
```
```go caption="Go, twice" asm
package main

func twice(a int) int {
	return a * 2
}

func main() {
	twice(3)
}
```
```asm
CHECK: IDIVQ
```
````
"#;

#[test]
fn go_sides_show_their_assembly_and_its_claims_are_checked() {
    needs(&[("go", "golang-go")]);
    let book = BookTest::new().chapter("go.md", GO_ASM);
    book.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stdout(str![[r#"
ok      src/go.md:4: compare side "Go" (expect=compile)
ok      src/go.md:11: compare side "Go, divide" (expect=run)
ok      src/go.md:22: asm of compare side "Go, divide" (expect=asm)
ok      src/go.md:26: compare side "Go, twice" (expect=compile)
FAILED  src/go.md:37: asm of compare side "Go, twice" (expect=asm): src/go.md:38: `CHECK: IDIVQ` was not found; the search stood at line 1 of the listing: `main.twice:`
    | >   1 | main.twice:
...
compiler runs: [..], program runs: [..], from cache: 0
4 passed, 1 failed

"#]]);
    });
    // The panels: each side's own functions, from `go build -gcflags=-S`,
    // tied to the lines they came from.
    let page = book.html("go.md");
    let listings: Vec<String> = page
        .all(".companion-side details.companion-asm pre.companion-asm-listing")
        .into_iter()
        .map(crate::support::Page::text)
        .collect();
    assert_eq!(listings.len(), 3, "{listings:?}");
    assert!(listings[0].starts_with("main.main:"), "{}", listings[0]);
    assert!(listings[1].starts_with("main.divide:"), "{}", listings[1]);
    assert!(listings[1].contains("IDIVQ") && !listings[1].contains("main.main"));
    assert!(listings[2].starts_with("main.twice:"), "{}", listings[2]);
    let summaries: Vec<String> = page
        .all("details.companion-asm > summary")
        .into_iter()
        .map(crate::support::Page::text)
        .collect();
    assert!(
        summaries.iter().all(|s| s.contains("go build -gcflags=-S")),
        "{summaries:?}"
    );
}

#[test]
fn asm_on_a_side_without_assembly_is_a_located_error() {
    let book = BookTest::new().chapter(
        "py.md",
        "# Py\n\n````compare\n```python expect=run asm\nprint(1)\n```\n```python\nprint(2)\n```\n````\n\n````compare\n```go asm=graph\npackage main\n\nfunc main() {}\n```\n```python\nprint(2)\n```\n````\n",
    );
    book.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stdout(str![[r#"
FAILED  src/py.md:4:22: found `asm` on a `python` side, a language whose assembly is not shown; expected it on a C, C++, Rust or Go side
FAILED  src/py.md:13:7: found `asm=graph` on a `go` side; expected `asm` or `asm=false` (graphs are drawn for C, C++ and Rust listings)
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 2 failed

"#]]);
    });
}
