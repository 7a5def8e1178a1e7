//! The performance-history section. It opens with the answer (what got
//! faster or slower since the previous commit, and the counters that moved
//! a method's work more than twofold: `answer`), then, the way asv
//! (airspeed velocity) shows it: one summary figure (per family of studies, the geometric mean of its
//! benchmarks relative to the first commit of the baseline; commit hashes
//! on the axis), the table of regressions (benchmark, commit, measure,
//! change, band; empty when nothing regressed) and the rule, then folded:
//! the rule in full, the counter changes (method changes), the
//! per-benchmark detail of every study (absolute values and bands at the
//! latest commit), the kernels' instruction counts and the commits.

use super::doc::{Block, Document, Inline, RenderedFigure, RowKind, Table, code, strong, text};
use crate::harness::format::{count, percent, short_commit, sig};
use crate::harness::history::{
    self, BASELINE_COMMITS, COST_BAND, CPU_MIN_NOISE_SAMPLES, CPU_NOISE_QUANTILE,
    CPU_UNKNOWN_NOISE, Context, CounterChange, History, HistoryRow, MACHINE_CHANGE, MACHINE_WINDOW,
    MAD_TO_SIGMA, MAX_OTHERS_SHARE, MIN_RELATIVE_SLOWDOWN, MetricKind, NOISE_SIGMAS, Regression,
};
use crate::harness::outcome::RunResult;

mod answer;
mod detail;
mod figures;
pub mod text;
pub use figures::summary_figure;
use text::{benchmark, value_text};

/// The commit list shows at most this many (the latest).
pub const MAX_COMMITS_LISTED: usize = 30;

fn counter_text(c: &CounterChange) -> String {
    let d = c.value - c.previous;
    let rel = if c.previous != 0.0 {
        format!(", {}", percent(d / c.previous))
    } else {
        String::new()
    };
    format!(
        "{} {} → {} ({}{}{rel})",
        c.metric,
        count(c.previous),
        count(c.value),
        if d > 0.0 { "+" } else { "" },
        count(d)
    )
}

/// The measure a regression is judged on, in words.
fn measure_text(r: &Regression) -> String {
    if r.calibrated {
        format!("{} (in calibration units)", r.metric)
    } else {
        r.metric.clone()
    }
}

/// The regressions: benchmark, commit, measure, value, change, band
/// (a header without rows when there are none).
pub fn regressions_table(regressions: &[Regression]) -> Table {
    let mut table = Table::new(&[
        ("benchmark", false),
        ("commit", false),
        ("measure", false),
        ("value", true),
        ("change", true),
        ("band", true),
        ("against", false),
    ]);
    for r in regressions {
        table.push(
            RowKind::Flag,
            vec![
                vec![text(benchmark(&r.study, &r.case, &r.method))],
                vec![code(short_commit(&r.commit))],
                vec![code(measure_text(r))],
                vec![text(value_text(&r.metric, r.value))],
                vec![strong(percent(r.change()))],
                vec![text(format!(
                    "±{}",
                    percent(r.band_relative()).trim_start_matches('+')
                ))],
                vec![text(if r.calibrated {
                    format!("median of the previous {BASELINE_COMMITS} commits")
                } else if history::metric_kind(&r.metric) == MetricKind::Cost {
                    format!("{} (previous commit)", short_commit(&r.previous_commit))
                } else {
                    format!("median of the previous {BASELINE_COMMITS} commits")
                })],
            ],
        );
    }
    table
}

/// Counter changes, newest first: commit, benchmark, counter, change.
fn counter_table(changes: &[CounterChange]) -> Table {
    let mut table = Table::new(&[("commit", false), ("benchmark", false), ("change", false)]);
    for c in changes {
        table.push(
            RowKind::Flag,
            vec![
                vec![code(short_commit(&c.commit))],
                vec![text(benchmark(&c.study, &c.case, &c.method))],
                vec![text(counter_text(c))],
            ],
        );
    }
    table
}

fn commits_table(history: &History, ctx: &Context) -> (Table, usize) {
    let commits = history.commits();
    let indices = &ctx.indices;
    let mut first: Vec<Option<&HistoryRow>> = vec![None; commits.len()];
    let mut rows = vec![0usize; commits.len()];
    for r in &history.rows {
        let i = indices[r.commit.as_str()];
        rows[i] += 1;
        if first[i].is_none() || (first[i].is_some_and(|f| !f.is_time()) && r.is_time()) {
            first[i] = Some(r);
        }
    }
    let changes = history::baseline_changes_of(history, ctx);
    let mut table = Table::new(&[
        ("commit", false),
        ("first run", false),
        ("host", false),
        ("CPU", false),
        ("profile", false),
        ("timing", false),
        ("rustc", false),
        ("rows", true),
        ("baseline", false),
    ]);
    let skip = commits.len().saturating_sub(MAX_COMMITS_LISTED);
    for (i, c) in commits.iter().enumerate().skip(skip).rev() {
        let Some(r) = first[i] else { continue };
        let starts: Vec<&str> = changes
            .iter()
            .filter(|(k, _)| *k == i)
            .map(|(_, w)| w.as_str())
            .collect();
        table.push(
            RowKind::Normal,
            vec![
                vec![code(short_commit(c))],
                vec![text(&r.date)],
                vec![code(&r.host)],
                vec![text(&r.cpu)],
                vec![code(&r.profile)],
                vec![code(&r.timing)],
                vec![text(&r.rustc)],
                vec![text(rows[i].to_string())],
                vec![text(if starts.is_empty() {
                    String::new()
                } else {
                    format!("new: {}", starts.join("; "))
                })],
            ],
        );
    }
    (table, skip)
}

/// The rule in one sentence (always shown).
pub fn short_rule() -> String {
    format!(
        "Regressions are judged on deterministic measures first: a kernel's instruction count or \
         estimated cycles more than {} % above the previous commit's, and exact solver counters \
         (a time or count that changes together with its counters is a method change, listed \
         under counter changes, not a slowdown). CPU times are judged in units of the calibration \
         kernel timed in the same run, against the measured noise of unchanged code, and only when \
         the next commit confirms them.",
        sig(100.0 * COST_BAND)
    )
}

/// The rule in full, stated from the constants.
pub fn rule_text() -> String {
    format!(
        "Counters (steps, iterations, pivots, factorizations) are exact: any change between \
         consecutive commits is a counter change, whatever the machine; a time or cost that is \
         beyond its band at a commit where a counter of the same (study, case, method) changed is \
         shown as that counter change (\"counters changed\"), never as a speed-up or slowdown. \
         Times and costs are compared only within a baseline: the same timing method, host, CPU \
         and build profile; a change of any of these starts a new baseline. Times are compared \
         only within one machine epoch: a quiet run whose calibration kernel's CPU time departs \
         from the median of its previous (up to) {window} quiet values by more than {machine} % \
         starts a new epoch (the kernel is fixed code, so the machine changed under the same \
         name, and cache-resident and memory-bound methods change speed by different factors, \
         which no calibration corrects). Costs (the \
         instructions and estimated cycles of the per-step kernels under Valgrind's callgrind; \
         deterministic: two runs give the same count) are slower when more than {cost} % above \
         the previous commit of the baseline. A CPU time (cpu_s, the median CPU time of the thread \
         that ran the method over its repeated runs) is divided by the CPU time of the calibration \
         kernel in the same run; with m the median and sigma = {MAD_TO_SIGMA} MAD of that ratio \
         over the previous (up to) {BASELINE_COMMITS} commits since the benchmark's last counter change \
         (a method change starts the window afresh), it is slower when above m by more \
         than max(q m, {NOISE_SIGMAS} sigma, m (r + c)), q the {q} % quantile of the relative \
         changes between consecutive commits of every benchmark whose counters did not change in \
         this baseline (the measured noise of unchanged code; {unknown} % while fewer than {min} \
         are known), r and c the relative spreads of the repeated runs and of the calibration runs \
         (this commit's plus the window's median). A CPU time slower at one commit is a \
         regression only when the next commit of the baseline is above the same band too (before \
         that it is \"slower once\"). CPU times recorded before the calibration are judged on \
         their seconds with the band max({old} % of m, {NOISE_SIGMAS} sigma, spreads). A run of \
         slower commits counts once, at its first commit, while the benchmark still runs at the \
         latest commit, in the same baseline, and is still beyond the band (a step in a superseded \
         baseline, or of a benchmark the latest run no longer has, is not listed: it can be \
         neither confirmed nor undone). A shared run, one during which other \
         processes took more than {shared} % of the machine's CPU (busy time of all CPUs in \
         /proc/stat less the run's own CPU time), has its CPU times shown as \"not judged (machine \
         shared)\", and they serve as no baseline, noise sample or confirmation: under contention \
         a memory-bound method slows far more than the cache-resident calibration kernel, so no \
         unit measured in the run corrects it; its instruction counts and counters are judged as \
         always. A machine change must be confirmed as a new steady level: the next quiet run's \
         calibration kernel is off the same median by more than {machine} % in the same direction \
         and within {machine} % of the moved value. A run whose kernel moved without that \
         confirmation (or that has no next run yet) is unsteady (the host's \
         speed changed for that run, which the guest's /proc/stat does not show): its CPU times \
         are shown as \"not judged (machine speed unsteady)\" and, like a shared run's, serve as \
         no baseline, noise sample or confirmation. Wall time (wall_s) stretches on a loaded machine: it is judged \
         only where no CPU time is. Derived statistics (e.g. mean_active) are not recorded.",
        cost = sig(100.0 * COST_BAND),
        q = sig(100.0 * CPU_NOISE_QUANTILE),
        unknown = sig(100.0 * CPU_UNKNOWN_NOISE),
        min = CPU_MIN_NOISE_SAMPLES,
        old = sig(100.0 * MIN_RELATIVE_SLOWDOWN),
        shared = sig(100.0 * MAX_OTHERS_SHARE),
        window = MACHINE_WINDOW,
        machine = sig(100.0 * MACHINE_CHANGE),
    )
}

/// The family of each study of the run (its kind); other studies are their
/// own family.
fn families(run: &RunResult) -> impl Fn(&str) -> String + '_ {
    move |study: &str| {
        run.studies
            .iter()
            .find(|s| s.name == study)
            .map_or_else(|| study.to_string(), |s| s.kind.clone())
    }
}

/// The summary figure of the history with its axis labels (see
/// [`summary_figure`]), the families named by the run's study kinds.
pub fn history_summary(
    run: &RunResult,
    history: &History,
    ctx: &Context,
) -> Option<(crate::harness::figure::Figure, Vec<String>)> {
    summary_figure(history, ctx, &families(run))
}

fn recorded_text(run: &RunResult) -> &'static str {
    if run.record_history {
        "This run was appended to the history."
    } else if cfg!(debug_assertions) {
        "This run was not appended to the history: this build has debug assertions, whose timings \
         are not those of an optimised build (the dev profile of Cargo.toml and --release have none)."
    } else {
        "This run was not appended to the history (a partial run, e.g. with --only, is not recorded)."
    }
}

/// The performance-history section, judged by `ctx` (of `history`);
/// `summary` is the rendered summary figure.
pub fn section(
    doc: &mut Document,
    run: &RunResult,
    history: &History,
    ctx: &Context,
    summary: Option<&RenderedFigure>,
) {
    doc.heading(2, "Performance history", Some("performance-history"));
    // The judge's verdicts and the counter changes, once for the section.
    let flags = history::compare_latest_in(ctx);
    let changes = history::counter_changes_in(ctx);
    doc.blocks
        .extend(answer::since_previous(history, &flags, &changes));
    let commits = history.commits();
    let mut intro = vec![
        text(format!(
            "{} rows over {} commit(s) (the latest {} runs of the store) in ",
            history.rows.len(),
            commits.len(),
            crate::harness::history::WINDOW_RUNS
        )),
        code("history/runs/"),
        text(format!(". {}", recorded_text(run))),
    ];
    let kernels = &run.costs.kernels;
    if let Some(tool) = &kernels.tool {
        intro.push(text(format!(
            " Kernel instruction counts of this run: {} kernels under {tool}.",
            kernels.measured.len()
        )));
    }
    for note in &kernels.notes {
        intro.push(text(format!(" Note: {note}.")));
    }
    doc.paragraph(intro);
    if history.rows.is_empty() {
        doc.paragraph(vec![text("The history is empty.")]);
        return;
    }
    if let Some(f) = summary {
        match &f.error {
            None => doc.blocks.push(Block::Figure {
                src: f.src.clone(),
                alt: f.title.clone(),
                caption: vec![
                    strong(format!("{}.", f.title)),
                    text(format!(" {}", f.caption)),
                ],
            }),
            Some(e) => doc.paragraph(vec![strong(format!(
                "The summary figure could not be drawn: {e}"
            ))]),
        }
    }
    // Studies of this run first, then any others the history knows.
    let mut studies: Vec<&str> = run.studies.iter().map(|s| s.name.as_str()).collect();
    for s in history.studies() {
        if !studies.contains(&s) {
            studies.push(s);
        }
    }
    body(doc, history, ctx, &studies, run, &flags, &changes);
}

/// Regressions listed in view; the others are folded beneath them.
const SHOWN_REGRESSIONS: usize = 8;

/// The section below the figure: regressions and the rule, then the folds.
fn body(
    doc: &mut Document,
    history: &History,
    ctx: &Context,
    studies: &[&str],
    run: &RunResult,
    flags: &[history::HistoryFlag],
    changes: &[CounterChange],
) {
    let commits = history.commits();
    doc.heading(3, "Regressions", Some("history-regressions"));
    let regressions = history::regressions_in(ctx);
    let last = short_commit(commits[commits.len() - 1]);
    let head: Vec<Inline> = if regressions.is_empty() {
        vec![
            strong("No regressions."),
            text(format!(
                " Nothing is slower than its baseline beyond its band, at the latest commit ({last}) \
                 or still from an earlier one."
            )),
        ]
    } else {
        let latest = regressions
            .iter()
            .filter(|r| r.commit_index == commits.len() - 1)
            .count();
        vec![
            strong(format!("{} regression(s)", regressions.len())),
            text(format!(
                ", {latest} of them at the latest commit ({last}); newest first, then furthest \
                 outside the band."
            )),
        ]
    };
    doc.paragraph(head);
    // The first screenful in view, the rest folded beneath it.
    let shown = regressions.len().min(SHOWN_REGRESSIONS);
    doc.blocks
        .push(Block::Table(regressions_table(&regressions[..shown])));
    if regressions.len() > shown {
        doc.blocks.push(Block::Details {
            summary: vec![text(format!(
                "The other {} regression(s)",
                regressions.len() - shown
            ))],
            blocks: vec![Block::Table(regressions_table(&regressions[shown..]))],
        });
    }
    doc.paragraph(vec![text(short_rule())]);
    doc.blocks.push(Block::Details {
        summary: vec![text("How a regression is judged (the rule in full)")],
        blocks: vec![Block::Paragraph(vec![text(rule_text())])],
    });
    doc.blocks.push(Block::Details {
        summary: vec![text(format!(
            "Counter changes: {} between consecutive commits (method changes; newest first)",
            changes.len()
        ))],
        blocks: if changes.is_empty() {
            vec![Block::Paragraph(vec![text("No counter changed.")])]
        } else {
            vec![Block::Table(counter_table(changes))]
        },
    });
    doc.blocks.push(Block::Details {
        summary: vec![text(format!(
            "Per-benchmark detail at the latest commit ({} studies and the kernels): values, \
             baselines and bands",
            studies
                .iter()
                .filter(|s| **s != crate::harness::kernels::STUDY)
                .count()
        ))],
        blocks: detail::study_details(flags, studies, run),
    });
    let (table, skip) = commits_table(history, ctx);
    let mut blocks = Vec::new();
    if skip > 0 {
        blocks.push(Block::Paragraph(vec![text(format!(
            "The {skip} oldest commits are not listed."
        ))]));
    }
    blocks.push(Block::Table(table));
    doc.blocks.push(Block::Details {
        summary: vec![text(format!(
            "Commits: {} (newest first), with their baselines",
            commits.len()
        ))],
        blocks,
    });
}

#[cfg(test)]
mod tests;
