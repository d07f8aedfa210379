//! `at="12:30"` (or `at="id@12:30"` in a book with several talks) on an
//! example or a comparison: the moment of the talk the block comes from,
//! shown as a link "12:30 in the talk" in the frame's header that opens
//! the talk's video at that second.

use super::data::{self, parse_time};
use super::render::video_at;
use crate::contract::Env;
use crate::facts::{MomentLink, Published};
use mdbook_companion_core::problem::Problem;

/// A moment, resolved for the block that refers to it (how the talk
/// directive publishes its moments: its registry row names this).
pub(crate) fn publish(env: &Env<'_>, value: &str, offset: usize) -> Result<Published, Problem> {
    resolve(env, value, offset).map(Published::Moment)
}

/// Resolves the value of an `at` attribute found at `offset` of the
/// chapter against the book's talk data.
pub(crate) fn resolve(env: &Env<'_>, value: &str, offset: usize) -> Result<MomentLink, Problem> {
    let (id, time) = match value.split_once('@') {
        Some((id, time)) => (Some(id), time),
        None => (None, value),
    };
    let seconds = parse_time(time).ok_or_else(|| {
        Problem::at(
            offset,
            format!("found at=\"{value}\"; expected a time of the talk as m:ss or h:mm:ss (at=\"12:30\"), or id@time (at=\"concepts@12:30\")"),
        )
    })?;
    let talks = data::talks(env).map_err(|e| e.at(offset))?;
    let shown = data::file(env.config).shown(env.config);
    let ids = || {
        let known: Vec<&str> = talks.iter().filter_map(|t| t.id.as_deref()).collect();
        if known.is_empty() {
            "none (no talk has an `id`)".to_owned()
        } else {
            known.join(", ")
        }
    };
    let talk = match id {
        Some(id) => talks
            .iter()
            .find(|t| t.id.as_deref() == Some(id))
            .ok_or_else(|| {
                Problem::at(
                    offset,
                    format!("found unknown talk id `{id}` in at=\"{value}\"; expected one of {} (from {shown})", ids()),
                )
            })?,
        None => match talks.as_slice() {
            [one] => one,
            _ => {
                return Err(Problem::at(
                    offset,
                    format!(
                        "found at=\"{value}\" in a book of {} talks; expected the talk's id, such as at=\"ID@{time}\" with ID one of {}",
                        talks.len(),
                        ids()
                    ),
                ));
            }
        },
    };
    if let Some(d) = &talk.duration
        && parse_time(d).is_some_and(|limit| seconds > limit)
    {
        return Err(Problem::at(
            offset,
            format!(
                "found at=\"{value}\" past the talk's duration {d}; expected a time within the talk"
            ),
        ));
    }
    Ok(MomentLink {
        label: format!("{time} in the talk"),
        href: talk.video.as_deref().map(|v| video_at(v, seconds)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{book, config_at, env};
    use crate::{Shared, Target};
    use serde_json::json;

    fn resolve_in(data: &str, value: &str) -> Result<MomentLink, Problem> {
        let dir = book(&[("src/talks.toml", data)]);
        let (cfg, shared) = (config_at(dir.path(), json!({})), Shared::disabled());
        resolve(&env(&cfg, &shared, Target::Html, "", "src/e.md"), value, 7)
    }

    const ONE: &str = "[[talk]]\nid = \"t\"\ntitle = \"T\"\nduration = \"20:00\"\nvideo = \"https://youtu.be/v\"\n";

    #[test]
    fn a_moment_opens_the_video() {
        assert_eq!(
            resolve_in(ONE, "12:30").unwrap(),
            MomentLink {
                label: "12:30 in the talk".into(),
                href: Some("https://youtu.be/v?t=750s".into()),
            }
        );
        assert_eq!(resolve_in(ONE, "t@0:05").unwrap().label, "0:05 in the talk");
        let no_video = "[[talk]]\ntitle = \"T\"\n";
        assert_eq!(resolve_in(no_video, "1:00").unwrap().href, None);
    }

    #[test]
    fn bad_values_are_errors_at_the_attribute() {
        for (data, value, want) in [
            (ONE, "12", "found at=\"12\"; expected a time"),
            (ONE, "20:01", "past the talk's duration 20:00"),
            (ONE, "x@1:00", "found unknown talk id `x`"),
            (
                "[[talk]]\ntitle = \"A\"\n[[talk]]\ntitle = \"B\"\n",
                "1:00",
                "in a book of 2 talks",
            ),
        ] {
            let p = resolve_in(data, value).unwrap_err();
            assert_eq!(p.offset, 7);
            assert!(p.message.contains(want), "{}", p.message);
        }
    }
}
