//! Study-level results of a gap-system study: the frequency-response curve
//! over an omega sweep, time responses, the chain's envelope and the cost
//! scaling over a size sweep, with their figures. (Convergence orders,
//! work-precision and speed-ups come from the harness: `harness::sweep`.)

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::study::{CaseOutput, MethodOutput, Scalar, StudySummary};
use crate::harness::sweep::label::{coords_text, short, with_unit};
use crate::harness::table::Table;
use crate::studies::gap_system::spec::CaseConfig;
use crate::studies::shared::figures::method_labels;

/// Largest n for which every DOF's time response is drawn.
const MAX_DOFS_DRAWN: usize = 6;

pub(super) fn summarize(
    study: &str,
    configs: &[CaseConfig],
    sweep_keys: &[String],
    cases: &[CaseOutput],
) -> StudySummary {
    let mut summary = StudySummary::default();
    let all: Vec<(&CaseConfig, &CaseOutput)> = configs.iter().zip(cases).collect();
    if let Some(w) = all
        .first()
        .and_then(|(_, c)| c.scalar("bilinear_frequency"))
    {
        summary.push(Scalar::new(
            "bilinear_frequency",
            w,
            "analytic 2 w1 w2 / (w1 + w2) [rad/s]",
        ));
    }
    let swept = |key: &str| sweep_keys.iter().any(|k| k == key);
    if swept("excitation.omega") && all.iter().all(|(c, _)| c.steady_state.is_some()) {
        frequency_response(&mut summary, &all);
    } else if swept("system.chain.n") {
        scaling(&mut summary, &all);
    } else if swept("integrator.alpha_b") && super::spectral::figure(&mut summary, &all) {
        // A Bossak study on an unresolved mode: its point is the spectral
        // radius; the transient decays within a few steps of its axis.
    } else if let Some((cfg, out)) = all
        .iter()
        .filter(|(_, o)| o.methods.first().is_some_and(|m| m.output().is_some()))
        .min_by(|a, b| a.0.dt.total_cmp(&b.0.dt))
        .copied()
    {
        // Time responses of the finest case.
        time_response(&mut summary, cfg, out);
    }
    // One line per distinct system size (a size sweep has several).
    let mut sizes: Vec<(usize, usize, f64)> = Vec::new();
    for (cfg, out) in &all {
        let (n, m) = (cfg.system.dofs(), cfg.system.springs.len());
        let active = out
            .methods
            .iter()
            .filter_map(|m| m.output()?.scalar("max_active"))
            .fold(0.0, f64::max);
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

/// The case a per-case figure draws: its swept values with units
/// (`alpha_b = -0.3, dt = 625 µs`), or its name without sweeps; the step
/// is added when it is not swept.
fn case_title(cfg: &CaseConfig, o: &CaseOutput) -> String {
    let case = if o.coords.is_empty() {
        format!("case {}", o.name)
    } else {
        coords_text(&o.coords)
    };
    if o.coord("integrator.dt").is_some() {
        case
    } else {
        format!("{case} (dt = {})", with_unit(cfg.dt, Some("s")))
    }
}

/// (x, y) over the cases, sorted by x, where both exist.
fn points(
    all: &[(&CaseConfig, &CaseOutput)],
    x: impl Fn(&CaseConfig, &CaseOutput) -> Option<f64>,
    y: impl Fn(&CaseOutput) -> Option<f64>,
) -> (Vec<f64>, Vec<f64>) {
    let mut pts: Vec<(f64, f64)> = all
        .iter()
        .filter_map(|(c, o)| Some((x(c, o)?, y(o)?)))
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    pts.into_iter().unzip()
}

/// The output of method `label` in case `o`, if it ran and succeeded.
fn output<'a>(o: &'a CaseOutput, label: &str) -> Option<&'a MethodOutput> {
    o.method(label)?.output()
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

fn frequency_response(summary: &mut StudySummary, all: &[(&CaseConfig, &CaseOutput)]) {
    let omega = |c: &CaseConfig, _: &CaseOutput| Some(c.system.excitation.omega);
    let mut series = Vec::new();
    let (wx, ex_max) = points(all, omega, |o| o.scalar("exact_x0_max"));
    let (_, ex_min) = points(all, omega, |o| o.scalar("exact_x0_min"));
    if !wx.is_empty() {
        series.push(
            Series::new("exact periodic orbit: max x0", &wx, &ex_max, Style::Line).grouped(0),
        );
        series.push(
            Series::new("exact periodic orbit: min x0", &wx, &ex_min, Style::Dashed).grouped(0),
        );
    }
    for (k, label) in method_labels(all.iter().map(|a| a.1)).iter().enumerate() {
        let (w, mx) = points(all, omega, |o| output(o, label)?.scalar("x0_max"));
        let (_, mn) = points(all, omega, |o| output(o, label)?.scalar("x0_min"));
        series
            .push(Series::new(format!("{label}: max x0"), &w, &mx, Style::Markers).grouped(k + 1));
        series
            .push(Series::new(format!("{label}: min x0"), &w, &mn, Style::Markers).grouped(k + 1));
        if k == 0 {
            let (w, amp) = points(all, omega, |o| output(o, label)?.scalar("x0_amp"));
            if let Some(p) = parabolic_peak(&w, &amp) {
                summary.push(Scalar::new("peak_omega", p, format!("forcing frequency of the largest x0 amplitude of {label} (parabola through the top three points) [rad/s]")));
            }
        }
    }
    let (w, amp) = points(all, omega, |o| o.scalar("exact_x0_amp"));
    if let Some(p) = parabolic_peak(&w, &amp) {
        summary.push(Scalar::new(
            "exact_peak_omega",
            p,
            "the same for the exact periodic orbits [rad/s]",
        ));
    }
    if let Some(wb) = summary.scalar("bilinear_frequency") {
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
    let gaps: Vec<String> = all
        .first()
        .map(|(c, _)| {
            c.system
                .springs
                .gaps
                .iter()
                .map(|g| with_unit(*g, Some("m")))
                .collect()
        })
        .unwrap_or_default();
    let gap = match gaps.len() {
        0 => "no gap spring".to_string(),
        1 => format!("gap {}", gaps[0]),
        _ => format!("gaps {}", gaps.join(", ")),
    };
    let methods = method_labels(all.iter().map(|a| a.1));
    let exact = if wx.is_empty() {
        "no exact periodic orbit is drawn (the cases have none)".to_string()
    } else {
        "the exact periodic orbit (lines) by event-driven shooting".to_string()
    };
    summary.figures.push(Figure {
        name: "frequency-response".into(),
        title: format!("Frequency response: steady-state extremes of x0, {gap}"),
        x: Axis::linear("forcing frequency omega [rad/s]"),
        y: Axis::linear("x0 [m]"),
        series,
        caption: format!(
            "Largest and smallest displacement over a period of the steady state against the forcing frequency at {} values of omega from {} to {} rad/s ({gap}): {} (markers) after the settling periods, and {exact}.",
            all.len(),
            short(all.iter().map(|(c, _)| c.system.excitation.omega).fold(f64::INFINITY, f64::min)),
            short(all.iter().map(|(c, _)| c.system.excitation.omega).fold(f64::NEG_INFINITY, f64::max)),
            methods.join(", ")
        ),
    });
}

fn time_response(summary: &mut StudySummary, cfg: &CaseConfig, out: &CaseOutput) {
    let Some(first) = out.methods.first() else {
        return;
    };
    let Some(series_out) = first.output() else {
        return;
    };
    let label = first.label();
    let table = &series_out.series;
    let n = cfg.system.dofs();
    let t = table.values("t").unwrap_or(&[]).to_vec();
    if n <= MAX_DOFS_DRAWN {
        dof_figures(summary, cfg, out, label, table, &t);
        return;
    }
    chain_response(summary, cfg, out, label, table, &t);
    if let Some(env) = series_out.table("envelope") {
        chain_envelope(summary, cfg, out, label, &env.table);
    }
}

/// A small system (at most [`MAX_DOFS_DRAWN`] DOFs): every displacement
/// with the exact solution dashed, and the pointwise error against it.
fn dof_figures(
    summary: &mut StudySummary,
    cfg: &CaseConfig,
    out: &CaseOutput,
    label: &str,
    table: &Table,
    t: &[f64],
) {
    let n = cfg.system.dofs();
    let exact = out.table("exact");
    let mut series = Vec::new();
    for i in 0..n {
        let x = table.values(&format!("x{i}")).unwrap_or(&[]);
        series.push(Series::new(format!("x{i}, {label}"), t, x, Style::Line).grouped(i));
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
    let reference = if exact.is_some() {
        " and the exact event-driven solution (dashed)"
    } else {
        "; no exact solution is drawn: the case has none (reference.method = \"none\")"
    };
    summary.figures.push(Figure {
        name: "time-response".into(),
        title: format!("Time response, {}", case_title(cfg, out)),
        x: Axis::linear("time t [s]"),
        y: Axis::linear("displacement x [m]"),
        series,
        caption: format!(
            "Displacements by {label} (solid) over t = 0 to {} s{reference}.",
            short(t.last().copied().unwrap_or(0.0))
        ),
    });
    if let Some(ex) = exact {
        let mut err_series = Vec::new();
        for i in 0..n {
            let (Some(x), Some(xe)) = (
                table.values(&format!("x{i}")),
                ex.table.values(&format!("x{i}")),
            ) else {
                continue;
            };
            if x.len() != xe.len() {
                continue;
            }
            let e: Vec<f64> = x.iter().zip(xe).map(|(a, b)| (a - b).abs()).collect();
            err_series.push(Series::new(format!("|x{i} - exact|"), t, &e, Style::Line));
        }
        summary.figures.push(Figure {
            name: "error".into(),
            title: format!("Error against the exact solution, {}", case_title(cfg, out)),
            x: Axis::linear("time t [s]"),
            y: Axis::log("|x - x_exact| [m]"),
            series: err_series,
            caption: format!(
                "Pointwise displacement error of {label} against the event-driven solution."
            ),
        });
    }
}

/// A chain: the written masses' displacements (the reference file's curves
/// underneath) and the extremes over all masses at each output time.
fn chain_response(
    summary: &mut StudySummary,
    cfg: &CaseConfig,
    out: &CaseOutput,
    label: &str,
    table: &Table,
    t: &[f64],
) {
    let n = cfg.system.dofs();
    let dofs: Vec<String> = table
        .columns()
        .iter()
        .filter(|c| crate::harness::table::name_matches("x*", &c.name))
        .map(|c| c.name.clone())
        .collect();
    let mut series: Vec<Series> = Vec::new();
    for (k, name) in dofs.iter().enumerate() {
        series.push(
            Series::new(
                format!("{name}, {label}"),
                t,
                table.values(name).unwrap_or(&[]),
                Style::Line,
            )
            .grouped(k),
        );
        // The reference file's curve of the same mass, drawn underneath.
        if let Some((file, reference)) = &cfg.reference_file
            && let (Some(tr), Some(xr)) = (reference.values("t"), reference.values(name))
        {
            let stem = std::path::Path::new(file)
                .file_stem()
                .map_or(file.clone(), |s| s.to_string_lossy().into_owned());
            // Only over the run's time span.
            let end = t.last().copied().unwrap_or(0.0) * (1.0 + 1e-12);
            let keep = tr.iter().take_while(|&&s| s <= end).count();
            series.push(
                Series::new(
                    format!("{name}, {stem}"),
                    &tr[..keep],
                    &xr[..keep],
                    Style::Dashed,
                )
                .grouped(k),
            );
        }
    }
    if let (Some(hi), Some(lo)) = (table.values("x_max_all"), table.values("x_min_all")) {
        series.push(Series::new("max over all masses", t, hi, Style::Line));
        series.push(Series::new("min over all masses", t, lo, Style::Line));
    }
    summary.figures.push(Figure {
        name: "chain-response".into(),
        title: format!("Chain response at the written masses, {}", case_title(cfg, out)),
        x: Axis::linear("time t [s]"),
        y: Axis::linear("displacement x [m]"),
        series,
        caption: format!(
            "Displacements of the written masses of the {n}-mass chain ({label}){}, and the extremes over all masses at each output time.",
            match &cfg.reference_file {
                Some((file, _)) => format!(", with the reference file {file}'s curves underneath (dashed)"),
                None => ", without a reference curve (the case names no reference file)".to_string(),
            }
        ),
    });
}

/// A chain's displacement envelope along the masses, with the position at
/// which each gap spring engages.
fn chain_envelope(
    summary: &mut StudySummary,
    cfg: &CaseConfig,
    out: &CaseOutput,
    label: &str,
    envelope: &Table,
) {
    let idx = envelope.values("dof").unwrap_or(&[]).to_vec();
    let gaps: Vec<f64> = idx
        .iter()
        .map(|&j| {
            let j = j as usize;
            cfg.system.springs.gaps.get(j).copied().unwrap_or(f64::NAN)
                * cfg
                    .system
                    .springs
                    .directions
                    .get(j, j)
                    .copied()
                    .unwrap_or(f64::NAN)
        })
        .collect();
    summary.figures.push(Figure {
        name: "chain-envelope".into(),
        title: format!("Displacement envelope along the chain, {}", case_title(cfg, out)),
        x: Axis::linear("mass index j [-]"),
        y: Axis::linear("x_j [m]"),
        series: vec![
            Series::new("max over t", &idx, envelope.values("x_max").unwrap_or(&[]), Style::Line),
            Series::new("min over t", &idx, envelope.values("x_min").unwrap_or(&[]), Style::Line),
            Series::new("gap position d_j g_j", &idx, &gaps, Style::Markers),
        ],
        caption: format!("Largest and smallest displacement of every mass over every step of the run ({label}), with the position at which its gap spring engages."),
    });
}

/// Time per step against n for every method (from the timings of the same
/// run), and the iterations per step.
fn scaling(summary: &mut StudySummary, all: &[(&CaseConfig, &CaseOutput)]) {
    let mut time_series = Vec::new();
    let mut iteration_series = Vec::new();
    let mut notes = Vec::new();
    let methods = method_labels(all.iter().map(|a| a.1));
    let sizes = all.iter().map(|(c, _)| c.system.dofs() as f64);
    let (n_min, n_max) = (
        sizes.clone().fold(f64::INFINITY, f64::min),
        sizes.fold(f64::NEG_INFINITY, f64::max),
    );
    for label in methods.clone() {
        let mut pts: Vec<(f64, f64, f64)> = all
            .iter()
            .filter_map(|(c, o)| {
                let m = o.method(&label)?;
                let t = m.timing()?;
                let steps = t.counter("steps")?.max(1.0);
                let its = m
                    .output()?
                    .scalar("iterations_per_step")
                    .unwrap_or(f64::NAN);
                Some((c.system.dofs() as f64, t.cpu_s / steps, its))
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
        let exponent = crate::harness::sweep::orders(
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
        x: Axis::log("DOFs n [-]"),
        y: Axis::log("CPU time per step [s]"),
        series: time_series,
        caption: format!("CPU time per Newmark step of each method ({}) on the chain of chain-1000 scaled to n masses and n gap springs, n = {} to {}, measured in one run; the dense LCP method stops where it stops being feasible.", methods.join(", "), short(n_min), short(n_max)),
    });
    summary.figures.push(Figure {
        name: "iterations".into(),
        title: "Solver iterations per step against n".into(),
        x: Axis::log("DOFs n [-]"),
        y: Axis::log("iterations per step (Newton iterations, or Lemke pivots) [-]"),
        series: iteration_series,
        caption: format!("Exact counters of each method ({}): semi-smooth Newton iterations (one factorization each) or Lemke pivots per time step.", methods.join(", ")),
    });
    summary.notes.extend(notes);
}
