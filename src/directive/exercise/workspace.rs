//! The book's exercises as a Cargo workspace, so that students run
//! `cargo test -p NAME` on their own machine: one package per exercise,
//! named after its `id`, whose `src/lib.rs` holds the starter (or the
//! solution) with the tests in `mod tests`, and whose `Cargo.toml` takes
//! the crates it uses from the book's declared dependencies (the
//! workspace's `[workspace.dependencies]`). Pure: the `exercises` command
//! writes what this makes.

use super::{Exercise, PATTERN};
use crate::core::config::Config;
use crate::core::crates::{self, Dependency};
use crate::core::markdown;
use crate::core::problem::Problem;

/// The exercises of a chapter's text, each parsed or its located problem.
pub fn of_chapter(text: &str, config: &Config) -> Vec<Result<Exercise, Problem>> {
    markdown::scan(text, &[PATTERN])
        .iter()
        .map(|b| Exercise::parse(b, text, config))
        .collect()
}

/// One exercise of the book and the chapter file it is in.
#[derive(Debug, Clone)]
pub struct Placed {
    /// The chapter file (`src/try-it.md`).
    pub file: String,
    /// The exercise.
    pub exercise: Exercise,
}

/// The files of the workspace (path relative to its root, text), the
/// starters' or, with `solutions`, the solutions'.
pub fn files(
    book: &str,
    exercises: &[Placed],
    deps: &[Dependency],
    solutions: bool,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let names: Vec<String> = deps.iter().map(Dependency::extern_name).collect();
    let mut root = toml::Table::new();
    let mut workspace = toml::Table::new();
    workspace.insert("resolver".into(), "2".into());
    let members: Vec<String> = exercises.iter().map(|p| p.exercise.package()).collect();
    workspace.insert("members".into(), members.into());
    if !deps.is_empty() {
        workspace.insert(
            "dependencies".into(),
            crate::engine::crates::entries(deps).into(),
        );
    }
    root.insert("workspace".into(), workspace.into());
    let which = if solutions { "solutions" } else { "starters" };
    out.push((
        "Cargo.toml".to_owned(),
        format!(
            "# The exercises of {book}, written by `mdbook-companion exercises` ({which}).\n# `cargo test -p NAME` runs one exercise's tests; this file is rewritten\n# when the command runs again.\n{}",
            toml::to_string(&root).unwrap_or_default()
        ),
    ));
    for Placed { file, exercise: ex } in exercises {
        let name = &ex.package();
        let code = ex.test_crate(solutions);
        // Written by hand, in the order Cargo's own templates use.
        let quoted = |s: &str| toml::Value::String(s.to_owned()).to_string();
        let mut manifest = format!(
            "[package]\nname = {}\nversion = \"0.1.0\"\nedition = \"{}\"\npublish = false\n",
            quoted(name),
            ex.edition
        );
        let used = crates::used(&code, names.iter().map(String::as_str));
        let mut deps_shown = String::new();
        for d in deps.iter().filter(|d| used.contains(&d.extern_name())) {
            deps_shown.push_str(&format!("{} = {{ workspace = true }}\n", quoted(&d.key)));
        }
        if !deps_shown.is_empty() {
            manifest.push_str("\n[dependencies]\n");
            manifest.push_str(&deps_shown);
        }
        out.push((format!("{name}/Cargo.toml"), manifest));
        let mut lib = format!("//! {} ({file})\n", ex.title);
        if let Some(task) = &ex.task {
            lib.push_str("//!\n");
            for line in task.text.lines() {
                lib.push_str(format!("//! {line}").trim_end());
                lib.push('\n');
            }
        }
        lib.push('\n');
        lib.push_str(&code);
        out.push((format!("{name}/src/lib.rs"), lib));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    const CHAPTER: &str = "````exercise title=\"Safe division\" id=safe-division\nUse `checked_div`.\n\n```rust starter\npub fn divide(a: i32, b: i32) -> Option<i32> { todo!() }\n```\n\n```rust tests\n#[test]\nfn by_zero() { assert_eq!(divide(1, 0), None); }\n```\n\n```rust solution\npub fn divide(a: i32, b: i32) -> Option<i32> { mylib::checked(a, b) }\n```\n````\n";

    fn placed() -> Vec<Placed> {
        let config = Config::from_json("/b".into(), &serde_json::json!({})).unwrap();
        of_chapter(CHAPTER, &config)
            .into_iter()
            .map(|e| Placed {
                file: "src/a.md".into(),
                exercise: e.unwrap(),
            })
            .collect()
    }

    #[test]
    fn one_package_per_exercise_named_after_its_id() {
        let mylib = Dependency {
            key: "mylib".into(),
            path: Some("/libs/mylib".into()),
            ..Dependency::default()
        };
        let starters = files("Book", &placed(), std::slice::from_ref(&mylib), false);
        let names: Vec<&str> = starters.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            names,
            [
                "Cargo.toml",
                "safe-division/Cargo.toml",
                "safe-division/src/lib.rs"
            ]
        );
        assert!(
            starters[0].1.contains("members = [\"safe-division\"]"),
            "{}",
            starters[0].1
        );
        assert!(
            starters[0]
                .1
                .contains("[workspace.dependencies.mylib]\npath = \"/libs/mylib\""),
            "{}",
            starters[0].1
        );
        // The starter names no crate; the solution uses mylib.
        assert!(!starters[1].1.contains("mylib"), "{}", starters[1].1);
        assert!(
            starters[2].1.starts_with(
                "//! Safe division (src/a.md)\n//!\n//! Use `checked_div`.\n\npub fn divide"
            ),
            "{}",
            starters[2].1
        );
        assert!(starters[2].1.contains("todo!()"));
        assert!(starters[2].1.contains("mod tests {\n    use super::*;"));
        let solutions = files("Book", &placed(), &[mylib], true);
        assert!(
            solutions[1]
                .1
                .contains("[dependencies]\n\"mylib\" = { workspace = true }"),
            "{}",
            solutions[1].1
        );
        assert!(solutions[2].1.contains("mylib::checked(a, b)"));
        assert!(!solutions[2].1.contains("todo!()"));
    }
}
