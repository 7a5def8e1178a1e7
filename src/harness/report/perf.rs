//! The performance-history section, the way asv (airspeed velocity) shows
//! it: first the regressions of the whole history (benchmark, commit,
//! change, how far outside the noise; `harness::history::regressions`),
//! then the counter changes between consecutive commits (exact counters
//! explain a time change), then one plot per study (each line divided by
//! its own median, commits labelled by short hash in the caption; a study
//! with more than [`MAX_LINES`] case/method lines is drawn as one line per
//! method, the median over its cases, with the min-max over the cases as an
//! outline), each with a compact table of its latest commit, and the list
//! of commits with their baselines (timing method, host, CPU, profile).

use std::collections::BTreeSet;

use super::RenderedFigure;
use super::doc::{Block, Document, RowKind, Table, code, strong, text};
use super::format::{count, percent, seconds, short_commit, sig};
use crate::harness::history::{
    self, BASELINE_COMMITS, CPU, CounterChange, History, HistoryFlag, HistoryRow, MAD_TO_SIGMA,
    MIN_RELATIVE_SLOWDOWN, NOISE_SIGMAS, Regression, Verdict, WALL,
};
use crate::harness::outcome::RunResult;

mod figures;
use crate::harness::timing::median;
pub use figures::history_figures;

/// A study with more case/method lines than this is plotted per method
/// (the median over its cases); its latest-commit table has one row per
/// method.
pub const MAX_LINES: usize = 8;
/// Counter-change rows listed per (commit, study, method, counter) group:
/// above, the group is one row with the number of cases.
pub const COUNTER_CASES_LISTED: usize = 1;
/// The commit list shows at most this many (the latest).
pub const MAX_COMMITS_LISTED: usize = 30;

fn benchmark(study: &str, case: &str, method: &str) -> String {
    if case == study {
        format!("{study} / {method}")
    } else {
        format!("{study} / {case} / {method}")
    }
}

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

fn regressions_table(regressions: &[Regression]) -> Table {
    let mut table = Table::new(&[
        ("benchmark", false),
        ("metric", false),
        ("commit", false),
        ("baseline", true),
        ("value", true),
        ("change", true),
        ("noise band", true),
        ("outside the noise", true),
        ("counters changed at this commit", false),
    ]);
    for r in regressions {
        let counters = if r.counters.is_empty() {
            text("none")
        } else {
            text(
                r.counters
                    .iter()
                    .map(counter_text)
                    .collect::<Vec<_>>()
                    .join("; "),
            )
        };
        table.push(
            RowKind::Flag,
            vec![
                vec![text(benchmark(&r.study, &r.case, &r.method))],
                vec![code(&r.metric)],
                vec![code(short_commit(&r.commit))],
                vec![text(seconds(r.baseline))],
                vec![text(seconds(r.value))],
                vec![strong(percent(r.change()))],
                vec![text(format!("±{}", seconds(r.threshold)))],
                vec![text(format!("{}×", sig(r.excess())))],
                vec![counters],
            ],
        );
    }
    table
}

/// Counter changes grouped by (commit, study, method, counter): one row per
/// case when the group has at most [`COUNTER_CASES_LISTED`] cases, else
/// one row with the number of cases and the range of the changes.
fn counter_table(changes: &[CounterChange]) -> Table {
    let mut table = Table::new(&[
        ("commit", false),
        ("benchmark", false),
        ("counter", false),
        ("change", false),
    ]);
    let mut groups: Vec<(String, String, String, String, Vec<&CounterChange>)> = Vec::new();
    for c in changes {
        let k = (
            c.commit.clone(),
            c.study.clone(),
            c.method.clone(),
            c.metric.clone(),
        );
        match groups
            .iter_mut()
            .find(|g| (&g.0, &g.1, &g.2, &g.3) == (&k.0, &k.1, &k.2, &k.3))
        {
            Some(g) => g.4.push(c),
            None => groups.push((k.0, k.1, k.2, k.3, vec![c])),
        }
    }
    for (commit, study, method, metric, cs) in groups {
        let (what, change) = if cs.len() <= COUNTER_CASES_LISTED {
            let c = cs[0];
            (benchmark(&study, &c.case, &method), counter_text(c))
        } else {
            let rel: Vec<f64> = cs
                .iter()
                .filter(|c| c.previous != 0.0)
                .map(|c| c.value / c.previous - 1.0)
                .collect();
            let lo = rel.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = rel.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let range = if rel.is_empty() {
                String::new()
            } else {
                format!(": {} to {}", percent(lo), percent(hi))
            };
            (
                format!("{study} / {} cases / {method}", cs.len()),
                format!("in {} cases{range}", cs.len()),
            )
        };
        table.push(
            RowKind::Flag,
            vec![
                vec![code(short_commit(&commit))],
                vec![text(what)],
                vec![code(metric)],
                vec![text(format!("changed: {change}"))],
            ],
        );
    }
    table
}

/// The time judgement text of a flag: change against the baseline median
/// in % and the noise band, or why there is none.
fn time_change(f: &HistoryFlag) -> String {
    match (f.baseline, f.threshold) {
        (Some(m), Some(band)) => format!(
            "{} (band ±{})",
            percent(f.latest / m - 1.0),
            percent(band / m).trim_start_matches('+')
        ),
        // What changed is in the figure's caption and the commit list.
        _ => String::new(),
    }
}

/// The table of a study's latest commit: per (case, method), or per method
/// above [`MAX_LINES`] benchmarks; the judged time (CPU, else wall) and the
/// counters that changed.
fn latest_table(flags: &[&HistoryFlag]) -> Table {
    let mut keys: Vec<(&str, &str)> = Vec::new();
    for f in flags {
        let k = (f.case.as_str(), f.method.as_str());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let time_of = |case: &str, method: &str| -> Option<&HistoryFlag> {
        let of = |metric: &str| {
            flags
                .iter()
                .copied()
                .find(|f| f.case == case && f.method == method && f.metric == metric)
        };
        of(CPU).or_else(|| of(WALL))
    };
    let changed_of = |case: &str, method: &str| -> Vec<&HistoryFlag> {
        flags
            .iter()
            .copied()
            .filter(|f| f.case == case && f.method == method && f.verdict == Verdict::Changed)
            .collect()
    };
    let mut table = Table::new(&[
        ("case", false),
        ("method", false),
        ("commit", false),
        ("time", true),
        ("against the baseline", true),
        ("verdict", false),
        ("counters", false),
    ]);
    if keys.len() <= MAX_LINES {
        for (case, method) in keys {
            let time = time_of(case, method);
            let changed = changed_of(case, method);
            let counters = if changed.is_empty() {
                "unchanged".to_string()
            } else {
                changed
                    .iter()
                    .map(|f| {
                        format!(
                            "{} changed {} → {}",
                            f.metric,
                            f.previous.map(count).unwrap_or_default(),
                            count(f.latest)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            let verdict = time.map_or(Verdict::New, |f| f.verdict);
            let flagged = verdict.is_flag() || !changed.is_empty();
            table.push(
                if flagged {
                    RowKind::Flag
                } else {
                    RowKind::Normal
                },
                vec![
                    vec![text(case)],
                    vec![code(method)],
                    vec![text(
                        time.map(|f| short_commit(&f.latest_commit))
                            .unwrap_or_default(),
                    )],
                    vec![text(time.map(|f| seconds(f.latest)).unwrap_or_default())],
                    vec![text(time.map(time_change).unwrap_or_default())],
                    vec![if verdict.is_flag() {
                        strong(verdict.label())
                    } else {
                        text(verdict.label())
                    }],
                    vec![if changed.is_empty() {
                        text(counters)
                    } else {
                        strong(counters)
                    }],
                ],
            );
        }
        return table;
    }
    let mut methods: Vec<&str> = Vec::new();
    for k in &keys {
        if !methods.contains(&k.1) {
            methods.push(k.1);
        }
    }
    for method in methods {
        let cases: Vec<&str> = keys.iter().filter(|k| k.1 == method).map(|k| k.0).collect();
        let times: Vec<&HistoryFlag> = cases.iter().filter_map(|c| time_of(c, method)).collect();
        let mut verdicts: Vec<(&str, usize)> = Vec::new();
        for t in &times {
            match verdicts.iter_mut().find(|v| v.0 == t.verdict.label()) {
                Some(v) => v.1 += 1,
                None => verdicts.push((t.verdict.label(), 1)),
            }
        }
        let changes: Vec<f64> = times
            .iter()
            .filter_map(|f| Some(f.latest / f.baseline? - 1.0))
            .collect();
        let change = if changes.is_empty() {
            String::new()
        } else {
            let lo = changes.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = changes.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            format!(
                "median {} ({} to {})",
                percent(median(&changes)),
                percent(lo),
                percent(hi)
            )
        };
        let changed_cases = cases
            .iter()
            .filter(|c| !changed_of(c, method).is_empty())
            .count();
        let slower = times.iter().any(|t| t.verdict.is_flag());
        let latest: BTreeSet<String> = times
            .iter()
            .map(|f| short_commit(&f.latest_commit))
            .collect();
        let total: Vec<f64> = times.iter().map(|f| f.latest).collect();
        table.push(
            if slower || changed_cases > 0 {
                RowKind::Flag
            } else {
                RowKind::Normal
            },
            vec![
                vec![text(format!("{} cases", cases.len()))],
                vec![code(method)],
                vec![text(latest.into_iter().collect::<Vec<_>>().join(", "))],
                vec![text(format!("median {}", seconds(median(&total))))],
                vec![text(change)],
                vec![text(
                    verdicts
                        .iter()
                        .map(|(l, n)| format!("{n} {l}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                )],
                vec![if changed_cases > 0 {
                    strong(format!("changed in {changed_cases} cases"))
                } else {
                    text("unchanged")
                }],
            ],
        );
    }
    table
}

fn commits_table(history: &History) -> (Table, usize) {
    let commits = history.commits();
    let indices = history.commit_indices();
    let mut first: Vec<Option<&HistoryRow>> = vec![None; commits.len()];
    let mut rows = vec![0usize; commits.len()];
    for r in &history.rows {
        let i = indices[r.commit.as_str()];
        rows[i] += 1;
        if first[i].is_none() || (first[i].is_some_and(|f| !f.is_time()) && r.is_time()) {
            first[i] = Some(r);
        }
    }
    let changes = history::baseline_changes(history);
    let mut table = Table::new(&[
        ("index", true),
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
    for (i, c) in commits.iter().enumerate().skip(skip) {
        let Some(r) = first[i] else { continue };
        let starts: Vec<&str> = changes
            .iter()
            .filter(|(k, _)| *k == i)
            .map(|(_, w)| w.as_str())
            .collect();
        table.push(
            RowKind::Normal,
            vec![
                vec![text((i + 1).to_string())],
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

/// The noise rule, stated from the constants.
fn rule_text() -> String {
    format!(
        "Counters (steps, iterations, pivots, factorizations) are exact: any change between consecutive \
         commits is listed as a counter change, whatever the machine; it explains a time change. Times are \
         compared only within a baseline: the same timing method, host, CPU and build profile; a change of \
         any of these starts a new baseline, and nothing is called faster or slower across it. Within a \
         baseline, a time (cpu_s, the CPU time of the thread that ran the method) is slower when it exceeds \
         the median m of the previous (up to) {BASELINE_COMMITS} commits by more than the noise band \
         max({} % of m, {NOISE_SIGMAS} sigma, s), sigma = {MAD_TO_SIGMA} MAD of those commits, s = the \
         recorded spread (half range of the repeated runs) of the commit plus the median spread of the \
         baseline commits. \"Outside the noise\" is the change over the band (above 1× is flagged). A run of \
         slower commits counts once, at its first commit, and is listed while it is still present at the \
         baseline's latest commit. Wall time (wall_s) stretches on a loaded machine: it is judged only where \
         no CPU time is. Derived statistics (e.g. mean_active) are not recorded.",
        sig(100.0 * MIN_RELATIVE_SLOWDOWN)
    )
}

/// The performance-history section.
pub fn section(
    doc: &mut Document,
    run: &RunResult,
    history: &History,
    figures: &[(String, RenderedFigure)],
) {
    doc.heading(2, "Performance history", Some("performance-history"));
    let commits = history.commits();
    let recorded = if run.record_history {
        "This run was appended to the history."
    } else if cfg!(debug_assertions) {
        "This run was not appended to the history: this build has debug assertions, whose timings are not those of an optimised build (the dev profile of Cargo.toml and --release have none)."
    } else {
        "This run was not appended to the history (a partial run, e.g. with --only, is not recorded)."
    };
    doc.paragraph(vec![
        text(format!(
            "{} rows over {} commit(s) in ",
            history.rows.len(),
            commits.len()
        )),
        code("history/history.csv"),
        text(format!(". {recorded}")),
    ]);
    if history.rows.is_empty() {
        doc.paragraph(vec![text("The history is empty.")]);
        return;
    }
    // Studies of this run first, then any others the history knows.
    let mut studies: Vec<&str> = run.studies.iter().map(|s| s.name.as_str()).collect();
    for s in history.studies() {
        if !studies.contains(&s) {
            studies.push(s);
        }
    }
    body(doc, history, &studies, figures);
}

/// The section below its introduction: regressions, counter changes, the
/// studies' figures and latest tables (in `studies` order), the commits.
fn body(
    doc: &mut Document,
    history: &History,
    studies: &[&str],
    figures: &[(String, RenderedFigure)],
) {
    let commits = history.commits();
    doc.heading(3, "Regressions", Some("history-regressions"));
    let regressions = history::regressions(history);
    let last = commits.len() - 1;
    let latest = regressions
        .iter()
        .filter(|r| r.commit_index == last)
        .count();
    if regressions.is_empty() {
        doc.paragraph(vec![strong("No regressions."), text(format!(
            " No benchmark is slower than its baseline beyond the noise, at the latest commit ({}) or still \
             from an earlier one.",
            short_commit(commits[last])
        ))]);
    } else {
        doc.paragraph(vec![
            strong(format!("{} regression(s)", regressions.len())),
            text(format!(
                ", {latest} of them at the latest commit ({}); newest first, then furthest outside the noise.",
                short_commit(commits[last])
            )),
        ]);
        push_folded(doc, regressions_table(&regressions), "regressions");
    }
    doc.paragraph(vec![text(rule_text())]);

    doc.heading(3, "Counter changes", Some("history-counter-changes"));
    let changes = history::counter_changes(history);
    if changes.is_empty() {
        doc.paragraph(vec![text(
            "No counter changed between consecutive commits.",
        )]);
    } else {
        doc.paragraph(vec![text(format!(
            "{} counter value(s) changed between consecutive commits (newest first; a group of cases with \
             the same commit, study, method and counter is one row).",
            changes.len()
        ))]);
        push_folded(doc, counter_table(&changes), "counter changes");
    }

    let flags = history::compare_latest(history);
    for &study in studies {
        let study_flags: Vec<&HistoryFlag> = flags.iter().filter(|f| f.study == study).collect();
        if study_flags.is_empty() {
            continue;
        }
        doc.heading(3, format!("History of {study}"), None);
        if let Some((_, rendered)) = figures.iter().find(|(s, _)| s == study) {
            match &rendered.error {
                None if rendered.replaced.is_some() => doc.paragraph(vec![text(format!(
                    "The history figure is not drawn: {}.",
                    rendered.replaced.as_deref().unwrap_or_default()
                ))]),
                None => doc.blocks.push(Block::Figure {
                    src: rendered.src.clone(),
                    alt: rendered.title.clone(),
                    caption: vec![
                        strong(format!("{}.", rendered.title)),
                        text(format!(" {}", rendered.caption)),
                    ],
                }),
                Some(e) => doc.paragraph(vec![strong(format!(
                    "The history figure could not be drawn: {e}"
                ))]),
            }
        }
        doc.blocks.push(Block::Table(latest_table(&study_flags)));
    }

    doc.heading(3, "Commits", Some("history-commits"));
    let (table, skip) = commits_table(history);
    doc.paragraph(vec![text(
        "The index is the x axis of the plots; a new baseline starts where the timing method, host, CPU or \
         build profile changes. Rows written before these were recorded read as unknown.",
    )]);
    if skip > 0 {
        doc.paragraph(vec![text(format!(
            "The {skip} oldest commits are not listed."
        ))]);
    }
    doc.blocks.push(Block::Table(table));
}

/// Tables longer than this show their first rows and fold the whole.
const SHOWN_ROWS: usize = 12;

/// Pushes `table`; when it has more than [`SHOWN_ROWS`] rows, its first
/// rows and then the whole table folded (`what` names the rows).
fn push_folded(doc: &mut Document, table: Table, what: &str) {
    if table.rows.len() <= SHOWN_ROWS {
        doc.blocks.push(Block::Table(table));
        return;
    }
    let mut head = table.clone();
    head.rows.truncate(SHOWN_ROWS);
    let n = table.rows.len();
    doc.blocks.push(Block::Table(head));
    doc.blocks.push(Block::Details {
        summary: vec![text(format!("All {n} {what}"))],
        blocks: vec![Block::Table(table)],
    });
}

#[cfg(test)]
mod tests {
    use super::figures::{outline, with_breaks};
    use super::*;
    use crate::harness::figure::Style;
    use crate::harness::history::TIMING_METHOD;

    fn row(
        commit: &str,
        study: &str,
        case: &str,
        method: &str,
        metric: &str,
        v: f64,
    ) -> HistoryRow {
        HistoryRow {
            commit: commit.into(),
            date: "2026-12-02T10:00:00Z".into(),
            host: "h".into(),
            suite: "all".into(),
            study: study.into(),
            case: case.into(),
            method: method.into(),
            metric: metric.into(),
            value: v,
            spread: f64::NAN,
            timing: TIMING_METHOD.into(),
            profile: "release".into(),
            rustc: "rustc 1.95.0".into(),
            cpu: "Test CPU (2 logical cores)".into(),
        }
    }

    /// Study `one` (one case, three methods) and study `many` (20 cases,
    /// two methods) over six commits `c0`..`c5`; `one / m0` is 50 % slower
    /// at `c5`.
    fn history() -> History {
        let mut rows = Vec::new();
        for c in 0..6 {
            let commit = format!("commit{c}");
            for m in 0..3 {
                let v = if m == 0 && c == 5 { 1.5 } else { 1.0 };
                rows.push(row(&commit, "one", "one", &format!("m{m}"), CPU, v));
                rows.push(row(&commit, "one", "one", &format!("m{m}"), "steps", 10.0));
            }
            for k in 0..20 {
                for m in 0..2 {
                    let v = 0.01 * (1.0 + 0.01 * k as f64);
                    rows.push(row(
                        &commit,
                        "many",
                        &format!("k{k}"),
                        &format!("m{m}"),
                        CPU,
                        v,
                    ));
                }
            }
        }
        // A counter change in `many` at c3.
        rows.push(row("commit3", "many", "k0", "m0", "steps", 10.0));
        rows.push(row("commit4", "many", "k0", "m0", "steps", 12.0));
        History { rows }
    }

    #[test]
    fn one_line_per_method_and_its_spread_for_many_cases() {
        let figures = history_figures(&history());
        assert_eq!(figures.len(), 2);
        let (study, one) = &figures[0];
        assert_eq!(study, "one");
        let labels: Vec<&str> = one.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["m0", "m1", "m2"]);
        // Each line over its own median: m0 is 1 except 1.5 at c5 (x = 6).
        assert_eq!(one.series[0].points[5], (6.0, 1.5));
        assert!(one.caption.contains("1 = commit0, ") && one.caption.contains("6 = commit5."));
        let (_, many) = &figures[1];
        let labels: Vec<&str> = many.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "m0 (median of 20 cases)",
                "m0: min-max over cases",
                "m1 (median of 20 cases)",
                "m1: min-max over cases"
            ]
        );
        assert!(many.series.len() <= MAX_LINES);
        assert_eq!(many.series[1].style, Style::Dashed);
        assert_eq!(many.series[1].group, many.series[0].group);
        assert!(many.problems().is_empty(), "{:?}", many.problems());
    }

    #[test]
    fn the_section_lists_regressions_first_then_counters_then_plots() {
        let h = history();
        let mut doc = Document::default();
        body(&mut doc, &h, &["one", "many"], &[]);
        let headings: Vec<&str> = doc
            .blocks
            .iter()
            .filter_map(|b| match b {
                Block::Heading { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(
            headings,
            [
                "Regressions",
                "Counter changes",
                "History of one",
                "History of many",
                "Commits"
            ]
        );
        let Some(Block::Table(regressions)) = doc.blocks.get(2) else {
            panic!("no regressions table: {:?}", doc.blocks.get(2));
        };
        assert_eq!(regressions.rows.len(), 1);
        assert_eq!(regressions.rows[0].cells[0], vec![text("one / m0")]);
        assert_eq!(regressions.rows[0].cells[2], vec![code("commit5")]);
        assert_eq!(regressions.rows[0].cells[5], vec![strong("+50 %")]);
        assert_eq!(regressions.rows[0].cells[7], vec![text("2.5×")]);
        let counters = doc.blocks.iter().find_map(|b| match b {
            Block::Table(t) if t.header[2] == "counter" => Some(t),
            _ => None,
        });
        let counters = counters.expect("counter table");
        assert_eq!(counters.rows.len(), 1);
        assert_eq!(
            counters.rows[0].cells[3],
            vec![text("changed: steps 10 → 12 (+2, +20 %)")]
        );
        // The many-case study's latest table has one row per method.
        let many = doc
            .blocks
            .iter()
            .filter_map(|b| match b {
                Block::Table(t) if t.header[0] == "case" => Some(t),
                _ => None,
            })
            .nth(1)
            .unwrap();
        assert_eq!(many.rows.len(), 2);
        assert_eq!(many.rows[0].cells[0], vec![text("20 cases")]);
        // Without the slowdown: "No regressions."
        let mut h = h;
        for r in &mut h.rows {
            if r.value == 1.5 {
                r.value = 1.0;
            }
        }
        let mut doc = Document::default();
        body(&mut doc, &h, &["one", "many"], &[]);
        assert_eq!(
            doc.blocks.get(1).and_then(|b| match b {
                Block::Paragraph(p) => p.first().cloned(),
                _ => None,
            }),
            Some(strong("No regressions."))
        );
    }

    #[test]
    fn breaks_split_lines_and_outlines() {
        let breaks: BTreeSet<usize> = [2].into();
        let pts = with_breaks(&[(0, 1.0), (1, 1.1), (2, 0.5), (3, 0.6)], &breaks);
        assert_eq!(pts.len(), 5);
        assert!(pts[2].1.is_nan() && pts[2].0 == 3.0);
        let lo = [(0, 0.9), (1, 0.8), (2, 0.4), (3, 0.5)];
        let hi = [(0, 1.1), (1, 1.2), (2, 0.6), (3, 0.7)];
        let o = outline(&lo, &hi, &breaks);
        // Two closed outlines of 2 + 2 + 1 points, one NaN between.
        assert_eq!(o.len(), 11);
        assert_eq!(o[0], o[4]);
        assert!(o[5].1.is_nan());
        assert_eq!((o[1], o[2]), ((2.0, 0.8), (2.0, 1.2)));
    }
}
