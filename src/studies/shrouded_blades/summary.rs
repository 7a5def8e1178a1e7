//! Study-level results of a shrouded-blades study: the seed's Figs. 4b
//! (blade 1's tip transient) and 4c (slip speed at a patch) per law, and
//! its four conclusions, each stated as reproduced or not with the numbers.

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::study::{CaseOutput, MethodOutput, StudySummary};
use crate::studies::shrouded_blades::spec::{CaseConfig, Integrator};

pub(super) fn summarize(configs: &[CaseConfig], cases: &[CaseOutput]) -> StudySummary {
    let mut summary = StudySummary::default();
    let Some((cfg, o)) = configs.iter().zip(cases).next() else {
        return summary;
    };
    for (column, name, title, unit, paper) in [
        (
            "tip_z",
            "fig4b-tip-z",
            "Transient of blade 1's tip along z",
            "tip displacement z [m]",
            "Fig. 4b",
        ),
        (
            "slip_speed",
            "fig4c-slip-speed",
            "Slip speed at the watched contact patch",
            "slip speed [m/s]",
            "Fig. 4c",
        ),
    ] {
        let mut series = Vec::new();
        for (k, m) in o.methods.iter().enumerate() {
            let Some(out) = m.output() else { continue };
            if let (Some(t), Some(y)) = (out.series.values("t"), out.series.values(column)) {
                let style = match cfg.methods[k].integrator {
                    Integrator::Moreau => Style::Line,
                    _ => Style::Dashed,
                };
                series.push(Series::new(m.label(), t, y, style));
            }
        }
        summary.figures.push(Figure {
            name: name.into(),
            title: title.into(),
            x: Axis::linear("time t [s]"),
            y: Axis::linear(unit),
            series,
            caption: format!(
                "Regenerates the seed's {paper} for each friction law under the 10 N step load (solid: Moreau time stepping with true sticking; dashed: the ODE without a sticking limit, as the seed computed)."
            ),
        });
    }
    conclusions(&mut summary, cfg, o);
    summary
}

/// The first successful Moreau run (else any run) of the law `name`.
fn by_law<'a>(
    cfg: &CaseConfig,
    o: &'a CaseOutput,
    name: &str,
) -> Option<(&'a str, &'a MethodOutput)> {
    let runs = || {
        cfg.methods
            .iter()
            .zip(&o.methods)
            .filter(move |(c, _)| c.law_name == name)
    };
    runs()
        .find(|(c, m)| c.integrator == Integrator::Moreau && m.output().is_some())
        .or_else(|| runs().find(|(_, m)| m.output().is_some()))
        .and_then(|(_, m)| Some((m.label(), m.output()?)))
}

fn verdict(ok: bool) -> &'static str {
    if ok { "reproduced" } else { "not reproduced" }
}

fn conclusions(summary: &mut StudySummary, cfg: &CaseConfig, o: &CaseOutput) {
    let laws = ["constant", "tanh", "adams", "micro-slip", "ansys"];
    let runs: Vec<(&str, &str, &MethodOutput)> = laws
        .iter()
        .filter_map(|&l| by_law(cfg, o, l).map(|(label, out)| (l, label, out)))
        .collect();
    let get = |law: &str| runs.iter().find(|r| r.0 == law);
    let scalar = |out: &MethodOutput, name: &str| out.scalar(name).unwrap_or(f64::NAN);
    if let (Some(ms), Some(an)) = (get("micro-slip"), get("ansys"))
        && let (Some(a), Some(b)) = (ms.2.series.values("tip_z"), an.2.series.values("tip_z"))
    {
        let peak = a.iter().chain(b).fold(0.0f64, |m, x| m.max(x.abs()));
        let diff = a
            .iter()
            .zip(b)
            .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()));
        let rel = diff / peak.max(1e-300);
        summary.notes.push(format!(
            "Seed: the micro-slip and ANSYS transients nearly coincide. Here max |z_micro-slip - z_ansys| = {diff:.3e} m, {:.1} % of the peak {peak:.3e} m: {} (criterion: within 5 % of the peak).",
            100.0 * rel,
            verdict(rel <= 0.05)
        ));
    }
    if runs.len() == laws.len() {
        let peaks: Vec<(&str, f64)> = runs
            .iter()
            .map(|r| (r.1, scalar(r.2, "peak_slip_speed")))
            .collect();
        let top = peaks.iter().fold(
            ("", f64::NEG_INFINITY),
            |m, p| if p.1 > m.1 { *p } else { m },
        );
        let list = peaks
            .iter()
            .map(|(l, v)| format!("{l} {v:.3e}"))
            .collect::<Vec<_>>()
            .join(", ");
        summary.notes.push(format!(
            "Seed: the ANSYS law reaches the highest relative velocity. Peak slip speeds at the watched patch [m/s]: {list}; the highest is {}: {}.",
            top.0,
            verdict(get("ansys").is_some_and(|a| a.1 == top.0))
        ));
        let ratios: Vec<(&str, &str, f64)> = runs
            .iter()
            .map(|r| {
                (
                    r.0,
                    r.1,
                    scalar(r.2, "late_slip_speed") / scalar(r.2, "early_slip_speed").max(1e-300),
                )
            })
            .collect();
        let falls = ratios
            .iter()
            .filter(|r| r.0 != "constant")
            .all(|r| r.2 < 1.0);
        let constant_stays = ratios
            .iter()
            .find(|r| r.0 == "constant")
            .is_some_and(|r| r.2 >= 1.0);
        let list = ratios
            .iter()
            .map(|(_, l, v)| format!("{l} {v:.2}"))
            .collect::<Vec<_>>()
            .join(", ");
        summary.notes.push(format!(
            "Seed: relative velocities fall for every law except the constant one. Largest slip speed over the last third of the run over that over the first third: {list}: {} (falls for the four others: {falls}; does not fall for the constant law: {constant_stays}).",
            verdict(falls && constant_stays)
        ));
        let amps: Vec<(&str, &str, f64)> = runs
            .iter()
            .map(|r| (r.0, r.1, scalar(r.2, "late_amplitude")))
            .collect();
        let constant = amps
            .iter()
            .find(|a| a.0 == "constant")
            .map_or(f64::NAN, |a| a.2);
        // Faster damping must show: at least 5 % less amplitude.
        let fastest = amps
            .iter()
            .filter(|a| a.0 == "tanh" || a.0 == "adams")
            .all(|a| constant < 0.95 * a.2);
        let list = amps
            .iter()
            .map(|(_, l, v)| format!("{l} {v:.3e}"))
            .collect::<Vec<_>>()
            .join(", ");
        summary.notes.push(format!(
            "Seed: below about 1e-4 m/s the tanh and ADAMS coefficients fall under the static one, so the constant-coefficient model damps faster. Half peak-to-peak of the tip z over the last third [m]: {list}: {} (criterion: the constant law at least 5 % below both tanh and ADAMS: {fastest}).",
            verdict(fastest)
        ));
    }
    if let Some(s) = o.scalar("static_tip_z") {
        summary.notes.push(format!(
            "Model scale: the frictionless static tip deflection under 10 N is {s:.3e} m; the seed's transients reach about 2.5e-5 m and its slip speeds about 3.5e-4 m/s (the seed gives no blade dimensions; these blades are assumed, see the model's documentation)."
        ));
    }
}
