//! The keys of a gap-system study with `[study.continuation]`: the range
//! (`omega_from`, `omega_to`, fixed by ARCHITECTURE.md) and the kind's own
//! settings of the continuation, the Newmark sweeps and the finite-difference
//! check. The rest of the case (system, excitation amplitude, integrator,
//! `[study.steady_state]`) is parsed as for any gap-system study; every key
//! is documented in experiments/README.md.

use serde::Deserialize;

use crate::error::InputError;
use crate::harness::spec::StudySpec;
use crate::integrators::event_driven::continuation::ContinuationOptions;
use crate::studies::gap_system::spec::{CaseConfig, Ctx, MethodConfig, parse_case};

/// `[study.continuation]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ContinuationToml {
    omega_from: f64,
    omega_to: f64,
    #[serde(default)]
    sweep_points: Option<usize>,
    #[serde(default)]
    refine_jumps: Option<usize>,
    #[serde(default)]
    refine_settle_periods: Option<usize>,
    #[serde(default)]
    jump_ratio: Option<f64>,
    #[serde(default)]
    settle_tol: Option<f64>,
    #[serde(default)]
    max_settle_periods: Option<usize>,
    #[serde(default)]
    ds: Option<f64>,
    #[serde(default)]
    ds_max: Option<f64>,
    #[serde(default)]
    chord_tol: Option<f64>,
    #[serde(default)]
    max_points: Option<usize>,
    #[serde(default)]
    start_settle_periods: Option<usize>,
    #[serde(default)]
    fd_step: Option<f64>,
}

/// Defaults of the `[study.steady_state]` keys when a continuation study
/// has no such table (settling periods at each sweep frequency, measured
/// periods, time steps per forcing period).
pub const DEFAULT_STEADY_STATE: (usize, usize, usize) = (100, 2, 400);

/// The Newmark sweeps' settings.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepSettings {
    /// Frequencies of the coarse grid (omega_from to omega_to, inclusive).
    pub points: usize,
    /// Halvings of the step near a jump.
    pub refine_jumps: usize,
    /// Least settling periods at a point of a halved step.
    pub refine_settle_periods: usize,
    /// Consecutive amplitudes differing by more than this factor are a jump.
    pub jump_ratio: f64,
    /// A point has settled when its period-end state changes by at most
    /// this fraction of its size over one period.
    pub settle_tol: f64,
    /// Most settling periods at one frequency.
    pub max_settle_periods: usize,
}

/// A validated continuation study (one case).
#[derive(Debug, Clone)]
pub struct ContinuationConfig {
    /// The case (system, integrator, steady-state settings).
    pub case: CaseConfig,
    /// The sweeps' method (the case's primary method).
    pub method: MethodConfig,
    /// The continuation's settings.
    pub continuation: ContinuationOptions,
    /// The sweeps'.
    pub sweep: SweepSettings,
    /// Relative step of the central differences of the multiplier check.
    pub fd_step: f64,
}

/// Whether the study asks for a continuation.
pub fn requested(spec: &StudySpec) -> bool {
    spec.cases
        .first()
        .is_some_and(|c| c.table.contains_key("continuation"))
}

fn count(
    ctx: &Ctx,
    key: &str,
    v: Option<usize>,
    default: usize,
    min: usize,
    max: usize,
) -> Result<usize, InputError> {
    let v = v.unwrap_or(default);
    if !(min..=max).contains(&v) {
        return Err(ctx.err(key, v, format!("an integer in [{min}, {max}]")));
    }
    Ok(v)
}

fn number(
    ctx: &Ctx,
    key: &str,
    v: Option<f64>,
    default: f64,
    lo: f64,
    hi: f64,
) -> Result<f64, InputError> {
    let v = v.unwrap_or(default);
    if !(v.is_finite() && v > lo && v < hi) {
        return Err(ctx.err(key, v, format!("a number in ({lo}, {hi})")));
    }
    Ok(v)
}

/// Parses the study's one case.
pub fn parse(spec: &StudySpec) -> Result<ContinuationConfig, InputError> {
    let ctx = Ctx {
        file: &spec.file,
        study: &spec.name,
    };
    if let Some(s) = spec.sweeps.first() {
        return Err(ctx.err(
            "sweep",
            format!("a sweep over `{}`", s.key),
            "no [[study.sweep]] with [study.continuation]: the continuation covers omega_from..omega_to itself (one study per parameter set)",
        ));
    }
    let mut table = spec.cases[0].table.clone();
    let raw = table
        .remove("continuation")
        .ok_or_else(|| ctx.missing("continuation", "the [study.continuation] table"))?;
    let toml::Value::Table(raw) = raw else {
        return Err(ctx.err("continuation", raw, "a table: [study.continuation]"));
    };
    let c: ContinuationToml = ctx.parse_at("continuation", raw)?;
    let from = ctx.positive("continuation.omega_from", c.omega_from)?;
    let to = ctx.finite("continuation.omega_to", c.omega_to)?;
    ctx.above(
        "continuation.omega_to",
        to,
        from,
        format!("a frequency [rad/s] above omega_from = {from}"),
    )?;
    let case = continuation_case(&ctx, table, from)?;
    let continuation = continuation_options(&ctx, &c, from, to)?;
    let sweep = sweep_settings(&ctx, &c)?;
    let least = sweep
        .refine_settle_periods
        .max(case.steady_state.map_or(0, |s| s.settle_periods));
    if sweep.max_settle_periods < least {
        return Err(ctx.err(
            "continuation.max_settle_periods",
            sweep.max_settle_periods,
            format!("at least the settling periods asked for ({least}: steady_state.settle_periods and continuation.refine_settle_periods)"),
        ));
    }
    let fd_step = number(&ctx, "continuation.fd_step", c.fd_step, 1e-6, 1e-12, 1e-2)?;
    let method = case.methods[0].clone();
    Ok(ContinuationConfig {
        case,
        method,
        continuation,
        sweep,
        fd_step,
    })
}

/// The case the continuation starts from: `excitation.omega` set to
/// omega_from, the default steady state when none is given, one method, at
/// most [`MAX_EXACT_DOFS`](crate::studies::gap_system::spec::MAX_EXACT_DOFS)
/// DOFs and a nonzero forcing.
fn continuation_case(
    ctx: &Ctx,
    mut table: toml::Table,
    from: f64,
) -> Result<CaseConfig, InputError> {
    // excitation.omega is set by the continuation: given or not, it is omega_from
    if let Some(toml::Value::Table(exc)) = table.get_mut("excitation") {
        exc.insert("omega".into(), toml::Value::Float(from));
    }
    if !table.contains_key("steady_state") {
        let (settle, measure, steps) = DEFAULT_STEADY_STATE;
        let mut ss = toml::Table::new();
        ss.insert("settle_periods".into(), toml::Value::Integer(settle as i64));
        ss.insert(
            "measure_periods".into(),
            toml::Value::Integer(measure as i64),
        );
        ss.insert(
            "steps_per_period".into(),
            toml::Value::Integer(steps as i64),
        );
        table.insert("steady_state".into(), toml::Value::Table(ss));
    }
    let case = parse_case(ctx, table)?;
    if case.methods.len() > 1 {
        return Err(ctx.err(
            "integrator.variant",
            format!("{} variants", case.methods.len() - 1),
            "no variants with [study.continuation]: the sweeps run the primary method",
        ));
    }
    if case.system.dofs() > crate::studies::gap_system::spec::MAX_EXACT_DOFS {
        return Err(ctx.err(
            "system",
            format!("{} DOFs", case.system.dofs()),
            format!(
                "at most {} DOFs with [study.continuation] (the exact solver uses dense matrix exponentials)",
                crate::studies::gap_system::spec::MAX_EXACT_DOFS
            ),
        ));
    }
    if case.system.excitation.amplitude.iter().all(|a| *a == 0.0) {
        return Err(ctx.err(
            "excitation.amplitude",
            "all zero",
            "a nonzero forcing amplitude: an unforced system has no frequency response to continue",
        ));
    }
    Ok(case)
}

/// The continuation's options from `[study.continuation]`, each bounded,
/// [`ContinuationOptions::default`] where absent (ds no larger than ds_max).
fn continuation_options(
    ctx: &Ctx,
    c: &ContinuationToml,
    from: f64,
    to: f64,
) -> Result<ContinuationOptions, InputError> {
    let defaults = ContinuationOptions::default();
    let ds_max = number(
        ctx,
        "continuation.ds_max",
        c.ds_max,
        defaults.ds_max,
        0.0,
        1.0,
    )?;
    Ok(ContinuationOptions {
        omega_from: from,
        omega_to: to,
        ds: number(
            ctx,
            "continuation.ds",
            c.ds,
            defaults.ds.min(ds_max),
            0.0,
            1.0,
        )?,
        ds_max,
        chord_tol: number(
            ctx,
            "continuation.chord_tol",
            c.chord_tol,
            defaults.chord_tol,
            1e-9,
            0.1,
        )?,
        max_points: count(
            ctx,
            "continuation.max_points",
            c.max_points,
            defaults.max_points,
            10,
            1_000_000,
        )?,
        start_settle_periods: count(
            ctx,
            "continuation.start_settle_periods",
            c.start_settle_periods,
            defaults.start_settle_periods,
            0,
            100_000,
        )?,
        ..defaults
    })
}

/// The brute-force sweeps' settings from `[study.continuation]`, each
/// bounded, with its documented default where absent.
fn sweep_settings(ctx: &Ctx, c: &ContinuationToml) -> Result<SweepSettings, InputError> {
    Ok(SweepSettings {
        points: count(
            ctx,
            "continuation.sweep_points",
            c.sweep_points,
            41,
            2,
            100_000,
        )?,
        refine_jumps: count(ctx, "continuation.refine_jumps", c.refine_jumps, 5, 0, 40)?,
        refine_settle_periods: count(
            ctx,
            "continuation.refine_settle_periods",
            c.refine_settle_periods,
            300,
            1,
            1_000_000,
        )?,
        jump_ratio: number(ctx, "continuation.jump_ratio", c.jump_ratio, 1.5, 1.0, 1e6)?,
        settle_tol: number(ctx, "continuation.settle_tol", c.settle_tol, 1e-8, 0.0, 1.0)?,
        max_settle_periods: count(
            ctx,
            "continuation.max_settle_periods",
            c.max_settle_periods,
            4000,
            1,
            10_000_000,
        )?,
    })
}
