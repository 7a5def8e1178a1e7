//! What the report says a study found, generated from its results: the
//! findings list of each study section, the one-line headline of the
//! summary table, the speed-ups at equal accuracy as sentences, and the
//! regressions at this commit under the summary.

use super::doc::{Block, Document, Inline, code, strong, text};
use crate::harness::format::{percent, sig};
use crate::harness::outcome::StudyResult;
use crate::harness::timing::median;

/// The one-line headline of a study, from the results: its first speed-up
/// at equal accuracy, else its measured order, else its largest error
/// against a reference, else its first claim's verdict, else its first
/// note's first sentence (whole), else its checks. Never cut, never empty.
pub fn headline(s: &StudyResult) -> String {
    if let Some(first) = speedup_findings(s).into_iter().next() {
        return first;
    }
    // findings(): [checks, speed-ups..., order?, largest errors...].
    let all = findings(s);
    if let Some(f) = all
        .iter()
        .skip(1)
        .find(|f| f.starts_with("Measured order") || f.starts_with("Largest"))
    {
        return f
            .split("; ")
            .next()
            .unwrap_or(f)
            .trim_end_matches('.')
            .to_string();
    }
    if let Some(c) = s.claims.first() {
        return format!("Claim {}: {} ({})", c.claim, c.verdict.name(), c.criterion);
    }
    let note = s.summary.notes.first().map(String::as_str).unwrap_or("");
    let end = note
        .char_indices()
        .find(|&(i, c)| c == '.' && note[i + 1..].starts_with(' '))
        .map_or(note.len(), |(i, _)| i + 1);
    let sentence = note[..end].trim();
    if !sentence.is_empty() {
        return sentence.to_string();
    }
    all.into_iter()
        .next()
        .unwrap_or_else(|| "No results.".into())
}

/// One sentence per (method, baseline, group) of the speed-ups at equal
/// accuracy: median, range and number of error levels, and the common
/// converged error range they were measured over (the rule of
/// `harness::sweep::converged_range`); a comparison the harness refused
/// says "no common converged range" and names both ranges. A range of
/// speed-ups that contains 1 names neither method faster: at some error
/// levels one is, at others the other (or the timings' noise decides).
pub fn speedup_findings(study: &StudyResult) -> Vec<String> {
    let mut keys: Vec<(&str, &str, &str)> = Vec::new();
    for r in &study.speedups {
        let k = (r.method.as_str(), r.baseline.as_str(), r.group.as_str());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    for r in &study.speedup_ranges {
        let k = (r.method.as_str(), r.baseline.as_str(), r.group.as_str());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let range = |x: Option<(f64, f64)>| {
        x.map_or("none".to_string(), |(lo, hi)| {
            format!("{} to {}", sig(lo), sig(hi))
        })
    };
    keys.into_iter()
        .filter_map(|(m, b, g)| {
            let group = if g.is_empty() {
                String::new()
            } else {
                format!(" ({g})")
            };
            let conv = study
                .speedup_ranges
                .iter()
                .find(|r| r.method == m && r.baseline == b && r.group == g);
            if let Some(c) = conv.filter(|c| c.common.is_none()) {
                return Some(format!(
                    "{m} against {b}{group}: no common converged range, no speed-up at equal accuracy (converged error range of {m}: {}; of {b}: {})",
                    range(c.method_range),
                    range(c.baseline_range)
                ));
            }
            let v: Vec<f64> = study
                .speedups
                .iter()
                .filter(|r| r.method == m && r.baseline == b && r.group == g)
                .map(|r| r.speedup)
                .filter(|s| s.is_finite())
                .collect();
            if v.is_empty() {
                return None;
            }
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let n = v.len();
            let over = match conv {
                Some(c) => format!(
                    ", over the common converged error range {}",
                    range(c.common)
                ),
                None => ", converged range not assessed (a peer tool's runs)".to_string(),
            };
            let mid = median(&v);
            Some(if lo < 1.0 && hi > 1.0 {
                format!(
                    "{m} and {b} are about as fast at equal accuracy{group}: neither is faster at every error level (speed-up of {m} from {}× to {}×, median {}× over {n} error level(s){over})",
                    sig(lo),
                    sig(hi),
                    sig(mid)
                )
            } else if mid >= 1.0 {
                format!(
                    "{m} is {}× faster than {b} at equal accuracy{group} (median over {n} error level(s), range {}× to {}×{over})",
                    sig(mid),
                    sig(lo),
                    sig(hi)
                )
            } else {
                format!(
                    "{m} is {}× slower than {b} at equal accuracy{group} (median over {n} error level(s), range {}× to {}× slower{over})",
                    sig(1.0 / mid),
                    sig(1.0 / hi),
                    sig(1.0 / lo)
                )
            })
        })
        .collect()
}

/// The study's findings, from its results: checks, speed-ups at equal
/// accuracy, measured orders, the largest errors against the references.
pub fn findings(study: &StudyResult) -> Vec<String> {
    let mut out = Vec::new();
    let passed = study.checks.iter().filter(|c| c.passed).count();
    let failed: Vec<&str> = {
        let mut f: Vec<&str> = study
            .checks
            .iter()
            .filter(|c| !c.passed)
            .map(|c| c.check.as_str())
            .collect();
        f.dedup();
        f
    };
    out.push(if failed.is_empty() {
        format!("All {} checks passed.", study.checks.len())
    } else {
        format!(
            "{} of {} checks FAILED ({}).",
            study.checks.len() - passed,
            study.checks.len(),
            failed.join(", ")
        )
    });
    out.extend(speedup_findings(study).into_iter().map(|s| format!("{s}.")));
    // One estimator (harness::sweep::order_estimate) for every order: the
    // convergence lines are those with an `order_min` scalar, and their
    // points are the work-precision rows the figure's legend is fitted on.
    let orders: Vec<String> = study
        .summary
        .scalars
        .iter()
        .filter(|s| s.scalar.name == "order_min")
        .filter_map(|s| {
            let method = s.method.as_deref()?;
            let (parameter, est) =
                crate::harness::sweep::line_order(&study.work_precision, method, &s.group)?;
            let group = if s.group.is_empty() {
                String::new()
            } else {
                format!(" [{}]", s.group)
            };
            Some(format!("{method}{group} {}", est.describe(&parameter)))
        })
        .collect();
    if !orders.is_empty() {
        let shown = orders.len().min(6);
        let more = if orders.len() > shown {
            format!(" and {} more", orders.len() - shown)
        } else {
            String::new()
        };
        out.push(format!(
            "Measured order of convergence: {}{more}.",
            orders[..shown].join("; ")
        ));
    }
    // The largest error of each kind against its reference.
    let mut names: Vec<&str> = Vec::new();
    for case in &study.cases {
        for m in &case.methods {
            if let Some(o) = m.output() {
                for s in &o.scalars {
                    // Errors against a reference, and agreement with a peer
                    // running the same scheme (named so: not accuracy).
                    let largest =
                        s.name.starts_with("max_error") || s.name.starts_with("max_agreement");
                    if largest && !names.contains(&s.name.as_str()) {
                        names.push(&s.name);
                    }
                }
            }
        }
    }
    for name in names.into_iter().take(3) {
        let mut worst: Option<(f64, &str, &str, &str)> = None;
        for case in &study.cases {
            for m in &case.methods {
                let Some(o) = m.output() else { continue };
                for s in o
                    .scalars
                    .iter()
                    .filter(|s| s.name == name && s.value.is_finite())
                {
                    if worst.is_none_or(|w| s.value > w.0) {
                        worst = Some((s.value, m.label(), case.name.as_str(), s.doc.as_str()));
                    }
                }
            }
        }
        if let Some((v, method, case, doc)) = worst {
            out.push(format!(
                "Largest {name} over all runs: {} ({method}, case {case}); {doc}.",
                sig(v)
            ));
        }
    }
    out
}

/// At most this many regressions are listed at the top of the page.
pub const SHOWN_REGRESSIONS: usize = 8;

/// The regressions at this run's commit (from the history), under the
/// summary table: each with its change and noise band, or a line saying
/// there are none; the whole history is in the performance section.
pub fn regressions_summary(
    doc: &mut Document,
    history: &crate::harness::history::History,
    ctx: &crate::harness::history::Context,
) {
    let latest = crate::harness::history::latest_regressions_in(ctx);
    let link = Inline::Link {
        text: "performance history".into(),
        href: "#performance-history".into(),
    };
    let last = ctx.indices.len().saturating_sub(1);
    let shared = match (
        crate::harness::history::latest_shared_run(history),
        ctx.unsteady_run(last),
    ) {
        (Some(s), _) => format!(
            " This run's CPU times are not judged: other processes took {} % of the machine's CPU while its jobs ran (instruction counts and counters are).",
            sig(100.0 * s)
        ),
        (None, Some(why)) => format!(
            " This run's CPU times are not judged: {why} (instruction counts and counters are)."
        ),
        (None, None) => String::new(),
    };
    if latest.is_empty() {
        doc.paragraph(vec![
            strong("Regressions since the previous commit: none"),
            text(" (instruction counts, counters and calibrated CPU times within their bands; the whole record is in the "),
            link,
            text(format!(").{shared}")),
        ]);
        return;
    }
    // The worst first; a machine-wide slowdown shows as many at once.
    let mut latest = latest;
    latest.sort_by(|a, b| b.excess().total_cmp(&a.excess()));
    let median_change = median(&latest.iter().map(|r| r.change()).collect::<Vec<_>>());
    doc.paragraph(vec![
        strong(format!(
            "Regressions since the previous commit: {}",
            latest.len()
        )),
        text(format!(
            " (median change {}; the rule and the counter changes are in the ",
            percent(median_change)
        )),
        link,
        text(format!(").{shared} The ones furthest outside their band:")),
    ]);
    doc.blocks.push(Block::List(
        latest
            .iter()
            .take(SHOWN_REGRESSIONS)
            .map(|r| {
                vec![
                    code(format!("{}/{}/{}", r.study, r.case, r.method)),
                    text(format!(
                        ": {} {} ({} against its baseline, band ±{})",
                        r.metric,
                        super::perf::text::value_text(&r.metric, r.value),
                        percent(r.change()),
                        percent(r.band_relative()).trim_start_matches('+')
                    )),
                ]
            })
            .collect(),
    ));
    if latest.len() > SHOWN_REGRESSIONS {
        doc.paragraph(vec![text(format!(
            "... and {} more in the performance history.",
            latest.len() - SHOWN_REGRESSIONS
        ))]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::spec::Sweep;
    use crate::harness::study::{
        CaseOutput, Coord, Measures, MethodOutput, MethodPlan, MethodResult, MethodRun, Scalar,
        StudySummary, Timing,
    };

    /// A study of no cases, checks or speed-ups.
    fn empty_study() -> StudyResult {
        StudyResult::empty("s", "gap-system")
    }

    fn run(label: &str, error: f64) -> MethodResult {
        MethodResult {
            plan: MethodPlan {
                label: label.into(),
                method: label.into(),
                doc: String::new(),
            },
            outcome: Ok(MethodRun {
                output: MethodOutput {
                    scalars: vec![Scalar::new("err", error, "error")],
                    ..MethodOutput::default()
                },
                timing: Timing {
                    method: label.into(),
                    wall_s: 1.0,
                    cpu_s: 1.0,
                    cpu_s_spread: 0.0,
                    runs: 1,
                    counters: vec![],
                    stats: vec![],
                },
            }),
        }
    }

    /// The convergence legend and the findings print the same order for
    /// the same method (one estimator), and "no order" for a plateau then
    /// a drop.
    #[test]
    fn legend_and_findings_print_the_same_order() {
        let dts: Vec<f64> = (0..5).map(|i| 1e-4 * 2f64.powi(i)).collect();
        // "second": e = dt^2 at the 4 finest, a pre-asymptotic coarsest
        // level; "drop": a plateau at coarse steps, then a drop.
        let drop = [0, 8, 10, 10, 10];
        let cases: Vec<CaseOutput> = dts
            .iter()
            .zip(drop)
            .enumerate()
            .map(|(i, (dt, p))| CaseOutput {
                name: format!("dt{i}"),
                coords: vec![Coord {
                    key: "integrator.dt".into(),
                    label: "dt".into(),
                    value: toml::Value::Float(*dt),
                }],
                methods: vec![
                    run("second", if i == 4 { 1.0 } else { dt * dt }),
                    run("drop", 1e-6 * 2f64.powi(p)),
                ],
                tables: vec![],
                scalars: vec![],
                reference_timings: vec![],
                failures: vec![],
            })
            .collect();
        let sweeps = vec![Sweep {
            key: "integrator.dt".into(),
            label: "dt".into(),
            values: dts.iter().map(|d| toml::Value::Float(*d)).collect(),
            zip: None,
        }];
        let measures = Measures {
            error: Some(("err".into(), "error".into())),
            cost_keys: vec!["integrator.dt".into()],
            step_keys: vec!["integrator.dt".into()],
            ..Measures::default()
        };
        let a = crate::harness::sweep::analyse(
            &sweeps,
            &measures,
            None,
            &cases,
            &|_, _| None,
            crate::harness::sweep::UNRESOLVED_PER_TOLERANCE,
        );
        let study = StudyResult {
            cases,
            summary: StudySummary {
                scalars: a.scalars.clone(),
                figures: a.figures.clone(),
                ..StudySummary::default()
            },
            work_precision: a.work_precision.clone(),
            ..empty_study()
        };
        let fig = a.figures.iter().find(|f| f.name == "convergence").unwrap();
        let legend = |m: &str| {
            fig.series
                .iter()
                .find(|s| s.label.starts_with(&format!("{m} (")))
                .unwrap()
                .label
                .clone()
        };
        assert_eq!(legend("second"), "second (order 2.00 over the 3 finest)");
        assert_eq!(legend("drop"), "drop (no order: no converged range)");
        let order = findings(&study)
            .into_iter()
            .find(|f| f.starts_with("Measured order"))
            .unwrap();
        assert!(
            order.contains("second order 2.00 (least-squares slope over the 3 finest levels of the converged range, integrator.dt 4.00e-4 to 1.00e-4)"),
            "{order}"
        );
        assert!(
            order.contains("drop no order (no converged range:"),
            "{order}"
        );
        // The study scalar is the same number; none without an order.
        let scalar = |m: &str| {
            a.scalars
                .iter()
                .find(|s| s.scalar.name == "order" && s.method.as_deref() == Some(m))
                .map(|s| s.scalar.value)
        };
        assert_eq!(format!("{:.2}", scalar("second").unwrap()), "2.00");
        assert!(scalar("drop").is_none());
        assert!(headline(&study).starts_with("Measured order of convergence: second order 2.00"));
    }

    /// A range of speed-ups containing 1 names neither method faster; a
    /// range above or below 1 names the faster one.
    #[test]
    fn a_speedup_range_containing_one_names_neither_method_faster() {
        let study = |speedups: &[f64]| StudyResult {
            speedups: speedups
                .iter()
                .enumerate()
                .map(|(i, &speedup)| crate::harness::rows::SpeedupRow {
                    method: "pgs".into(),
                    baseline: "lemke".into(),
                    error: 10f64.powi(-(i as i32)),
                    speedup,
                    group: String::new(),
                })
                .collect(),
            ..empty_study()
        };
        let text = |v: &[f64]| speedup_findings(&study(v)).join(" ");
        let same = text(&[0.738, 1.03, 1.39]);
        assert!(
            same.starts_with("pgs and lemke are about as fast at equal accuracy: neither is faster at every error level (speed-up of pgs from 0.738× to 1.39×, median 1.03×"),
            "{same}"
        );
        assert!(text(&[1.2, 1.3, 1.4]).starts_with("pgs is 1.3× faster than lemke"));
        assert!(text(&[0.5, 0.8]).starts_with("pgs is 1.54× slower than lemke"));
    }
}
