//! Study kind `friction-law`: the friction coefficient of each law against
//! the slip speed (the seed's Fig. 4a, on friction in contact joints). Each
//! law (`[laws.<label>]`, the keys of the `stick-slip` kind's laws) is a
//! method of the case; its series is f(v) on `speeds`; checks compare it
//! with an independent tabulation of the formulas.

pub mod kernels;

use crate::contact::friction::LawClass;
use crate::error::{InputError, SolverError};
use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::kind::{CaseKind, Cases, Progress, Run};
use crate::harness::study::{CaseOutput, MethodOutput, Scalar, StudySummary};
use crate::harness::study::{Provides, names};
use crate::harness::sweep::label::short;
use crate::harness::table::Table;
use crate::studies::keys::KeyCtx as Ctx;
use crate::studies::shared::figures::{count_word, succeeded};
use crate::studies::shared::friction::{FrictionSpec, LawToml, law};

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseToml {
    speeds: SpeedsToml,
    laws: toml::Table,
    #[serde(default)]
    compare_at: Option<f64>,
    #[serde(default)]
    figure_reference: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpeedsToml {
    from: f64,
    to: f64,
    count: usize,
}

/// One validated case: the speeds and the laws.
pub(crate) struct CaseConfig {
    speeds: Vec<f64>,
    /// The laws, each a method of the case.
    methods: Vec<Law>,
    compare_at: f64,
    /// Per law (in law order), the reference tabulation drawn in the
    /// figure: (v, f) from `figure_reference`'s column of the law's label
    /// with `-` read as `_`.
    reference: Option<Vec<Curve>>,
}

/// A law of a case: `[laws.<label>]`.
pub(crate) struct Law {
    label: String,
    /// The law's name (`law = "..."`).
    name: String,
    spec: FrictionSpec,
}

crate::harness::kind::described_methods! { CaseConfig, Law, |m| m.name.clone(), describe }

/// The report's line on law `m`.
fn describe(m: &Law) -> String {
    format!("the {} law's coefficient f(v)", m.name)
}

/// A reference curve: (v [m/s], f [-]).
type Curve = (Vec<f64>, Vec<f64>);

/// Every this many rows of a reference tabulation is drawn as a marker.
const REFERENCE_MARKER_EVERY: usize = 20;

/// One case of the spec, validated.
pub(crate) fn parse_case(ctx: &Ctx, table: toml::Table) -> Result<CaseConfig, InputError> {
    let raw: CaseToml = ctx.parse(table)?;
    let from = raw.speeds.from;
    if !(from.is_finite() && from >= 0.0) {
        return Err(ctx.err("speeds.from", from, "a speed >= 0 [m/s]"));
    }
    let to = raw.speeds.to;
    if !(to.is_finite() && to > from) {
        return Err(ctx.err("speeds.to", to, format!("a speed > from = {from} m/s")));
    }
    let count = raw.speeds.count;
    if !(2..=1_000_000).contains(&count) {
        return Err(ctx.err("speeds.count", count, "an integer in 2..=1000000"));
    }
    let speeds = (0..count)
        .map(|i| from + (to - from) * i as f64 / (count - 1) as f64)
        .collect();
    if raw.laws.is_empty() {
        return Err(ctx.missing("laws", "at least one [study.laws.<label>] table with a law"));
    }
    let mut laws = Vec::new();
    for (label, value) in &raw.laws {
        let at = format!("laws.{label}");
        if !crate::studies::keys::is_label(label) {
            return Err(ctx.err(
                &at,
                format!("\"{label}\""),
                "a label of letters, digits, '-' and '_'",
            ));
        }
        let Some(t) = value.as_table() else {
            return Err(ctx.err(
                &at,
                value,
                "a table of a law's keys: law = ..., static = ...",
            ));
        };
        let l: LawToml = ctx.parse_at(&at, t.clone())?;
        if let Some(m) = &l.method {
            return Err(ctx.err(
                &format!("{at}.method"),
                format!("\"{m}\""),
                "no method: a friction-law study tabulates the coefficient, it integrates nothing",
            ));
        }
        let parsed = law(ctx, &at, &l)?;
        if matches!(parsed, FrictionSpec::LuGre(_)) {
            return Err(ctx.err(
                &format!("{at}.law"),
                "\"lugre\"",
                "a law without internal state (LuGre's force depends on its bristle state, not only on the speed)",
            ));
        }
        laws.push(Law {
            label: label.clone(),
            name: l.law.clone(),
            spec: parsed,
        });
    }
    let compare_at = match raw.compare_at {
        None => 1e-4,
        Some(v) if v.is_finite() && v > 0.0 => v,
        Some(v) => return Err(ctx.err("compare_at", v, "a speed > 0 [m/s]")),
    };
    let reference = match &raw.figure_reference {
        None => None,
        Some(path) => Some(figure_reference(ctx, path, &laws)?),
    };
    Ok(CaseConfig {
        speeds,
        methods: laws,
        compare_at,
        reference,
    })
}

/// Reads `figure_reference` (relative to the spec file): the column of
/// each law (its label, `-` read as `_`) against the first column.
fn figure_reference(ctx: &Ctx, path: &str, laws: &[Law]) -> Result<Vec<Curve>, InputError> {
    let file = ctx
        .file
        .parent()
        .unwrap_or(std::path::Path::new("."))
        .join(path);
    let columns: Vec<String> = laws.iter().map(|l| l.label.replace('-', "_")).collect();
    let allowed = format!(
        "a readable CSV whose first column is the speed [m/s] and which has the columns {}",
        columns.join(", ")
    );
    let table = crate::harness::reference::read_csv(&file).map_err(|e| {
        ctx.err(
            "figure_reference",
            format!("\"{path}\""),
            format!("{allowed}: {e}"),
        )
    })?;
    let v = table
        .abscissa()
        .map(|c| c.values.clone())
        .ok_or_else(|| ctx.err("figure_reference", format!("\"{path}\""), allowed.clone()))?;
    columns
        .iter()
        .map(|c| match table.values(c) {
            Some(f) => Ok((v.clone(), f.to_vec())),
            None => Err(ctx.err(
                "figure_reference",
                format!("\"{path}\" (no column `{c}`)"),
                allowed.clone(),
            )),
        })
        .collect()
}

/// (speed, f) of the largest f over the grid, the first such speed on a
/// tie: the series' own maximum (a maximiser between grid points is not
/// sought).
fn grid_peak(speeds: &[f64], f: &[f64]) -> (f64, f64) {
    speeds
        .iter()
        .zip(f)
        .fold((f64::NAN, f64::NEG_INFINITY), |best, (&v, &y)| {
            if y > best.1 { (v, y) } else { best }
        })
}

/// The figure's curves: each law solid, dashed over an earlier law it
/// coincides with somewhere on the grid (within 1e-9: tanh on constant,
/// ANSYS on micro-slip, so that both stay visible), and its reference
/// tabulation as markers of its colour.
/// Also returns, per law dashed over an earlier one, `law over earlier`.
fn figure_series(cfg: &CaseConfig, o: &CaseOutput) -> (Vec<Series>, Vec<String>) {
    let mut drawn: Vec<(String, Vec<f64>)> = Vec::new();
    let mut over = Vec::new();
    let mut series = Vec::new();
    for (k, m) in o.methods.iter().enumerate() {
        let Some(out) = m.output() else { continue };
        let (Some(v), Some(f)) = (out.series.values("v"), out.series.values("coefficient")) else {
            continue;
        };
        let coincides = drawn.iter().find(|(_, g)| {
            g.iter()
                .zip(f)
                .filter(|(a, b)| (*a - *b).abs() <= 1e-9)
                .count()
                >= 2
        });
        let style = if let Some((earlier, _)) = coincides {
            over.push(format!("{} over {earlier}", m.label()));
            Style::DashedOver
        } else {
            Style::Line
        };
        series.push(Series::new(m.label(), v, f, style).grouped(k));
        drawn.push((m.label().to_string(), f.to_vec()));
    }
    if let Some(reference) = &cfg.reference {
        for (k, (Law { label, .. }, (v, f))) in cfg.methods.iter().zip(reference).enumerate() {
            let pick = |x: &[f64]| -> Vec<f64> {
                x.iter().copied().step_by(REFERENCE_MARKER_EVERY).collect()
            };
            series.push(
                Series::new(
                    format!("{label} (NumPy reference)"),
                    &pick(v),
                    &pick(f),
                    Style::Markers,
                )
                .grouped(k),
            );
        }
    }
    (series, over)
}

impl CaseKind for CaseConfig {
    /// None: the laws are tabulated, not timed against each other.
    fn default_baseline(_study: &Cases<Self>) -> Option<String> {
        None
    }

    fn provides(_study: &Cases<Self>) -> Provides {
        Provides {
            study_scalars: Vec::new(),
            method_scalars: names(&["static", "peak", "peak_speed", "at_compare"]),
            case_scalars: Vec::new(),
            columns: names(&["v", "coefficient"]),
            tables: Vec::new(),
            methods: Vec::new(),
        }
    }

    fn run(&self, law: &Law, _progress: &Progress) -> Run<MethodOutput> {
        let cfg = self;
        let FrictionSpec::Memoryless(l) = &law.spec else {
            return Err(SolverError::other(
                law.label.clone(),
                "not a memoryless law",
            ));
        };
        let f: Vec<f64> = cfg.speeds.iter().map(|&v| l.coefficient(v)).collect();
        let (peak_speed, peak) = grid_peak(&cfg.speeds, &f);
        let stick = match l.class() {
            LawClass::SetValued { stick } => stick,
            LawClass::Regularized => 0.0,
        };
        Ok(MethodOutput {
            series: Table::new()
                .with("v", "relative (slip) speed [m/s]", cfg.speeds.clone())
                .with("coefficient", "friction coefficient f(v) [-]", f),
            scalars: vec![
                Scalar::new(
                    "static",
                    stick,
                    "the sticking bound f_stick [-]: mu_s of coulomb, f of constant, f(0) = mu_s of ansys and stribeck; 0 for a regularised law (f(0) = 0)",
                ),
                Scalar::new(
                    "peak",
                    peak,
                    "largest f over the requested speeds (the series' maximum) [-]",
                ),
                Scalar::new(
                    "peak_speed",
                    peak_speed,
                    "the first requested speed where f takes the value peak [m/s]",
                ),
                Scalar::new(
                    "at_compare",
                    l.coefficient(cfg.compare_at),
                    format!("f at compare_at = {} m/s [-]", cfg.compare_at),
                ),
            ],
            ..MethodOutput::default()
        })
    }

    fn summarize(study: &Cases<Self>, cases: &[CaseOutput]) -> StudySummary {
        let mut summary = StudySummary::default();
        let Some((cfg, o)) = study.cases.iter().zip(cases).next() else {
            return summary;
        };
        let (series, over) = figure_series(cfg, o);
        let laws = succeeded(o);
        let (from, to) = (
            cfg.speeds.first().copied().unwrap_or(0.0),
            cfg.speeds.last().copied().unwrap_or(0.0),
        );
        let range = format!("{} to {} mm/s", short(1e3 * from), short(1e3 * to));
        let dashed = if over.is_empty() {
            String::new()
        } else {
            format!(
                " A law that coincides with an earlier one over part of the range is dashed over it ({}), so both stay visible.",
                over.join(", ")
            )
        };
        summary.figures.push(Figure {
            name: "coefficients".into(),
            title: format!("Friction coefficient against relative speed, {range}"),
            x: Axis::linear("relative speed v_r [m/s]"),
            y: Axis::linear("friction coefficient f [-]"),
            series,
            caption: format!(
                "The seed's Fig. 4a (friction in contact joints) on {range}: the {} laws' coefficients ({}) at {} positive relative speeds (odd in v for negative ones), all constants read in one unit system (B = 0.5 s/mm, DC = d = 2 s/mm).{dashed}{}",
                count_word(laws.len()),
                laws.join(", "),
                cfg.speeds.len(),
                if cfg.reference.is_some() {
                    format!(" Markers: the independent NumPy tabulation the checks compare with (every {REFERENCE_MARKER_EVERY}th of its rows).")
                } else {
                    String::new()
                }
            ),
        });
        for m in &o.methods {
            let Some(out) = m.output() else { continue };
            if let (Some(p), Some(at)) = (out.scalar("peak"), out.scalar("at_compare")) {
                summary.notes.push(format!(
                    "{}: largest coefficient on the grid {p:.4} at {:.3e} m/s; at {:.0e} m/s the coefficient is {at:.4} ({:.1} % of its largest).",
                    m.label(),
                    out.scalar("peak_speed").unwrap_or(f64::NAN),
                    cfg.compare_at,
                    100.0 * at / p
                ));
            }
        }
        summary
    }
}
