//! `mdbook-companion check`: prove what every example claims.
//!
//! The book is loaded as mdBook loads it ([`crate::book::load`]), every
//! directive's claims are collected from its rendering, and each claim is
//! checked by the engine's [`Checker`] in parallel, from the cache when
//! nothing changed. The [`report`] says what held; [`bless`] writes actual
//! outputs back into the chapters when asked.

pub mod bless;
pub mod partition;
pub mod report;

pub use partition::Partition;
pub use report::{Checked, Report};

use crate::book::load;
use crate::core::problem::{MissingTool, Need};
use crate::directive::Shared;
use crate::engine::check::{Checker, Outcome, Verdict};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// How `check` runs.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Worker threads; `None` means one per core.
    pub jobs: Option<usize>,
    /// Write actual outputs into the chapters' output blocks.
    pub bless: bool,
    /// Show a progress bar (on a terminal).
    pub progress: bool,
    /// Compile every Rust example alone (no merged builds).
    pub no_merge: bool,
    /// Check only this share of the blocks (and report and cache only it).
    pub partition: Option<Partition>,
}

/// Checks the book at `root`: load it as mdBook does, collect the claims,
/// check them in parallel, bless if asked.
pub fn run(root: &Path, options: &Options) -> anyhow::Result<Report> {
    let loaded = load::load(root)?;
    let shared = Shared::disabled();
    let mut claims = Vec::new();
    let mut invalid = Vec::new();
    for chapter in &loaded.chapters {
        let (c, problems) = load::claims(chapter, &loaded.config, &shared);
        claims.extend(c);
        invalid.extend(problems);
    }
    if let Some(p) = options.partition {
        claims.retain(|c| p.holds(&c.file, c.line));
        invalid.retain(|(file, line, _)| p.holds(file, *line));
    }
    let checker = Checker::new(&loaded.config);
    let jobs = options
        .jobs
        .filter(|&j| j > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    let bar = report::progress_bar(options.progress, claims.len());
    let outcomes: Vec<Outcome> = pool.install(|| {
        if !options.no_merge {
            checker.prepare(&claims);
        }
        claims
            .par_iter()
            .map(|c| {
                let o = checker.check(c);
                if let Some(bar) = &bar {
                    bar.inc(1);
                }
                o
            })
            .collect()
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let mut report = Report {
        checked: claims
            .into_iter()
            .zip(outcomes)
            .map(|(claim, outcome)| Checked { claim, outcome })
            .collect(),
        invalid,
        ..Report::default()
    };
    let mut missing: BTreeMap<(String, &'static str), Vec<String>> = BTreeMap::new();
    for c in &report.checked {
        if let (Verdict::Unchecked { tool }, Some(compiler)) =
            (&c.outcome.verdict, c.claim.lang.compiler())
        {
            missing
                .entry((tool.clone(), compiler.key()))
                .or_default()
                .push(format!("{}:{}", c.claim.file, c.claim.line));
        }
    }
    report.missing = missing
        .into_iter()
        .map(|((tool, key), blocks)| MissingTool {
            tool,
            key,
            need: Need::Check,
            at: blocks,
        })
        .collect();
    if options.bless {
        let src = loaded.root.join(&loaded.config.src);
        report.bless_notes = bless::bless(&src, &mut report.checked)?;
    }
    report.counters = checker.counters();
    Ok(report)
}
