//! The `gap-system` spec: TOML structs (unknown keys rejected) and their
//! validation into a typed [`CaseConfig`]. The keys are fixed (ARCHITECTURE.md, "Study specs");
//! keys beyond those are additions (`chain`, `steady_state`, `reference`,
//! `output_interval`, `variant`, `load`). Every key is documented in
//! experiments/README.md.

use std::path::Path;

use serde::Deserialize;

use crate::error::InputError;
use crate::integrators::newmark::Recording;
use crate::lcp::{LcpOptions, LcpSolverKind};
use crate::problem::GapSystem;
use crate::studies::gap_system::method::GapMethod;

mod memory;
mod system;

use system::{ExcitationToml, SystemToml, build_system, vector};

/// Largest system the event-driven reference accepts (dense expm of size 2n + 3).
pub const MAX_EXACT_DOFS: usize = 40;

/// Without `output_dofs`, a system with more DOFs than this writes
/// [`default_output_dofs`] and the envelope over all DOFs, not every DOF (a
/// 1e6-DOF state written every step would be terabytes).
pub const MAX_DEFAULT_OUTPUT_DOFS: usize = 64;

/// The default written DOFs of a large system: the first, the last and
/// the three at the quarters (n/4, n/2, 3n/4).
pub fn default_output_dofs(n: usize) -> Vec<usize> {
    let mut d: Vec<usize> = (0..4).map(|k| k * n / 4).collect();
    d.push(n - 1);
    d.dedup();
    d
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CaseToml {
    system: SystemToml,
    excitation: ExcitationToml,
    #[serde(default)]
    initial: Option<InitialToml>,
    integrator: IntegratorToml,
    #[serde(default)]
    steady_state: Option<SteadyStateToml>,
    #[serde(default)]
    reference: Option<ReferenceToml>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct InitialToml {
    #[serde(default)]
    x: Option<Vec<f64>>,
    #[serde(default)]
    v: Option<Vec<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct IntegratorToml {
    method: String,
    #[serde(default)]
    dt: Option<f64>,
    #[serde(default)]
    t_end: Option<f64>,
    #[serde(default)]
    alpha_b: f64,
    #[serde(default)]
    lcp_solver: Option<String>,
    #[serde(default)]
    lcp_tolerance: Option<f64>,
    #[serde(default)]
    lcp_max_iterations: Option<usize>,
    #[serde(default)]
    output_interval: Option<f64>,
    #[serde(default)]
    output_dofs: Option<Vec<usize>>,
    #[serde(default)]
    variant: Vec<VariantToml>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantToml {
    method: String,
    #[serde(default)]
    lcp_solver: Option<String>,
    #[serde(default)]
    lcp_tolerance: Option<f64>,
    #[serde(default)]
    lcp_max_iterations: Option<usize>,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    max_dofs: Option<usize>,
    #[serde(default)]
    max_steps: Option<usize>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SteadyStateToml {
    settle_periods: usize,
    measure_periods: usize,
    steps_per_period: usize,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReferenceToml {
    method: String,
    #[serde(default)]
    samples_per_period: Option<usize>,
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    same_scheme: Option<bool>,
}

/// One method run of a case: the primary (`integrator.method`) or a variant.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodConfig {
    /// Label: the table name (`<case>.<label>.csv`) and the timings.csv method.
    pub label: String,
    /// The integrator.
    pub method: GapMethod,
    /// LCP solver of each step.
    pub lcp_solver: LcpSolverKind,
    /// Its tolerance and iteration limit.
    pub lcp_options: LcpOptions,
    /// Skip this method when the system has more DOFs (variants only).
    pub max_dofs: Option<usize>,
    /// Skip this method when the case takes more time steps (variants
    /// only): an expensive method joins a step-size sweep at its coarse end.
    pub max_steps: Option<usize>,
}

impl MethodConfig {
    /// Whether the method runs on a system with `n` DOFs over `steps` steps.
    pub fn runs_at(&self, n: usize, steps: usize) -> bool {
        self.max_dofs.is_none_or(|m| n <= m) && self.max_steps.is_none_or(|m| steps <= m)
    }
}

/// Steady-state mode: integrate `settle_periods`, then measure over
/// `measure_periods`, with dt = 2 pi / (omega steps_per_period).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SteadyState {
    /// Periods before measuring.
    pub settle_periods: usize,
    /// Periods measured (and written to the case CSV).
    pub measure_periods: usize,
    /// Time steps per forcing period.
    pub steps_per_period: usize,
}

/// A validated case.
#[derive(Debug, Clone)]
pub struct CaseConfig {
    /// The system.
    pub system: GapSystem,
    /// Initial displacement.
    pub x0: Vec<f64>,
    /// Initial velocity.
    pub v0: Vec<f64>,
    /// Time step.
    pub dt: f64,
    /// Number of steps.
    pub steps: usize,
    /// Output every this many steps.
    pub output_every: usize,
    /// What a run records: the DOFs (and gap springs of the same indices)
    /// written to the CSVs, and whether the envelope over all DOFs is kept.
    pub recording: Recording,
    /// Bossak alpha_b.
    pub alpha_b: f64,
    /// Primary method first, then the variants.
    pub methods: Vec<MethodConfig>,
    /// Steady-state mode, if set.
    pub steady_state: Option<SteadyState>,
    /// Compute the exact event-driven reference.
    pub exact: bool,
    /// Samples per period of the event-driven reference (None: its default).
    pub exact_samples_per_period: Option<usize>,
    /// A reference trajectory file (`reference.method = "file"`): its path as
    /// written and its table (shared by the cases).
    pub reference_file: Option<(String, std::sync::Arc<crate::harness::table::Table>)>,
    /// `reference.same_scheme`: the file is a peer running the same
    /// discrete scheme at the same steps, so the differences measure
    /// agreement with it, not accuracy (`max_agreement_*` scalars instead
    /// of `max_error_*`).
    pub reference_same_scheme: bool,
}

pub(crate) use crate::studies::keys::KeyCtx as Ctx;

/// Parses and validates one case table.
pub(crate) fn parse_case(ctx: &Ctx, table: toml::Table) -> Result<CaseConfig, InputError> {
    let raw: CaseToml = ctx.parse(table)?;
    let system = build_system(ctx, &raw.system, &raw.excitation)?;
    let n = system.dofs();
    let (x0, v0) = match &raw.initial {
        None => (vec![0.0; n], vec![0.0; n]),
        Some(init) => (
            init.x
                .as_deref()
                .map(|x| vector(ctx, "initial.x", x, n))
                .transpose()?
                .unwrap_or_else(|| vec![0.0; n]),
            init.v
                .as_deref()
                .map(|v| vector(ctx, "initial.v", v, n))
                .transpose()?
                .unwrap_or_else(|| vec![0.0; n]),
        ),
    };
    let integ = &raw.integrator;
    let alpha_b = ctx.finite("integrator.alpha_b", integ.alpha_b)?;
    if !(-1.0 / 3.0..=0.0).contains(&alpha_b) {
        return Err(ctx.err(
            "integrator.alpha_b",
            alpha_b,
            "a number in [-1/3, 0] (0 = classic Newmark, average acceleration)",
        ));
    }
    let methods = methods(ctx, integ)?;
    refuse_oversized_dense(ctx, &methods, n, system.springs.len())?;
    let omega = system.excitation.omega;
    let (dt, steps, steady_state) = time_grid(ctx, integ, raw.steady_state.as_ref(), omega)?;
    let output_every = output_every(ctx, integ, (dt, steps), steady_state.is_some())?;
    let output_dofs = output_dofs(ctx, integ, n)?;
    let (exact, samples, reference_file, reference_same_scheme) =
        reference(ctx, raw.reference.as_ref(), n)?;
    Ok(CaseConfig {
        system,
        x0,
        v0,
        dt,
        steps,
        output_every,
        recording: Recording {
            envelope: output_dofs.as_ref().is_some_and(|d| d.len() < n),
            dofs: output_dofs,
        },
        alpha_b,
        methods,
        steady_state,
        exact,
        exact_samples_per_period: samples,
        reference_file,
        reference_same_scheme,
    })
}

/// The time grid: (dt, steps, the steady state): from
/// `[study.steady_state]` (dt = 2 pi / (omega steps_per_period)), else
/// from `integrator.dt` and `integrator.t_end`.
fn time_grid(
    ctx: &Ctx,
    integ: &IntegratorToml,
    steady: Option<&SteadyStateToml>,
    omega: f64,
) -> Result<(f64, usize, Option<SteadyState>), InputError> {
    Ok(match steady {
        Some(ss) => {
            if integ.dt.is_some() || integ.t_end.is_some() {
                return Err(ctx.missing(
                    if integ.dt.is_some() { "integrator.dt" } else { "integrator.t_end" },
                    "must not be given with [study.steady_state]: dt = 2 pi / (omega steps_per_period) and the duration follows from the periods",
                ));
            }
            if omega <= 0.0 {
                return Err(ctx.err(
                    "excitation.omega",
                    omega,
                    "> 0 in steady-state mode (the period is 2 pi / omega)",
                ));
            }
            if ss.settle_periods < 1 {
                return Err(ctx.err(
                    "steady_state.settle_periods",
                    ss.settle_periods,
                    "an integer >= 1",
                ));
            }
            if ss.measure_periods < 1 {
                return Err(ctx.err(
                    "steady_state.measure_periods",
                    ss.measure_periods,
                    "an integer >= 1",
                ));
            }
            if ss.steps_per_period < 8 {
                return Err(ctx.err(
                    "steady_state.steps_per_period",
                    ss.steps_per_period,
                    "an integer >= 8",
                ));
            }
            let dt = 2.0 * std::f64::consts::PI / (omega * ss.steps_per_period as f64);
            let steps = (ss.settle_periods + ss.measure_periods) * ss.steps_per_period;
            (
                dt,
                steps,
                Some(SteadyState {
                    settle_periods: ss.settle_periods,
                    measure_periods: ss.measure_periods,
                    steps_per_period: ss.steps_per_period,
                }),
            )
        }
        None => {
            let dt = ctx.positive(
                "integrator.dt",
                integ.dt.ok_or_else(|| {
                    ctx.missing(
                        "integrator.dt",
                        "missing: the time step [s], a finite number > 0",
                    )
                })?,
            )?;
            let t_end = ctx.finite(
                "integrator.t_end",
                integ.t_end.ok_or_else(|| {
                    ctx.missing("integrator.t_end", "missing: the final time [s], > dt")
                })?,
            )?;
            ctx.above(
                "integrator.t_end",
                t_end,
                dt,
                format!("a number > dt = {dt}"),
            )?;
            (dt, multiple_of(ctx, "integrator.t_end", t_end, dt)?, None)
        }
    })
}

/// Every how many steps an output is written (`integrator.output_interval`
/// a multiple of dt dividing t_end; none in steady-state mode).
fn output_every(
    ctx: &Ctx,
    integ: &IntegratorToml,
    (dt, steps): (f64, usize),
    steady: bool,
) -> Result<usize, InputError> {
    Ok(match integ.output_interval {
        None => 1,
        Some(_) if steady => {
            return Err(ctx.missing("integrator.output_interval", "must not be given with [study.steady_state] (every step of the measured periods is written)"));
        }
        Some(h) => {
            let h = ctx.positive("integrator.output_interval", h)?;
            if h < dt * (1.0 - 1e-9) {
                return Err(ctx.err(
                    "integrator.output_interval",
                    h,
                    format!("a multiple of dt = {dt} (>= dt)"),
                ));
            }
            let k = multiple_of(ctx, "integrator.output_interval", h, dt)?;
            if steps % k != 0 {
                return Err(ctx.err(
                    "integrator.output_interval",
                    h,
                    "a divisor of t_end (so that t_end is an output time)",
                ));
            }
            k
        }
    })
}

/// The DOFs written (None: all), sorted and unique.
fn output_dofs(
    ctx: &Ctx,
    integ: &IntegratorToml,
    n: usize,
) -> Result<Option<Vec<usize>>, InputError> {
    Ok(match &integ.output_dofs {
        None if n > MAX_DEFAULT_OUTPUT_DOFS => Some(default_output_dofs(n)),
        None => None,
        Some(list) => {
            if list.is_empty() {
                return Err(ctx.err(
                    "integrator.output_dofs",
                    "[]",
                    "a non-empty list of DOF indices",
                ));
            }
            if let Some(bad) = list.iter().find(|&&i| i >= n) {
                return Err(ctx.err(
                    "integrator.output_dofs",
                    bad,
                    format!("DOF indices in 0..{n}"),
                ));
            }
            let mut sorted = list.clone();
            sorted.sort_unstable();
            sorted.dedup();
            Some(sorted)
        }
    })
}

/// A reference file: its name and table.
type ReferenceFile = (String, std::sync::Arc<crate::harness::table::Table>);

/// `[study.reference]`: (exact event-driven reference, its samples per
/// period, a reference file, whether the file is of the same scheme).
fn reference(
    ctx: &Ctx,
    reference: Option<&ReferenceToml>,
    n: usize,
) -> Result<(bool, Option<usize>, Option<ReferenceFile>, bool), InputError> {
    let mut reference_file = None;
    let reference_same_scheme = reference.and_then(|r| r.same_scheme).unwrap_or(false);
    if let Some(r) = reference {
        if r.same_scheme.is_some() && r.method != "file" {
            return Err(ctx.err(
                "reference.same_scheme",
                r.same_scheme.unwrap_or(false),
                "only with reference.method = \"file\"",
            ));
        }
        if r.file.is_some() != (r.method == "file") {
            return Err(ctx.missing("reference.file", "a trajectory CSV (path relative to the spec file) exactly when reference.method = \"file\""));
        }
        if let Some(f) = &r.file {
            let path = ctx.file.parent().unwrap_or(Path::new(".")).join(f);
            let table = crate::harness::reference::read_csv(&path)
                .map_err(|m| ctx.err("reference.file", format!("\"{f}\""), m))?;
            if table.abscissa().is_none_or(|c| c.name != "t") || table.matching("x*").is_empty() {
                return Err(ctx.err(
                    "reference.file",
                    format!("\"{f}\""),
                    "a CSV whose first column is `t` with some `x<i>` columns",
                ));
            }
            if let Some(bad) = table
                .matching("x*")
                .iter()
                .chain(table.matching("v*").iter())
                .find(|c| c[1..].parse::<usize>().is_ok_and(|i| i >= n))
            {
                return Err(ctx.err(
                    "reference.file",
                    format!("\"{f}\""),
                    format!("column `{bad}` names a DOF beyond n = {n}"),
                ));
            }
            reference_file = Some((f.clone(), std::sync::Arc::new(table)));
        }
    }
    let (exact, samples) = match reference {
        None => (n <= MAX_EXACT_DOFS, None),
        Some(r) => match r.method.as_str() {
            "none" | "file" => (false, None),
            "event-driven" => {
                if n > MAX_EXACT_DOFS {
                    return Err(ctx.err("reference.method", "\"event-driven\"", format!("\"none\" for n = {n} > {MAX_EXACT_DOFS} DOFs (the exact solver uses dense matrix exponentials)")));
                }
                if let Some(s) = r.samples_per_period
                    && s < 8
                {
                    return Err(ctx.err("reference.samples_per_period", s, "an integer >= 8"));
                }
                (true, r.samples_per_period)
            }
            other => {
                return Err(ctx.err(
                    "reference.method",
                    format!("\"{other}\""),
                    "\"event-driven\", \"file\" or \"none\"",
                ));
            }
        },
    };
    Ok((exact, samples, reference_file, reference_same_scheme))
}

/// `value / dt` as an integer, or an error when it is not one (to 1e-9).
fn multiple_of(ctx: &Ctx, key: &str, value: f64, dt: f64) -> Result<usize, InputError> {
    let k = (value / dt).round();
    if k < 1.0 || ((value / dt) - k).abs() > 1e-9 * k.max(1.0) || k > 1e12 {
        return Err(ctx.err(key, value, format!("an integer multiple of dt = {dt}")));
    }
    Ok(k as usize)
}

fn lcp_solver(ctx: &Ctx, key: &str, name: Option<&str>) -> Result<LcpSolverKind, InputError> {
    let name = name.unwrap_or("lemke");
    LcpSolverKind::from_name(name).ok_or_else(|| {
        ctx.err(
            key,
            format!("\"{name}\""),
            format!("one of {}", LcpSolverKind::allowed_names()),
        )
    })
}

fn method_name(ctx: &Ctx, key: &str, name: &str) -> Result<GapMethod, InputError> {
    GapMethod::parse(name).ok_or_else(|| {
        ctx.err(
            key,
            format!("\"{name}\""),
            crate::studies::keys::one_of(&GapMethod::names()),
        )
    })
}

/// A dense method whose matrices would not fit the machine is bad input:
/// exit 2 with the memory it would need, before anything allocates.
fn refuse_oversized_dense(
    ctx: &Ctx,
    methods: &[MethodConfig],
    n: usize,
    m: usize,
) -> Result<(), InputError> {
    let need = memory::dense_lcp_bytes(n, m);
    let have = memory::machine_bytes().unwrap_or(memory::FALLBACK_LIMIT);
    for (i, method) in methods.iter().enumerate() {
        if !method.method.is_dense() || method.max_dofs.is_some_and(|m| n > m) || need <= have {
            continue;
        }
        let key = if i == 0 {
            "integrator.method".to_string()
        } else {
            format!("integrator.variant[{}].method", i - 1)
        };
        return Err(ctx.err(
            &key,
            format!("\"{}\"", method.method.name()),
            format!(
                "a method that fits this machine: the dense LCP step for n = {n} DOFs and m = {m} gap springs needs about {} \
                 (8 bytes x (2 n^2 + 4 n m + 2 m^2): K_eff and its LU, D, D^T, K_eff^-1 D^T, the LCP matrix and the solver's workspace), \
                 this machine has {}; use \"newmark-ssn\" (sparse, O(n) memory){}",
                memory::human(need),
                memory::human(have),
                if i == 0 { "" } else { ", or `max_dofs` on the variant" }
            ),
        ));
    }
    Ok(())
}

/// The LCP solver's tolerance (default 1e-12) and iteration limit (default:
/// the solver's own).
fn lcp_options(
    ctx: &Ctx,
    at: &str,
    tolerance: Option<f64>,
    max_iterations: Option<usize>,
) -> Result<LcpOptions, InputError> {
    let mut options = LcpOptions::default();
    if let Some(t) = tolerance {
        if !(t.is_finite() && t > 0.0 && t < 1.0) {
            return Err(ctx.err(
                &format!("{at}.lcp_tolerance"),
                t,
                "a number in (0, 1): the LCP residual that counts as solved",
            ));
        }
        options.tolerance = t;
    }
    if let Some(k) = max_iterations {
        if k == 0 {
            return Err(ctx.err(
                &format!("{at}.lcp_max_iterations"),
                k,
                "an integer >= 1 (pivots, sweeps or Newton steps per LCP)",
            ));
        }
        options.max_iterations = Some(k);
    }
    Ok(options)
}

fn methods(ctx: &Ctx, integ: &IntegratorToml) -> Result<Vec<MethodConfig>, InputError> {
    let primary = MethodConfig {
        label: integ.method.clone(),
        method: method_name(ctx, "integrator.method", &integ.method)?,
        lcp_solver: lcp_solver(ctx, "integrator.lcp_solver", integ.lcp_solver.as_deref())?,
        lcp_options: lcp_options(
            ctx,
            "integrator",
            integ.lcp_tolerance,
            integ.lcp_max_iterations,
        )?,
        max_dofs: None,
        max_steps: None,
    };
    let mut all = vec![primary];
    for (i, v) in integ.variant.iter().enumerate() {
        let key = |k: &str| format!("integrator.variant[{i}].{k}");
        let method = method_name(ctx, &key("method"), &v.method)?;
        let solver = lcp_solver(ctx, &key("lcp_solver"), v.lcp_solver.as_deref())?;
        let label = v.label.clone().unwrap_or_else(|| {
            if method.is_dense() {
                format!("{}-{}", method.name(), solver.name())
            } else {
                method.name().to_string()
            }
        });
        if !crate::studies::keys::is_label(&label) || label == "exact" {
            return Err(ctx.err(
                &key("label"),
                format!("\"{label}\""),
                "letters, digits, '-' and '_' (it names <case>.<label>.csv); not \"exact\"",
            ));
        }
        if all.iter().any(|m| m.label == label) {
            return Err(ctx.err(
                &key("label"),
                format!("\"{label}\""),
                "a label different from the primary method and the other variants",
            ));
        }
        if v.max_dofs == Some(0) {
            return Err(ctx.err(
                &key("max_dofs"),
                0,
                "an integer >= 1 (the variant is skipped for larger systems)",
            ));
        }
        if v.max_steps == Some(0) {
            return Err(ctx.err(
                &key("max_steps"),
                0,
                "an integer >= 1 (the variant is skipped for cases with more time steps)",
            ));
        }
        all.push(MethodConfig {
            label,
            method,
            lcp_solver: solver,
            lcp_options: lcp_options(
                ctx,
                &format!("integrator.variant[{i}]"),
                v.lcp_tolerance.or(integ.lcp_tolerance),
                v.lcp_max_iterations.or(integ.lcp_max_iterations),
            )?,
            max_dofs: v.max_dofs,
            max_steps: v.max_steps,
        });
    }
    Ok(all)
}
