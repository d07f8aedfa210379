//! `at="12:30"` (or `at="id@12:30"` in a book with several talks) on an
//! example or a comparison: the moment of the talk the block comes from,
//! shown as a link "12:30 in the talk" in the frame's header that opens
//! the talk's video at that second.

use super::data::{self, LoadError, parse_time};
use super::render::video_at;
use crate::core::problem::Problem;
use crate::directive::contract::Env;

/// The moment a block points at: the label and, when the talk has a
/// video, its address at that second.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moment {
    /// "12:30 in the talk".
    pub label: String,
    /// The video opened at the moment.
    pub href: Option<String>,
}

/// Resolves the value of an `at` attribute found at `offset` of the
/// chapter against the book's talk data.
pub fn resolve(env: &Env<'_>, value: &str, offset: usize) -> Result<Moment, Problem> {
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
    let talks = data::talks(env).map_err(|e| match e {
        LoadError::AtBlock(m) => Problem::at(offset, m),
        LoadError::InFile(loc, m) => Problem::in_file(offset, loc, m),
    })?;
    let shown = data::display_path(env.config);
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
    Ok(Moment {
        label: format!("{time} in the talk"),
        href: talk.video.as_deref().map(|v| video_at(v, seconds)),
    })
}
