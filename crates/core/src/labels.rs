//! The lines a compiler's first error labels, read from rustc's
//! diagnostics as a reader sees them (`--color never`): the primary line
//! (`--> main.rs:4:5`, its `^^^` label) and every secondary label (`-`,
//! "immutable borrow later used here") of the error's own snippet, not
//! of its notes and help. A quiz's key "the first error is on line 6"
//! holds on any of them: the line a learner points at is often the one
//! a secondary label names.

/// One line the first error labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// The 1-based line of the program.
    pub line: usize,
    /// The label's words (empty when the marker has none).
    pub text: String,
    /// The error's primary line (`-->`).
    pub primary: bool,
}

/// The labels of rustc's first error in `diagnostics`, on lines of the
/// program: read on `main.rs`, or, when the diagnostics were told in the
/// author's file (`lines`, as `check` tells failures and the lock keeps
/// runs), read there and told as lines of the program again. A label on
/// a line of the file that is no line of the program is left out.
pub fn program_labels(diagnostics: &str, lines: Option<&crate::lines::ProgramLines>) -> Vec<Label> {
    let told = lines.filter(|l| diagnostics.contains(&format!("--> {}:", l.file)));
    let Some(told) = told else {
        return first_error_labels(diagnostics, "main.rs");
    };
    first_error_labels(diagnostics, &told.file)
        .into_iter()
        .filter_map(|mut l| {
            let at = (told.lines.iter()).position(|p| p.is_some_and(|(line, _)| line == l.line))?;
            l.line = at + 1;
            Some(l)
        })
        .collect()
}

/// The labels of rustc's first error in `diagnostics` on lines of
/// `source_file`, in the order the snippet shows them (one per label; a
/// line may carry several). Empty when there is no such error.
pub fn first_error_labels(diagnostics: &str, source_file: &str) -> Vec<Label> {
    let mut lines = diagnostics
        .lines()
        .skip_while(|l| !l.starts_with("error"))
        .skip(1);
    let arrow = format!("--> {source_file}:");
    let mut labels = Vec::new();
    let mut primary = None;
    // The snippet's current line, when it is one of `source_file`.
    let mut current: Option<usize> = None;
    let mut in_file = false;
    for line in lines.by_ref() {
        if line.is_empty() || line.starts_with(|c: char| c.is_ascii_alphabetic()) {
            break;
        }
        let t = line.trim_start();
        if t.starts_with("= ") {
            break;
        }
        if let Some(at) = t.strip_prefix("--> ").or_else(|| t.strip_prefix("::: ")) {
            in_file = at.starts_with(&arrow[4..]);
            if in_file && t.starts_with("-->") && primary.is_none() {
                primary = at[arrow.len() - 4..]
                    .split(':')
                    .next()
                    .and_then(|n| n.parse::<usize>().ok());
            }
            current = None;
            continue;
        }
        if let Some((n, _)) = t.split_once(" |").filter(|(n, _)| !n.is_empty())
            && let Ok(n) = n.trim().parse::<usize>()
        {
            current = in_file.then_some(n);
            continue;
        }
        if t == "..." {
            current = None;
            continue;
        }
        let (Some(at), Some(rest)) = (current, t.strip_prefix('|')) else {
            continue;
        };
        let marked = rest.contains(['^', '-']);
        let text = rest
            .trim_start_matches([' ', '|', '_', '^', '-'])
            .trim_end();
        if text.is_empty() && !marked {
            continue;
        }
        let is_primary =
            Some(at) == primary && rest.contains('^') && !labels.iter().any(|l: &Label| l.primary);
        labels.push(Label {
            line: at,
            text: text.to_owned(),
            primary: is_primary,
        });
    }
    labels.retain(|l| l.primary || !l.text.is_empty());
    if let Some(p) = primary
        && !labels.iter().any(|l| l.primary)
    {
        labels.insert(
            0,
            Label {
                line: p,
                text: String::new(),
                primary: true,
            },
        );
    }
    labels
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn got(d: &str) -> Vec<(usize, String, bool)> {
        first_error_labels(d, "main.rs")
            .into_iter()
            .map(|l| (l.line, l.text, l.primary))
            .collect()
    }

    fn want(labels: &[(usize, &str, bool)]) -> Vec<(usize, String, bool)> {
        labels
            .iter()
            .map(|(l, t, p)| (*l, (*t).to_owned(), *p))
            .collect()
    }

    #[test]
    fn primary_and_secondary_labels_of_the_first_error() {
        let d =
            "error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable
 --> main.rs:4:5
  |
3 |     let first = &v[0];
  |                  - immutable borrow occurs here
4 |     v.push(4);
  |     ^^^^^^^^^ mutable borrow occurs here
5 |     println!(\"{first}\");
  |                ----- immutable borrow later used here

error: aborting due to 1 previous error
";
        assert_eq!(
            got(d),
            want(&[
                (3, "immutable borrow occurs here", false),
                (4, "mutable borrow occurs here", true),
                (5, "immutable borrow later used here", false),
            ])
        );
    }

    #[test]
    fn labels_hanging_below_a_line_and_notes_after_it() {
        let d = "warning: unused
 --> main.rs:1:5
  |
1 |     x
  |     ^ help: not this one
error[E0382]: borrow of moved value: `s`
 --> main.rs:3:24
  |
2 |     let s = String::from(\"hi\");
  |         - move occurs because `s` has type `String`
3 |     let t = s; let u = &s;
  |             -          ^^ value borrowed here after move
  |             |
  |             value moved here
...
7 |         s);
  |         - value moved here too
  |
note: consider changing this parameter type
 --> main.rs:8:19
  |
8 | fn foo(a: i32, b: String) -> i32 { a }
  |    ---            ^^^^^^ this parameter takes ownership of the value
help: consider cloning
  |
3 |     let t = s.clone();
  |              ++++++++
";
        assert_eq!(
            got(d),
            want(&[
                (2, "move occurs because `s` has type `String`", false),
                (3, "value borrowed here after move", true),
                (3, "value moved here", false),
                (7, "value moved here too", false),
            ])
        );
    }

    #[test]
    fn spans_over_lines_and_other_files() {
        let d = "error[E0308]: mismatched types
 --> main.rs:3:13
  |
3 |       let x = foo(
  |  _____________^
4 | |         1,
5 | |     );
  | |_____^ expected `u8`, found `i32`
  |
 ::: /rustc/lib.rs:10:1
  |
10 |  pub fn foo() {}
  |  --- defined here
";
        assert_eq!(
            got(d),
            want(&[(3, "", true), (5, "expected `u8`, found `i32`", false)])
        );
        assert_eq!(first_error_labels("error: linking failed\n", "main.rs"), []);
    }

    #[test]
    fn labels_told_in_the_authors_file_are_lines_of_the_program_again() {
        // The program's line 1 is the wrapping; lines 2-4 stand on lines
        // 11-13 of the quiz file, as `check` tells them.
        let lines = crate::lines::ProgramLines {
            file: "src/q.toml".into(),
            lines: vec![None, Some((11, 4)), Some((12, 4)), Some((13, 4))],
            open: 10,
            close: 14,
            hidden: Vec::new(),
        };
        let told = "error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable\n  --> src/q.toml:13:5\n   |\n12 |     let r = &v;\n   |             -- immutable borrow occurs here\n13 |     v.push(1);\n   |     ^^^^^^^^^ mutable borrow occurs here\n";
        let got: Vec<(usize, bool)> = program_labels(told, Some(&lines))
            .into_iter()
            .map(|l| (l.line, l.primary))
            .collect();
        assert_eq!(got, [(3, false), (4, true)]);
        // Untold diagnostics are read on main.rs, as before.
        let raw = told
            .replace("src/q.toml:13:5", "main.rs:4:5")
            .replace("12 |", " 3 |")
            .replace("13 |", " 4 |");
        let got: Vec<(usize, bool)> = program_labels(&raw, Some(&lines))
            .into_iter()
            .map(|l| (l.line, l.primary))
            .collect();
        assert_eq!(got, [(3, false), (4, true)]);
    }
}
