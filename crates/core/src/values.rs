//! Reading a directive's attribute values with located messages: each
//! accessor says what was found and what was expected, at the attribute.

use crate::attrs::Attr;
use crate::markdown::Fence;
use crate::problem::Problem;

/// A reader of one fence's attributes.
#[derive(Debug)]
pub struct Attrs<'a> {
    fence: &'a Fence,
    seen: Vec<String>,
}

impl<'a> Attrs<'a> {
    /// A reader for `fence`'s attributes.
    pub fn new(fence: &'a Fence) -> Self {
        Attrs {
            fence,
            seen: Vec::new(),
        }
    }

    /// One string or an array of strings (`tags="a"`, `tags=["a", "b"]`).
    pub fn strings(&self, attr: &Attr) -> Result<Vec<String>, Problem> {
        let bad = || {
            self.problem(
                attr,
                format!(
                    "found {} for `{}`; expected a string or an array of strings, such as {}=[\"a\", \"b\"]",
                    attr.type_name(),
                    attr.key,
                    attr.key
                ),
            )
        };
        match &attr.value {
            Some(toml::Value::String(s)) => Ok(vec![s.clone()]),
            Some(toml::Value::Array(items)) if !items.is_empty() => items
                .iter()
                .map(|v| v.as_str().map(str::to_owned).ok_or_else(bad))
                .collect(),
            _ => Err(bad()),
        }
    }

    /// A problem at the attribute.
    pub fn problem(&self, attr: &Attr, message: impl Into<String>) -> Problem {
        Problem::at(self.fence.info_offset + attr.offset, message)
    }

    /// Rejects a key given twice.
    pub fn once(&mut self, attr: &Attr, name: &str) -> Result<(), Problem> {
        if self.seen.iter().any(|s| s == name) {
            return Err(self.problem(
                attr,
                format!("found `{name}` a second time; expected each attribute once"),
            ));
        }
        self.seen.push(name.to_owned());
        Ok(())
    }

    /// A string value.
    pub fn string(&self, attr: &Attr) -> Result<String, Problem> {
        match &attr.value {
            Some(toml::Value::String(s)) => Ok(s.clone()),
            _ => Err(self.problem(
                attr,
                format!(
                    "found {} for `{}`; expected a string",
                    attr.type_name(),
                    attr.key
                ),
            )),
        }
    }

    /// A boolean: a bare flag is `true`.
    pub fn boolean(&self, attr: &Attr) -> Result<bool, Problem> {
        match &attr.value {
            None => Ok(true),
            Some(toml::Value::Boolean(b)) => Ok(*b),
            Some(_) => Err(self.problem(
                attr,
                format!(
                    "found {} for `{}`; expected true or false (or the bare flag)",
                    attr.type_name(),
                    attr.key
                ),
            )),
        }
    }

    /// One of a fixed set of words.
    pub fn choice<T: Copy>(&self, attr: &Attr, choices: &[(&str, T)]) -> Result<T, Problem> {
        let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
        let found = match &attr.value {
            Some(toml::Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => String::new(),
        };
        choices
            .iter()
            .find(|(n, _)| *n == found)
            .map(|(_, v)| *v)
            .ok_or_else(|| {
                let found = if attr.value.is_none() {
                    "no value".to_owned()
                } else {
                    format!("`{found}`")
                };
                let near = match &attr.value {
                    Some(toml::Value::String(s)) => did_you_mean(s, &names),
                    _ => String::new(),
                };
                self.problem(
                    attr,
                    format!(
                        "found {found} for `{}`; expected one of {}{near}",
                        attr.key,
                        names.join(", ")
                    ),
                )
            })
    }
}

/// The name of `names` nearest to `found`, a few edits away (one for a
/// name of five characters or fewer, two for a longer one): `panics` for
/// `panic`, `sanitise` for `sanitize`, `compile_fail` for `compile-fail`.
pub fn nearest<'n>(found: &str, names: &[&'n str]) -> Option<&'n str> {
    let most = if found.chars().count() <= 5 { 1 } else { 2 };
    names
        .iter()
        .filter(|n| **n != found)
        .map(|n| (strsim::osa_distance(found, n), *n))
        .filter(|(d, _)| *d <= most)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

/// `; did you mean `NAME`?` for the name of `names` nearest to `found`
/// ([`nearest`]), or nothing: what a message ends with.
pub fn did_you_mean(found: &str, names: &[&str]) -> String {
    nearest(found, names).map_or_else(String::new, |n| format!("; did you mean `{n}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_a_few_edits_away_is_suggested() {
        let expect = ["run", "panic", "compile-fail", "no-run"];
        assert_eq!(nearest("panics", &expect), Some("panic"));
        assert_eq!(nearest("compile_fail", &expect), Some("compile-fail"));
        assert_eq!(nearest("sanitise", &["sanitize", "asm"]), Some("sanitize"));
        assert_eq!(nearest("colour", &["caption", "id", "title"]), None);
        assert_eq!(nearest("run", &expect), None);
        assert_eq!(did_you_mean("rnu", &expect), "; did you mean `run`?");
    }
}
