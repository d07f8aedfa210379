//! Compilers' versions are asked where they compile (a book's
//! `rust-toolchain.toml` decides both).

use super::*;

/// A fake `rustc` that picks its toolchain as a rustup proxy does (from a
/// `rust-toolchain.toml` in its working directory or above) and logs which
/// one each version query and each compile got.
fn toolchain_book(companion: &str) -> (BookTest, PathBuf) {
    use std::os::unix::fs::PermissionsExt as _;
    let book = BookTest::new()
        .companion(companion)
        .chapter(
            "t.md",
            "# T\n\n```rust example expect=no-run\nfn main() {}\n```\n",
        )
        .file("rust-toolchain.toml", "[toolchain]\nchannel = \"pinned\"\n");
    let log = crate::support::compiler_log(book.root());
    let rustc = book.root().join("fake-rustc");
    let script = format!(
        r#"#!/bin/sh
tc=default
d=$PWD
while :; do
  if [ -f "$d/rust-toolchain.toml" ]; then tc=pinned; break; fi
  [ "$d" = / ] && break
  d=$(dirname "$d")
done
if [ "$1" = -vV ]; then
  echo "version $tc" >> '{log}'
  echo "rustc 1.0.0 ($tc)"
  exit 0
fi
echo "compile $tc" >> '{log}'
exit 0
"#,
        log = log.display()
    );
    std::fs::write(&rustc, script).expect("write the fake rustc");
    std::fs::set_permissions(&rustc, std::fs::Permissions::from_mode(0o755))
        .expect("make it executable");
    let book = book.companion(&format!("rustc = {:?}", rustc.display().to_string()));
    (book, log)
}

/// Each logged run's toolchain, and that both a version query and a
/// compile were logged.
fn toolchains(log: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(log).expect("the fake rustc ran");
    assert!(
        text.contains("version ") && text.contains("compile "),
        "{text}"
    );
    text.lines()
        .map(|l| l.split_once(' ').map_or(l, |(_, tc)| tc).to_owned())
        .collect()
}

/// The version in the cache key must be the version of the compiler that
/// compiles: a `rust-toolchain.toml` in the book's folder (mdBook runs
/// preprocessors there, authors run `check` there) must not make the
/// version query pick another toolchain than the compile.
#[test]
fn check_asks_the_version_where_it_compiles() {
    let (book, log) = toolchain_book("");
    book.write();
    // In the book's folder (as BookTest runs every command), naming it.
    book.run(&["check"], |cmd| {
        cmd.arg(book.root());
    });
    let seen = toolchains(&log);
    assert!(seen.iter().all(|t| *t == seen[0]), "{seen:?}");
}

#[test]
fn verify_asks_the_version_where_it_compiles() {
    let (book, log) = toolchain_book("verify = true");
    // Real mdBook runs the command preprocessor in the book's folder.
    book.build().expect("build");
    let seen = toolchains(&log);
    assert!(seen.iter().all(|t| *t == seen[0]), "{seen:?}");
}
