//! Study-level results of a gap-system study: convergence orders over a dt
//! sweep, the frequency-response curve over an omega sweep, and the figures.

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::study::{CaseOutput, CaseResult, Scalar, StudySummary};
use crate::studies::gap_system::spec::CaseConfig;

/// Largest n for which every DOF's time response is drawn.
const MAX_DOFS_DRAWN: usize = 6;

pub(super) fn summarize(
    study: &str,
    configs: &[CaseConfig],
    sweep_keys: &[String],
    cases: &[CaseResult],
) -> StudySummary {
    let mut summary = StudySummary::default();
    let ok: Vec<(&CaseConfig, &CaseOutput)> = configs
        .iter()
        .zip(cases)
        .filter_map(|(c, r)| r.as_ref().ok().map(|o| (c, o)))
        .collect();
    if ok.is_empty() {
        summary
            .notes
            .push("No case finished; nothing to summarise.".into());
        return summary;
    }
    let labels: Vec<String> = ok[0].0.methods.iter().map(|m| m.label.clone()).collect();
    if let Some(w) = ok[0].1.scalar("bilinear_frequency") {
        summary.scalars.push(Scalar::new(
            "bilinear_frequency",
            w,
            "analytic 2 w1 w2 / (w1 + w2) [rad/s]",
        ));
    }
    let swept = |key: &str| sweep_keys.iter().any(|k| k == key);
    if swept("integrator.dt")
        && ok
            .iter()
            .all(|(c, _)| c.exact || c.reference_file.is_some())
    {
        let against = match &ok[0].0.reference_file {
            Some((file, _)) if !ok[0].0.exact => format!("the reference {file}"),
            _ => "the exact solution".to_string(),
        };
        convergence(&mut summary, &ok, &labels, &against);
    }
    if swept("excitation.omega") && ok.iter().all(|(c, _)| c.steady_state.is_some()) {
        frequency_response(&mut summary, &ok, &labels);
    } else if swept("system.chain.n") {
        scaling(&mut summary, &ok, &labels);
    } else {
        // Time responses of the finest case.
        let (cfg, out) = ok
            .iter()
            .min_by(|a, b| a.0.dt.total_cmp(&b.0.dt))
            .copied()
            .unwrap_or(ok[0]);
        time_response(&mut summary, cfg, out);
    }
    // One line per distinct system size (a size sweep has several).
    let mut sizes: Vec<(usize, usize, f64)> = Vec::new();
    for (cfg, out) in &ok {
        let (n, m) = (cfg.system.dofs(), cfg.system.springs.len());
        let active = out.scalar("max_active").unwrap_or(0.0);
        match sizes.iter_mut().find(|s| s.0 == n && s.1 == m) {
            Some(s) => s.2 = s.2.max(active),
            None => sizes.push((n, m, active)),
        }
    }
    let described: Vec<String> = sizes
        .iter()
        .map(|(n, m, active)| {
            format!("n = {n} DOFs with m = {m} gap springs, at most {active} engaged at once")
        })
        .collect();
    summary.notes.push(format!(
        "{study}: {}. Each newmark-lcp step solves the m x m LCP s = A u + b, A = I + D K_eff^-1 D^T K_g (a P-matrix: one solution), exactly; newmark-ssn solves the same step equation in the displacements.",
        described.join("; ")
    ));
    summary
}

fn points(
    ok: &[(&CaseConfig, &CaseOutput)],
    x: impl Fn(&CaseConfig, &CaseOutput) -> Option<f64>,
    y: impl Fn(&CaseOutput) -> Option<f64>,
) -> (Vec<f64>, Vec<f64>) {
    let mut pts: Vec<(f64, f64)> = ok
        .iter()
        .filter_map(|(c, o)| Some((x(c, o)?, y(o)?)))
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    pts.into_iter().unzip()
}

/// Least-squares slope of log e against log dt, and the smallest pairwise
/// order log(e_i / e_{i+1}) / log(dt_i / dt_{i+1}).
pub fn orders(dt: &[f64], err: &[f64]) -> Option<(f64, f64)> {
    let pts: Vec<(f64, f64)> = dt
        .iter()
        .zip(err)
        .filter(|(h, e)| **h > 0.0 && **e > 0.0)
        .map(|(h, e)| (h.ln(), e.ln()))
        .collect();
    if pts.len() < 2 {
        return None;
    }
    let k = pts.len() as f64;
    let (mx, my) = (
        pts.iter().map(|p| p.0).sum::<f64>() / k,
        pts.iter().map(|p| p.1).sum::<f64>() / k,
    );
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let min_pair = pts
        .windows(2)
        .map(|w| (w[1].1 - w[0].1) / (w[1].0 - w[0].0))
        .fold(f64::INFINITY, f64::min);
    Some((sxy / sxx, min_pair))
}

fn convergence(
    summary: &mut StudySummary,
    ok: &[(&CaseConfig, &CaseOutput)],
    labels: &[String],
    against: &str,
) {
    let mut conv = Vec::new();
    let mut wp = Vec::new();
    for (k, label) in labels.iter().enumerate() {
        let sfx = if k == 0 {
            String::new()
        } else {
            format!(".{label}")
        };
        let (dt, err) = points(
            ok,
            |c, _| Some(c.dt),
            |o| o.scalar(&format!("rms_error_x{sfx}")),
        );
        let Some((order, order_min)) = orders(&dt, &err) else {
            continue;
        };
        summary.scalars.push(Scalar::new(
            format!("order{sfx}"),
            order,
            format!("least-squares slope of log(rms error in x) vs log(dt), {label}"),
        ));
        summary.scalars.push(Scalar::new(
            format!("order_min{sfx}"),
            order_min,
            format!("smallest order between consecutive dt of the sweep, {label}"),
        ));
        conv.push(Series::new(
            format!("{label} (order {order:.3})"),
            &dt,
            &err,
            Style::LineMarkers,
        ));
        let wall: Vec<(f64, f64)> = ok
            .iter()
            .filter_map(|(_, o)| {
                Some((
                    o.timings.iter().find(|t| &t.method == label)?.cpu_s,
                    o.scalar(&format!("rms_error_x{sfx}"))?,
                ))
            })
            .collect();
        let (w, e): (Vec<f64>, Vec<f64>) = wall.into_iter().unzip();
        wp.push(Series::new(label.clone(), &w, &e, Style::LineMarkers));
        if k == 0
            && let (Some(&h), Some(&e)) = (dt.first(), err.first())
        {
            let h_max = dt.iter().copied().fold(0.0, f64::max);
            conv.push(Series::new(
                "slope 2",
                &[h, h_max],
                &[e, e * (h_max / h).powi(2)],
                Style::Dashed,
            ));
        }
    }
    summary.figures.push(Figure {
        name: "convergence".into(),
        title: format!("Convergence against {against}"),
        x: Axis::log("time step dt [s]"),
        y: Axis::log("rms(x - x_ref) [m]"),
        series: conv,
        caption: format!("Root-mean-square displacement error against {against} over the common output times and DOFs, against the time step (log-log); the measured order is in the legend, the dashed line has slope 2."),
    });
    summary.figures.push(Figure {
        name: "work-precision".into(),
        title: format!("Work-precision: error against {against} vs CPU time"),
        x: Axis::log("CPU time of the run [s]"),
        y: Axis::log("rms(x - x_ref) [m]"),
        series: wp,
        caption: "Each point is one dt of the sweep; one line per method; CPU time of the thread that ran the method (same run, same machine).".into(),
    });
}

/// Index of the maximum and its parabolic refinement through the three
/// points around it (None at the ends of the sweep).
pub fn parabolic_peak(x: &[f64], y: &[f64]) -> Option<f64> {
    let (i, _) = y.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1))?;
    if i == 0 || i + 1 >= y.len() {
        return None;
    }
    let (x0, x1, x2) = (x[i - 1], x[i], x[i + 1]);
    let (y0, y1, y2) = (y[i - 1], y[i], y[i + 1]);
    let denom = (x0 - x1) * (x0 - x2) * (x1 - x2);
    let a = (x2 * (y1 - y0) + x1 * (y0 - y2) + x0 * (y2 - y1)) / denom;
    let b = (x2 * x2 * (y0 - y1) + x1 * x1 * (y2 - y0) + x0 * x0 * (y1 - y2)) / denom;
    (a < 0.0).then(|| -b / (2.0 * a))
}

fn frequency_response(
    summary: &mut StudySummary,
    ok: &[(&CaseConfig, &CaseOutput)],
    labels: &[String],
) {
    let omega = |c: &CaseConfig, _: &CaseOutput| Some(c.system.excitation.omega);
    let mut series = Vec::new();
    let (wx, ex_max) = points(ok, omega, |o| o.scalar("exact_x0_max"));
    let (_, ex_min) = points(ok, omega, |o| o.scalar("exact_x0_min"));
    if !wx.is_empty() {
        series.push(
            Series::new("exact periodic orbit: max x0", &wx, &ex_max, Style::Line).grouped(0),
        );
        series.push(
            Series::new("exact periodic orbit: min x0", &wx, &ex_min, Style::Dashed).grouped(0),
        );
    }
    for (k, label) in labels.iter().enumerate() {
        let sfx = if k == 0 {
            String::new()
        } else {
            format!(".{label}")
        };
        let (w, mx) = points(ok, omega, |o| o.scalar(&format!("x0_max{sfx}")));
        let (_, mn) = points(ok, omega, |o| o.scalar(&format!("x0_min{sfx}")));
        series
            .push(Series::new(format!("{label}: max x0"), &w, &mx, Style::Markers).grouped(k + 1));
        series
            .push(Series::new(format!("{label}: min x0"), &w, &mn, Style::Markers).grouped(k + 1));
        if k == 0 {
            let (w, amp) = points(ok, omega, |o| o.scalar("x0_amp"));
            if let Some(p) = parabolic_peak(&w, &amp) {
                summary.scalars.push(Scalar::new("peak_omega", p, "forcing frequency of the largest x0 amplitude (parabola through the top three points) [rad/s]"));
            }
        }
    }
    let (w, amp) = points(ok, omega, |o| o.scalar("exact_x0_amp"));
    if let Some(p) = parabolic_peak(&w, &amp) {
        summary.scalars.push(Scalar::new(
            "exact_peak_omega",
            p,
            "the same for the exact periodic orbits [rad/s]",
        ));
    }
    if let Some(wb) = summary
        .scalars
        .iter()
        .find(|s| s.name == "bilinear_frequency")
        .map(|s| s.value)
    {
        let lo = ex_min
            .iter()
            .chain(&ex_max)
            .copied()
            .fold(f64::INFINITY, f64::min);
        let hi = ex_min
            .iter()
            .chain(&ex_max)
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        if lo.is_finite() && hi.is_finite() {
            series.push(Series::new(
                format!("2 w1 w2 / (w1 + w2) = {wb:.4}"),
                &[wb, wb],
                &[lo, hi],
                Style::Dashed,
            ));
        }
    }
    summary.figures.push(Figure {
        name: "frequency-response".into(),
        title: "Frequency response: steady-state extremes of x0".into(),
        x: Axis::linear("forcing frequency omega [rad/s]"),
        y: Axis::linear("x0 [m]"),
        series,
        caption: "Largest and smallest displacement over a period of the steady state against the forcing frequency: Newmark-LCP (markers) after the settling periods, and the exact periodic orbit (lines) by event-driven shooting.".into(),
    });
}

fn time_response(summary: &mut StudySummary, cfg: &CaseConfig, out: &CaseOutput) {
    let n = cfg.system.dofs();
    let t = out.series.values("t").unwrap_or(&[]).to_vec();
    let exact = out.table("exact");
    let label = &cfg.methods[0].label;
    if n <= MAX_DOFS_DRAWN {
        let mut series = Vec::new();
        for i in 0..n {
            let x = out.series.values(&format!("x{i}")).unwrap_or(&[]);
            series.push(Series::new(format!("x{i}, {label}"), &t, x, Style::Line).grouped(i));
            if let Some(ex) = exact {
                let te = ex.table.values("t").unwrap_or(&[]);
                series.push(
                    Series::new(
                        format!("x{i}, exact"),
                        te,
                        ex.table.values(&format!("x{i}")).unwrap_or(&[]),
                        Style::Dashed,
                    )
                    .grouped(i),
                );
            }
        }
        summary.figures.push(Figure {
            name: "time-response".into(),
            title: format!("Time response, case {} (dt = {})", out.name, cfg.dt),
            x: Axis::linear("time t [s]"),
            y: Axis::linear("displacement x [m]"),
            series,
            caption: "Displacements by Bossak-Newmark with one LCP per step (solid) and the exact event-driven solution (dashed).".into(),
        });
        if let Some(ex) = exact {
            let mut err_series = Vec::new();
            for i in 0..n {
                let (Some(x), Some(xe)) = (
                    out.series.values(&format!("x{i}")),
                    ex.table.values(&format!("x{i}")),
                ) else {
                    continue;
                };
                if x.len() != xe.len() {
                    continue;
                }
                let e: Vec<f64> = x.iter().zip(xe).map(|(a, b)| (a - b).abs()).collect();
                err_series.push(Series::new(format!("|x{i} - exact|"), &t, &e, Style::Line));
            }
            summary.figures.push(Figure {
                name: "error".into(),
                title: format!("Error against the exact solution, case {}", out.name),
                x: Axis::linear("time t [s]"),
                y: Axis::log("|x - x_exact| [m]"),
                series: err_series,
                caption:
                    "Pointwise displacement error of Newmark-LCP against the event-driven solution."
                        .into(),
            });
        }
    } else {
        let dofs = [0, n / 2, n - 1];
        let series = dofs
            .iter()
            .map(|&i| {
                Series::new(
                    format!("x{i}"),
                    &t,
                    out.series.values(&format!("x{i}")).unwrap_or(&[]),
                    Style::Line,
                )
            })
            .collect();
        summary.figures.push(Figure {
            name: "chain-response".into(),
            title: format!("Chain response at three masses, case {}", out.name),
            x: Axis::linear("time t [s]"),
            y: Axis::linear("displacement x [m]"),
            series,
            caption: format!(
                "Displacements of masses 0, {}, {} of the {n}-mass chain ({label}).",
                n / 2,
                n - 1
            ),
        });
        let idx: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let env = |f: fn(f64, f64) -> f64, init: f64| -> Vec<f64> {
            (0..n)
                .map(|i| {
                    out.series
                        .values(&format!("x{i}"))
                        .unwrap_or(&[])
                        .iter()
                        .copied()
                        .fold(init, f)
                })
                .collect()
        };
        let gaps: Vec<f64> = (0..n)
            .map(|j| {
                cfg.system.springs.gaps[j]
                    * cfg
                        .system
                        .springs
                        .directions
                        .get(j, j)
                        .copied()
                        .unwrap_or(0.0)
            })
            .collect();
        summary.figures.push(Figure {
            name: "chain-envelope".into(),
            title: format!("Displacement envelope along the chain, case {}", out.name),
            x: Axis::linear("mass index j"),
            y: Axis::linear("x_j [m]"),
            series: vec![
                Series::new("max over t", &idx, &env(f64::max, f64::NEG_INFINITY), Style::Line),
                Series::new("min over t", &idx, &env(f64::min, f64::INFINITY), Style::Line),
                Series::new("gap position d_j g_j", &idx, &gaps, Style::Markers),
            ],
            caption: "Largest and smallest displacement of every mass over the run, with the position at which its gap spring engages.".into(),
        });
    }
}

/// Time per step against n for every method (from the timings of the same
/// run), and the iterations per step.
fn scaling(summary: &mut StudySummary, ok: &[(&CaseConfig, &CaseOutput)], labels: &[String]) {
    let mut time_series = Vec::new();
    let mut iteration_series = Vec::new();
    let mut notes = Vec::new();
    for label in labels {
        let mut pts: Vec<(f64, f64, f64)> = ok
            .iter()
            .filter_map(|(c, o)| {
                let t = o.timings.iter().find(|t| &t.method == label)?;
                let steps = t.counter("steps")?.max(1.0);
                let its = t
                    .counters
                    .iter()
                    .find(|(k, _)| {
                        k == "newton_iterations" || k == "lcp_pivots" || k == "lcp_iterations"
                    })
                    .map_or(f64::NAN, |(_, v)| *v);
                Some((c.system.dofs() as f64, t.cpu_s / steps, its / steps))
            })
            .collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        if pts.is_empty() {
            continue;
        }
        let n: Vec<f64> = pts.iter().map(|p| p.0).collect();
        let per_step: Vec<f64> = pts.iter().map(|p| p.1).collect();
        let its: Vec<f64> = pts.iter().map(|p| p.2).collect();
        let large: Vec<(f64, f64)> = pts
            .iter()
            .filter(|p| p.0 >= 1000.0)
            .map(|p| (p.0, p.1))
            .collect();
        let exponent = orders(
            &large.iter().map(|p| p.0).collect::<Vec<_>>(),
            &large.iter().map(|p| p.1).collect::<Vec<_>>(),
        )
        .map(|o| o.0);
        let legend = match exponent {
            Some(e) => format!("{label} (slope {e:.2} for n >= 1000)"),
            None => label.clone(),
        };
        time_series.push(Series::new(legend, &n, &per_step, Style::LineMarkers));
        iteration_series.push(Series::new(label.clone(), &n, &its, Style::LineMarkers));
        let at = |target: f64| {
            pts.iter()
                .find(|p| p.0 == target)
                .map(|p| format!("{:.3e} s at n = {target}", p.1))
        };
        let quoted: Vec<String> = [1000.0, 100000.0].iter().filter_map(|&t| at(t)).collect();
        notes.push(format!(
            "{label}: time per step {}{}.",
            quoted.join(", "),
            exponent
                .map(|e| format!("; growth exponent {e:.2} over n >= 1000"))
                .unwrap_or_default()
        ));
    }
    if let Some(first) = time_series.first()
        && let (Some(&(n0, t0)), Some(&(n1, _))) = (first.points.first(), first.points.last())
    {
        time_series.push(Series::new(
            "slope 1 (linear in n)",
            &[n0, n1],
            &[t0, t0 * n1 / n0],
            Style::Dashed,
        ));
    }
    summary.figures.push(Figure {
        name: "scaling".into(),
        title: "Time per step against the number of DOFs (chain, m = n gap springs)".into(),
        x: Axis::log("DOFs n"),
        y: Axis::log("CPU time per step [s]"),
        series: time_series,
        caption: "CPU time per Newmark step of each method on the chain of chain-1000 scaled to n masses and n gap springs, measured in one run; the dense LCP method stops where it stops being feasible.".into(),
    });
    summary.figures.push(Figure {
        name: "iterations".into(),
        title: "Solver iterations per step against n".into(),
        x: Axis::log("DOFs n"),
        y: Axis::log("iterations per step (Newton iterations, or Lemke pivots)"),
        series: iteration_series,
        caption: "Exact counters: semi-smooth Newton iterations (one factorization each) or Lemke pivots per time step.".into(),
    });
    summary.notes.extend(notes);
}
