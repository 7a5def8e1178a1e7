//! Study-level results of a shrouded-blades study: the seed's Figs. 4b
//! (blade 1's tip transient) and 4c (slip speed at a patch) per law, and
//! the calibration's note; the seed's four conclusions are the study's
//! claims (experiments/shrouded-blades.toml).

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::study::{CaseOutput, StudySummary};
use crate::harness::sweep::label::{coords_text, short};
use crate::studies::shared::figures::count_word;
use crate::studies::shared::slope::method_slope;
use crate::studies::shrouded_blades::spec::{CaseConfig, Integrator};

pub(super) fn summarize(configs: &[CaseConfig], cases: &[CaseOutput]) -> StudySummary {
    let mut summary = StudySummary::default();
    step_slopes(&mut summary, configs, cases);
    let Some((cfg, o)) = configs.iter().zip(cases).next() else {
        return summary;
    };
    for (column, name, title, unit, paper, band) in [
        (
            "tip_z",
            "fig4b-tip-z",
            "Transient of blade 1's tip along z",
            "tip displacement z from the preloaded equilibrium [m]",
            "Fig. 4b",
            cfg.seed_peak_tip_z.map(|v| (v, 0.7 * v, 1.3 * v, "+-30 %")),
        ),
        (
            "slip_speed",
            "fig4c-slip-speed",
            "Slip speed at the watched contact patch",
            "slip speed [m/s]",
            "Fig. 4c",
            cfg.seed_peak_slip_speed
                .map(|v| (v, 0.5 * v, 2.0 * v, "within a factor 2")),
        ),
    ] {
        let mut series = Vec::new();
        let (mut solid, mut dashed): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
        for (k, m) in o.methods.iter().enumerate() {
            let Some(out) = m.output() else { continue };
            if let (Some(t), Some(y)) = (out.series.values("t"), out.series.values(column)) {
                let style = match cfg.methods[k].integrator {
                    Integrator::Moreau => {
                        solid.push(m.label());
                        Style::Line
                    }
                    _ => {
                        dashed.push(m.label());
                        Style::Dashed
                    }
                };
                series.push(Series::new(m.label(), t, y, style));
            }
        }
        let mut band_note = String::new();
        let window = o
            .methods
            .iter()
            .find_map(|m| m.output().and_then(|o| o.series.values("t")))
            .filter(|t| t.len() >= 2);
        if let (Some((v, lo, hi, what)), Some(t)) = (band, window) {
            let ends = [t[0], t[t.len() - 1]];
            for (label, y) in [
                (format!("seed's peak {v:.2e} {what}: low"), lo),
                (format!("seed's peak {v:.2e} {what}: high"), hi),
            ] {
                series.push(Series::new(label, &ends, &[y, y], Style::Dashed).grouped(1000));
            }
            band_note = format!(
                " The two dashed lines labelled seed's peak bound the goal band around the seed's peak {v:.2e} read off its axis ({what}; a calibration target, see the notes)."
            );
        }
        let (at, case) = if o.coords.is_empty() {
            (String::new(), String::new())
        } else {
            let c = coords_text(&o.coords);
            (
                format!(" ({c})"),
                format!(", case {c} (the first of {})", cases.len()),
            )
        };
        let span = window.map_or(String::new(), |t| {
            format!(
                " over t = {} to {} ms",
                short(1e3 * t[0]),
                short(1e3 * t[t.len() - 1])
            )
        });
        let what = if cfg.seed_peak_tip_z.is_some() {
            format!("Regenerates the seed's {paper}")
        } else {
            format!("The quantity of the seed's {paper} (this model is not calibrated to it)")
        };
        let list = |v: &[&str]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        summary.figures.push(Figure {
            name: name.into(),
            title: format!("{title}{at}"),
            x: Axis::linear("time t [s]"),
            y: Axis::linear(unit),
            series,
            caption: format!(
                "{what} under the 10 N step load{span}{case}, for {} methods: solid, Moreau time stepping with true sticking: {}; dashed, the seed's formulation without a sticking limit (its ODE by Dormand-Prince, or the imex methods: fixed steps of {:.1e} s with the friction force explicit): {}.{band_note}",
                count_word(solid.len() + dashed.len()),
                list(&solid),
                cfg.imex_dt,
                list(&dashed)
            ),
        });
    }
    if let (Some(z), Some(s)) = (cfg.seed_peak_tip_z, cfg.seed_peak_slip_speed) {
        calibration_note(&mut summary, o, z, s);
    }
    summary
}

/// What was calibrated, and on what: the seed's magnitudes are targets,
/// the law comparison (the claims) the evidence. Written for a study
/// that names the seed's magnitudes (`seed.peak_tip_z`, `peak_slip_speed`).
fn calibration_note(summary: &mut StudySummary, o: &CaseOutput, peak_z: f64, peak_slip: f64) {
    let n0 = o.scalar("preload_normal_force").unwrap_or(f64::NAN);
    let open = o.scalar("preload_min_patch_force").unwrap_or(f64::NAN);
    let torsion = o
        .scalar("torsion_stiffness_at_lever")
        .map_or("rigid in torsion".to_string(), |k| {
            format!("twisting blades (G J / L is {k:.3e} N/m at the s/2 lever)")
        });
    summary.notes.push(format!(
        "Calibration (not evidence): the seed gives no geometry, so its Fig. 4b and 4c magnitudes ({peak_z:.2e} m, {peak_slip:.2e} m/s, read off its axes) are calibration targets. Fitted: the interference (contact.initial_gap), to the peak slip speed of the constant law; it gives the preload N_0 = {n0:.1} N (the smallest patch force of the preload {open:.2} N: {}). Not fitted: the blades, {torsion}, the load and the laws. The seed's four conclusions (the claims) are evaluated afterwards with no further tuning. Tip z and the slip speeds are measured from the preloaded equilibrium.",
        if open > 0.0 { "every patch closed" } else { "some patches open under the tilt" }
    ));
}

/// For each imex method (the seed's formulation) run at several steps: the
/// slope of log(peak slip speed) against log(step) over the cases, the
/// study scalar `seed_slip_step_slope`. About 1 when the slip speed is
/// the chattering of a force that jumps at zero slip (the explicit
/// friction's slip changes by h N f(0+) / m a step); about 0 when the run
/// has converged to the ODE's solution.
fn step_slopes(summary: &mut StudySummary, configs: &[CaseConfig], cases: &[CaseOutput]) {
    let steps: Vec<f64> = configs.iter().map(|c| c.imex_dt).collect();
    if steps.windows(2).all(|w| w[0] == w[1]) {
        return;
    }
    let Some(first) = configs.first() else { return };
    for m in first
        .methods
        .iter()
        .filter(|m| m.integrator == Integrator::Imex)
    {
        let (h, v): (Vec<f64>, Vec<f64>) = configs
            .iter()
            .zip(cases)
            .filter_map(|(c, o)| {
                let out = o.method(&m.label)?.output()?;
                let peak = out
                    .scalars
                    .iter()
                    .find(|s| s.name == "peak_slip_speed")?
                    .value;
                Some((c.imex_dt, peak))
            })
            .unzip();
        let doc = format!(
            "least-squares slope of log(peak slip speed) against log(imex step) over the cases, {}: about 1 when the slip is the chatter of a force that jumps at zero slip, about 0 when converged",
            m.label
        );
        summary.scalars.extend(method_slope(
            "seed_slip_step_slope",
            (&h, &v),
            doc,
            (&m.label, String::new()),
        ));
    }
}
