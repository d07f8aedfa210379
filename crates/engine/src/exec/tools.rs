//! The tools [`run`] starts: the command that starts a
//! compiler (in a [`scratch_dir`], past a rustup
//! proxy), where its toolchain's libraries are, its version (asked once
//! per process, and remembered in the book's cache under a fingerprint of
//! its file).

use super::process::{Finished, Limits, run, scratch_dir};
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

/// The command that starts the compiler `program` in `dir` (made by
/// [`scratch_dir`]), with this process's environment: the one way compiles
/// and version queries are started, so they see the same directory and
/// environment.
pub fn compiler_command(program: &str, dir: &Path) -> Command {
    let mut cmd = match unproxied(program) {
        Some(file) => Command::new(file),
        None => Command::new(program),
    };
    cmd.current_dir(dir);
    cmd
}

/// What a compiler says of itself (`rustc --print WHAT`), asked through
/// `cmd` in a scratch directory like a compile; `None` when it cannot be
/// asked.
fn print(mut cmd: Command, dir: &Path, what: &str) -> Option<std::path::PathBuf> {
    cmd.current_dir(dir).args(["--print", what]);
    let out = run(&mut cmd, b"", Limits::with_timeout(Duration::from_secs(30)))
        .ok()
        .filter(Finished::success)?;
    Some(std::path::PathBuf::from(out.stdout.trim()))
}

/// Paths (or versions) found once per process, by the program they are
/// about.
type Found<T = std::path::PathBuf> = std::sync::LazyLock<Mutex<HashMap<String, Option<T>>>>;

/// `find()` for `program`, asked the first time only (the answer kept in
/// `found`).
fn remembered(
    found: &Found,
    program: &str,
    find: impl FnOnce() -> Option<std::path::PathBuf>,
) -> Option<std::path::PathBuf> {
    let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
    found.entry(program.to_owned()).or_insert_with(find).clone()
}

/// The directory of a `rustc`'s own target libraries (`rustc --print
/// target-libdir`, where `libstd-*.so` is), asked once per process in a
/// scratch directory like a compile; `None` when it cannot be asked or
/// holds no shared standard library.
pub fn target_libdir(program: &str) -> Option<std::path::PathBuf> {
    static FOUND: Found = std::sync::LazyLock::new(Default::default);
    remembered(&FOUND, program, || {
        let dir = scratch_dir().ok()?;
        let libdir = print(
            compiler_command(program, dir.path()),
            dir.path(),
            "target-libdir",
        )?;
        // A toolchain without its shared standard library (some
        // distributions ship only the rlibs) links statically.
        let shared_std = std::fs::read_dir(&libdir).ok()?.flatten().any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("libstd-") && name.ends_with(std::env::consts::DLL_SUFFIX)
        });
        shared_std.then_some(libdir)
    })
}

/// The compiler a rustup proxy `rustc` starts in a scratch directory (its
/// toolchain's own `bin/rustc`, from `rustc --print sysroot` asked there
/// through the proxy), found once per process; `None` for anything that
/// is not a rustup proxy of `rustc`. Started directly, a compile skips the
/// proxy's own start (it resolves the toolchain and execs the real
/// compiler), which a cold check would otherwise pay on every one of its
/// compiler starts.
fn unproxied(program: &str) -> Option<std::path::PathBuf> {
    static FOUND: Found = std::sync::LazyLock::new(Default::default);
    remembered(&FOUND, program, || {
        let path = resolve(program)?;
        let real = std::fs::canonicalize(&path).ok()?;
        let proxy = real.file_name().is_some_and(|n| n == "rustup");
        if !proxy || path.file_name().is_none_or(|n| n != "rustc") {
            return None;
        }
        let dir = scratch_dir().ok()?;
        let sysroot = print(Command::new(&path), dir.path(), "sysroot")?;
        let file = sysroot.join("bin").join("rustc");
        file.is_file().then_some(file)
    })
}

/// The version line of a compiler (`rustc -vV`, `cc --version`), asked once
/// per process, in a [`scratch_dir`] like a compile; `None` when the
/// program cannot be run.
pub fn tool_version(program: &str) -> Option<String> {
    if let Some(v) = known_version(program) {
        return v;
    }
    // rustc's verbose form names its commit and host; a tool that knows
    // no `--version` may take Go's `version`.
    let flags: &[&str] = if program.contains("rustc") {
        &["-vV"]
    } else {
        &["--version", "version"]
    };
    let dir = scratch_dir().ok()?;
    let version = flags.iter().find_map(|flag| {
        run(
            compiler_command(program, dir.path()).arg(flag),
            b"",
            Limits::with_timeout(Duration::from_secs(30)),
        )
        .ok()
        .filter(Finished::success)
        .map(|f| f.stdout.trim().to_owned())
    });
    remember_version(program, version.clone());
    version
}

/// Versions already known to this process, by program name.
static VERSIONS: Found<String> = std::sync::LazyLock::new(Default::default);

fn known_version(program: &str) -> Option<Option<String>> {
    VERSIONS.lock().ok().and_then(|m| m.get(program).cloned())
}

fn remember_version(program: &str, version: Option<String>) {
    if let Ok(mut m) = VERSIONS.lock() {
        m.insert(program.to_owned(), version);
    }
}

/// [`tool_version`], remembered in the book's cache under a fingerprint of
/// the compiler's file (resolved path, size, modification time; for a
/// rustup proxy also the installed toolchains' compilers and
/// `RUSTUP_TOOLCHAIN`), so that a warm build starts no compiler at all, not
/// even for a version query. Replacing or updating the compiler changes the
/// fingerprint, and the version is asked again.
pub fn tool_version_cached(program: &str, cache: &crate::cache::Cache) -> Option<String> {
    if let Some(v) = known_version(program) {
        return v;
    }
    let Some(fingerprint) = tool_fingerprint(program) else {
        return tool_version(program);
    };
    let key = crate::cache::Cache::key(&[b"tool-version", fingerprint.as_bytes()]);
    if let Some(v) = cache
        .get("tools", &key)
        .and_then(|b| String::from_utf8(b).ok())
        .filter(|v| !v.is_empty())
    {
        remember_version(program, Some(v.clone()));
        return Some(v);
    }
    let version = tool_version(program)?;
    cache.put("tools", &key, version.as_bytes());
    Some(version)
}

/// Identifies the file a program name runs, without running it.
pub fn tool_fingerprint(program: &str) -> Option<String> {
    let path = resolve(program)?;
    let real = std::fs::canonicalize(&path).ok()?;
    // The name matters to a rustup proxy (rustc and cargo are one file).
    let name = path.file_name()?.to_string_lossy().into_owned();
    let mut parts = vec![name, describe(&real)?];
    let is_rustup_proxy = real.file_name().is_some_and(|n| n == "rustup")
        || path.parent().is_some_and(|d| d.ends_with(".cargo/bin"));
    if is_rustup_proxy {
        parts.push(std::env::var("RUSTUP_TOOLCHAIN").unwrap_or_default());
        let home = std::env::var_os("RUSTUP_HOME")
            .map(std::path::PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".rustup"))
            })?;
        parts.push(describe(&home.join("settings.toml")).unwrap_or_default());
        let mut toolchains: Vec<_> = std::fs::read_dir(home.join("toolchains"))
            .ok()?
            .filter_map(Result::ok)
            .map(|e| {
                e.path()
                    .join("bin")
                    .join(path.file_name().unwrap_or_default())
            })
            .collect();
        toolchains.sort();
        parts.extend(toolchains.iter().filter_map(|t| describe(t)));
        // A rust-toolchain file in the compiler's working directory (a
        // scratch directory) or above it picks the toolchain.
        for dir in super::process::scratch_base().ancestors() {
            for f in ["rust-toolchain", "rust-toolchain.toml"] {
                parts.push(std::fs::read_to_string(dir.join(f)).unwrap_or_default());
            }
        }
    }
    Some(parts.join("\n"))
}

/// A file as path, size and modification time (nanoseconds): changes
/// when the file is replaced or rewritten.
pub fn describe(path: &std::path::Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    let modified = meta
        .modified()
        .ok()
        .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    Some(format!("{} {} {modified}", path.display(), meta.len()))
}

/// The file a program name refers to: a path as given, else the first match
/// on `PATH`.
fn resolve(program: &str) -> Option<std::path::PathBuf> {
    let p = std::path::Path::new(program);
    if p.components().count() > 1 {
        return p.is_file().then(|| p.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|c| c.is_file())
}

#[cfg(unix)]
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rustup_proxy_is_skipped_for_the_compiler_it_would_start() {
        let Some(real) = resolve("rustc").and_then(|p| std::fs::canonicalize(p).ok()) else {
            panic!("rustc is not on PATH");
        };
        let direct = unproxied("rustc");
        match real.file_name().is_some_and(|n| n == "rustup") {
            // The toolchain's own file, which says what the proxy says.
            true => {
                let direct = direct.expect("the proxy's toolchain");
                assert!(
                    !direct.ends_with(".cargo/bin/rustc"),
                    "{}",
                    direct.display()
                );
                let dir = scratch_dir().expect("scratch");
                let version = |mut cmd: Command| {
                    cmd.current_dir(dir.path()).arg("-vV");
                    run(&mut cmd, b"", Limits::with_timeout(Duration::from_secs(30)))
                        .expect("rustc -vV")
                        .stdout
                };
                assert_eq!(
                    version(Command::new(&direct)),
                    version(Command::new("rustc"))
                );
            }
            false => assert_eq!(direct, None),
        }
        assert_eq!(unproxied("cc"), None);
    }

    #[test]
    fn cached_version_needs_no_run_until_the_tool_changes() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        let tool = dir.path().join("fakecc");
        let script = |v: &str| {
            format!(
                "#!/bin/sh\necho run >> {}\necho 'fakecc {v}'\n",
                log.display()
            )
        };
        std::fs::write(&tool, script("1.0")).unwrap();
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        let cache = crate::cache::Cache::at(dir.path().join("cache"));
        let name = tool.display().to_string();
        let runs = || {
            std::fs::read_to_string(&log)
                .unwrap_or_default()
                .lines()
                .count()
        };
        assert_eq!(
            tool_version_cached(&name, &cache).as_deref(),
            Some("fakecc 1.0")
        );
        assert_eq!(runs(), 1);
        // A new process would not have the in-memory answer: clear it by
        // asking through a different spelling of the same file.
        let other = format!("{}/./fakecc", dir.path().display());
        assert_eq!(
            tool_version_cached(&other, &cache).as_deref(),
            Some("fakecc 1.0")
        );
        assert_eq!(runs(), 1, "served from the cache");
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&tool, script("2.0 (updated)")).unwrap();
        let third = format!("{}/././fakecc", dir.path().display());
        assert_eq!(
            tool_version_cached(&third, &cache).as_deref(),
            Some("fakecc 2.0 (updated)")
        );
        assert_eq!(runs(), 2, "a changed compiler is asked again");
        assert_eq!(tool_version_cached("/nonexistent/cc", &cache), None);
    }

    #[test]
    fn versions_are_read_once_and_missing_tools_are_none() {
        assert!(tool_version("rustc").unwrap().contains("rustc"));
        assert_eq!(tool_version("/nonexistent/compiler"), None);
    }

    #[test]
    fn versions_are_asked_in_a_scratch_directory_like_compiles() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let tool = dir.path().join("pwdcc");
        std::fs::write(&tool, "#!/bin/sh\necho \"$PWD\"\n").unwrap();
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        let asked = std::path::PathBuf::from(tool_version(&tool.display().to_string()).unwrap());
        let scratch = scratch_dir().unwrap();
        let compiled = run(
            compiler_command(&tool.display().to_string(), scratch.path()).arg("x.c"),
            b"",
            Limits::with_timeout(Duration::from_secs(10)),
        )
        .unwrap();
        let compiled = std::path::PathBuf::from(compiled.stdout.trim());
        assert_eq!(compiled, scratch.path());
        assert_eq!(
            asked.parent(),
            compiled.parent(),
            "{asked:?} vs {compiled:?}"
        );
        assert_ne!(
            Some(asked.as_path()),
            std::env::current_dir().ok().as_deref()
        );
        assert!(!asked.exists(), "the version query's directory is removed");
    }
}
