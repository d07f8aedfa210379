//! The command-line tools some tests run besides our own binary (the
//! `mdbook` CLI, `mdbook-gettext`, `mdbook-xgettext`), obtained by the test
//! suite itself: installed once, at pinned versions, with `cargo install
//! --locked` under `target/`, so `cargo test` needs nothing but the Rust
//! toolchain. `PATH` is never consulted: the tests always run the versions
//! pinned here, whatever a developer has installed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// A crate that provides tools, at the version the tests are written for.
struct Package {
    name: &'static str,
    version: &'static str,
    bins: &'static [&'static str],
}

const PACKAGES: &[Package] = &[
    Package {
        name: "mdbook",
        version: "0.5.4",
        bins: &["mdbook"],
    },
    Package {
        name: "mdbook-i18n-helpers",
        version: "0.4.0",
        bins: &["mdbook-gettext", "mdbook-xgettext"],
    },
];

/// Where installed tools live: `target/tmp/tools/NAME-VERSION/bin`.
fn root() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("tools")
}

/// The installation directory of `package`.
fn home(package: &Package) -> PathBuf {
    root().join(format!("{}-{}", package.name, package.version))
}

/// The path of the tool `bin` (`mdbook`, `mdbook-gettext`, …), installed
/// the first time any test asks for it. Panics, saying what failed, when
/// it cannot be installed: a test that needs a tool gets it or fails
/// loudly.
pub fn tool(bin: &str) -> PathBuf {
    let package = PACKAGES
        .iter()
        .find(|p| p.bins.contains(&bin))
        .unwrap_or_else(|| panic!("no pinned package provides `{bin}`"));
    let exe = home(package).join("bin").join(bin);
    if exe.is_file() {
        return exe;
    }
    // One installation at a time within this process; across processes
    // the installation is made in a directory of its own and renamed into
    // place, so a half-made one is never used.
    static INSTALLING: Mutex<()> = Mutex::new(());
    let _one = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    if exe.is_file() {
        return exe;
    }
    install(package);
    assert!(
        exe.is_file(),
        "installing {} {} made no `{bin}` in {}",
        package.name,
        package.version,
        home(package).display()
    );
    exe
}

/// Installs `package` with `cargo install --locked` into its own directory.
fn install(package: &Package) {
    let partial = root().join(format!(
        "{}-{}.partial-{}",
        package.name,
        package.version,
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial).expect("make the tools directory under target/");
    eprintln!(
        "tests: installing {} {} under {} (once; `cargo install --locked`)",
        package.name,
        package.version,
        root().display()
    );
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["install", "--locked", "--quiet", "--root"])
        .arg(&partial)
        .arg("--target-dir")
        .arg(root().join("build"))
        .arg(format!("{}@{}", package.name, package.version))
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap_or_else(|e| panic!("running cargo install {}: {e}", package.name));
    assert!(
        out.status.success(),
        "cargo install --locked {}@{} failed; the tests need it:\n{}",
        package.name,
        package.version,
        String::from_utf8_lossy(&out.stderr)
    );
    // Another process may have finished first: theirs is as good as ours.
    if std::fs::rename(&partial, home(package)).is_err() {
        let _ = std::fs::remove_dir_all(&partial);
    }
}

/// axe-core's version, the accessibility engine the browser tests run.
const AXE_CORE: &str = "4.14.1";

/// `axe.min.js` of axe-core [`AXE_CORE`], fetched once from the npm
/// registry with `npm pack` and unpacked under `target/tmp/tools/`.
/// Panics, saying what failed, when it cannot be had.
pub fn axe_core() -> PathBuf {
    let home = root().join(format!("axe-core-{AXE_CORE}"));
    let script = home.join("package/axe.min.js");
    if script.is_file() {
        return script;
    }
    static FETCHING: Mutex<()> = Mutex::new(());
    let _one = FETCHING.lock().unwrap_or_else(|e| e.into_inner());
    if script.is_file() {
        return script;
    }
    let partial = root().join(format!(
        "axe-core-{AXE_CORE}.partial-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial).expect("make the tools directory under target/");
    eprintln!(
        "tests: fetching axe-core {AXE_CORE} under {} (once; `npm pack`)",
        root().display()
    );
    // npm as the machine has it, or Debian's, installed once as root.
    let npm = debian("npm", "npm").unwrap_or_else(|| {
        panic!("the accessibility tests need npm to fetch axe-core and found none: install Node.js and npm (`apt-get install npm`)")
    });
    let out = Command::new(npm)
        .args(["pack", "--silent", &format!("axe-core@{AXE_CORE}")])
        .current_dir(&partial)
        .output()
        .unwrap_or_else(|e| panic!("running npm: {e}"));
    assert!(
        out.status.success(),
        "npm pack axe-core@{AXE_CORE} failed; the accessibility tests need it:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tgz = partial.join(format!("axe-core-{AXE_CORE}.tgz"));
    let unpacked = Command::new("tar")
        .arg("xzf")
        .arg(&tgz)
        .current_dir(&partial)
        .status()
        .unwrap_or_else(|e| panic!("running tar on {}: {e}", tgz.display()));
    assert!(unpacked.success(), "tar could not unpack {}", tgz.display());
    if std::fs::rename(&partial, &home).is_err() {
        let _ = std::fs::remove_dir_all(&partial);
    }
    assert!(
        script.is_file(),
        "axe-core {AXE_CORE} has no {}",
        script.display()
    );
    script
}

/// A `PATH` on which our freshly built binary comes first, then `tools`,
/// then the caller's `PATH`.
pub fn path_with(tools: &[&str]) -> std::ffi::OsString {
    let ours = Path::new(crate::support::BIN).parent().expect("bin dir");
    let mut dirs = vec![ours.to_path_buf()];
    dirs.extend(
        tools
            .iter()
            .map(|t| tool(t).parent().expect("bin dir").to_path_buf()),
    );
    if let Some(p) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&p));
    }
    std::env::join_paths(dirs).expect("PATH")
}

#[test]
fn pinned_tools_report_their_pinned_versions() {
    for package in PACKAGES {
        let exe = tool(package.bins[0]);
        // mdbook-i18n-helpers' binaries are preprocessors/renderers without
        // a version flag; the installation's own record names the version.
        let said = if package.name == "mdbook" {
            let out = Command::new(&exe).arg("--version").output().expect("run");
            String::from_utf8_lossy(&out.stdout).into_owned()
        } else {
            std::fs::read_to_string(home(package).join(".crates.toml")).expect("crates.toml")
        };
        assert!(
            said.contains(package.version),
            "{} should be {}: {said}",
            exe.display(),
            package.version
        );
    }
}

/// The Debian tool `bin` (from `package`): found on `PATH` or, when the
/// tests run as root where `apt-get` exists, installed once with it (as
/// `.ci/run` does); `None` when neither gives it. Callers fail loudly.
pub fn debian(bin: &str, package: &str) -> Option<PathBuf> {
    let find = || {
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path)
            .map(|dir| dir.join(bin))
            .find(|exe| exe.is_file())
    };
    if let Some(exe) = find() {
        return Some(exe);
    }
    static TRIED: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut tried = TRIED.lock().unwrap_or_else(|e| e.into_inner());
    if !tried.iter().any(|p| p == package) {
        tried.push(package.to_owned());
        let root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.starts_with(b"0"));
        if root && Path::new("/usr/bin/apt-get").exists() {
            eprintln!("tests: installing Debian's {package} (apt-get)");
            let ok = Command::new("sh")
                .arg("-c")
                .arg(format!(
                    "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq {package}"
                ))
                .status()
                .is_ok_and(|s| s.success());
            eprintln!(
                "tests: apt-get install {package} {}",
                if ok { "done" } else { "failed" }
            );
        }
    }
    find()
}

/// Valgrind, which `sanitize=memcheck` claims (and the example book) run
/// under: found or installed, or the test fails saying how to get it.
pub fn valgrind() -> PathBuf {
    debian("valgrind", "valgrind").unwrap_or_else(|| {
        panic!(
            "these tests need Valgrind and found none on PATH: install it \
             (`apt-get install valgrind`, as .ci/run does)"
        )
    })
}
