//! What installing needs reaches users: the four crates package (in the
//! order they publish: core, then engine and directives, then the root)
//! with their sources and without the repository's books, tests and
//! benchmarks, their manifests carry what a registry asks for; and the
//! guide's CI recipe pins the tool's version in one place and keys the
//! cached binary on it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The crates in publishing order, with their folders.
const CRATES: [(&str, &str); 4] = [
    ("mdbook-companion-core", "crates/core"),
    ("mdbook-companion-engine", "crates/engine"),
    ("mdbook-companion-directives", "crates/directives"),
    ("mdbook-companion", "."),
];

/// The files under `dir`, relative to it, `/`-separated.
fn files(dir: &Path, under: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, under, out);
        } else {
            let rel = path.strip_prefix(under).expect("inside");
            out.insert(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// `cargo package --list` of each crate, offline: every source file of
/// the crate and its manifest, and nothing of the repository's tests,
/// books, benchmarks, fuzzing or build output.
#[test]
fn each_crate_packages_its_sources_and_nothing_else() {
    for (name, dir) in CRATES {
        let out = Command::new(env!("CARGO"))
            .args([
                "package",
                "--list",
                "--allow-dirty",
                "--offline",
                "-p",
                name,
            ])
            .current_dir(root())
            .output()
            .expect("run cargo package");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        let listed: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect();
        let mut sources = BTreeSet::new();
        files(
            &root().join(dir).join("src"),
            &root().join(dir),
            &mut sources,
        );
        assert!(sources.len() >= 10, "{name}: {sources:?}");
        let missing: Vec<&String> = sources.difference(&listed).collect();
        assert!(missing.is_empty(), "{name} leaves out {missing:?}");
        assert!(listed.contains("Cargo.toml"), "{name}: {listed:?}");
        let top: BTreeSet<&str> = [
            "src",
            "Cargo.toml",
            "Cargo.toml.orig",
            "Cargo.lock",
            ".cargo_vcs_info.json",
            "README.md",
            "build.rs",
        ]
        .into();
        let stray: Vec<&String> = listed
            .iter()
            .filter(|f| !top.contains(f.split('/').next().unwrap_or_default()))
            .collect();
        assert!(stray.is_empty(), "{name} packages {stray:?}");
    }
}

/// Each manifest names what a registry asks for; the workspace's path
/// dependencies on our crates carry the version they publish with (a
/// registry refuses a path dependency without one); each crate lists
/// what it packages.
#[test]
fn each_manifest_is_publishable() {
    let workspace: toml::Table = std::fs::read_to_string(root().join("Cargo.toml"))
        .expect("Cargo.toml")
        .parse()
        .expect("TOML");
    let shared = &workspace["workspace"]["package"];
    let version = shared["version"].as_str().expect("workspace version");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    assert!(shared.get("license").and_then(|l| l.as_str()).is_some());
    let deps = workspace["workspace"]["dependencies"]
        .as_table()
        .expect("deps");
    for (name, dir) in &CRATES[..3] {
        let dep = deps[*name].as_table().expect("a table");
        assert_eq!(dep["path"].as_str(), Some(*dir), "{name}");
        assert_eq!(dep["version"].as_str(), Some(version), "{name}");
    }
    for (name, dir) in CRATES {
        let text = std::fs::read_to_string(root().join(dir).join("Cargo.toml")).expect("manifest");
        let manifest: toml::Table = text.parse().expect("TOML");
        let package = manifest["package"].as_table().expect("[package]");
        assert_eq!(package["name"].as_str(), Some(name));
        let description = package["description"].as_str().unwrap_or_default();
        assert!(description.len() > 20, "{name}: {description:?}");
        for key in ["version", "license", "edition", "rust-version"] {
            assert!(
                package.get(key).is_some(),
                "{name}: no `{key}` (its own or the workspace's)"
            );
        }
        let include = package["include"].as_array().expect("an include list");
        assert!(
            include.iter().any(|i| i.as_str() == Some("/src/**/*")),
            "{name}: {include:?}"
        );
    }
}

/// The guide's CI recipe (the first workflow of ci.md) pins the tool's
/// version once, as the version this is, in an env var that the tools'
/// cache key and the install line use; it pins the toolchain and runs
/// `check --locked`. The other page that shows CI links to it and shows
/// no install of its own.
#[test]
fn the_ci_recipe_pins_the_version_in_one_place() {
    let page = std::fs::read_to_string(root().join("guide/src/ci.md")).expect("ci.md");
    let start = page.find("```yaml\n").expect("a workflow") + "```yaml\n".len();
    let recipe = &page[start..start + page[start..].find("```\n").expect("closed")];
    let version = env!("CARGO_PKG_VERSION");
    let pin = format!("MDBOOK_COMPANION_VERSION: \"{version}\"");
    assert!(recipe.contains(&pin), "no `{pin}` in\n{recipe}");
    assert_eq!(recipe.matches(version).count(), 1, "{recipe}");
    let key = recipe
        .lines()
        .find(|l| l.contains("key: book-tools-"))
        .expect("the tools' cache key");
    assert!(key.contains("${{ env.MDBOOK_COMPANION_VERSION }}"), "{key}");
    assert!(key.contains("${{ env.RUSTUP_TOOLCHAIN }}"), "{key}");
    let install = recipe
        .lines()
        .find(|l| l.contains("cargo install") && l.contains("mdbook-companion"))
        .expect("the install line");
    assert!(
        install.contains("--locked") && install.contains("--version \"$MDBOOK_COMPANION_VERSION\""),
        "{install}"
    );
    // Installed only when the key (the versions) missed.
    assert!(
        recipe.contains("if: steps.tools.outputs.cache-hit != 'true'"),
        "{recipe}"
    );
    let toolchain = recipe
        .lines()
        .find_map(|l| l.trim().strip_prefix("RUSTUP_TOOLCHAIN: \""))
        .expect("the toolchain pinned");
    assert!(
        toolchain.starts_with(|c: char| c.is_ascii_digit()),
        "{toolchain}"
    );
    assert!(
        recipe.contains("mdbook-companion check book --locked"),
        "{recipe}"
    );
    for other in [
        "guide/src/existing-book.md",
        "guide/src/getting-started.md",
        "README.md",
    ] {
        let text = std::fs::read_to_string(root().join(other)).expect(other);
        assert!(text.contains("ci.md#github-actions-one-job"), "{other}");
        assert!(
            !text.contains("actions/cache"),
            "{other} shows a CI recipe of its own"
        );
    }
}
