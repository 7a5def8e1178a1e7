//! The `gap-system` spec: TOML structs (unknown keys rejected) and their
//! validation into a typed [`CaseConfig`]. The keys are fixed by DESIGN.md;
//! keys beyond those are additions (`chain`, `steady_state`, `reference`,
//! `output_interval`, `variant`, `load`). Every key is documented in
//! experiments/README.md.

use std::path::Path;

use serde::Deserialize;
use sprs::TriMat;

use crate::error::InputError;
use crate::lcp::LcpSolverKind;
use crate::models::gap_system::{Chain, GapSprings, GapSystem, Harmonic, csr_from_rows, to_dense};

/// Integration methods of this kind.
pub const METHODS: [&str; 2] = ["newmark-lcp", "newmark-ssn"];

/// Largest system the event-driven reference accepts (dense expm of size 2n + 3).
pub const MAX_EXACT_DOFS: usize = 40;

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
struct SystemToml {
    #[serde(default)]
    mass: Option<Vec<Vec<f64>>>,
    #[serde(default)]
    damping: Option<Vec<Vec<f64>>>,
    #[serde(default)]
    stiffness: Option<Vec<Vec<f64>>>,
    #[serde(default)]
    gaps: Vec<GapToml>,
    #[serde(default)]
    chain: Option<ChainToml>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GapToml {
    direction: Vec<f64>,
    gap: f64,
    stiffness: f64,
}

/// `[study.system.chain]`: n equal masses in a line, mass 0 tied to the wall,
/// one gap spring from every mass to ground.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChainToml {
    n: usize,
    mass: f64,
    spring: f64,
    #[serde(default)]
    damper: f64,
    gap_stiffness: f64,
    gaps: Vec<f64>,
    sides: Vec<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExcitationToml {
    #[serde(default)]
    amplitude: Option<toml::Value>,
    #[serde(default)]
    load: Vec<LoadToml>,
    omega: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LoadToml {
    dof: usize,
    amplitude: f64,
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
    label: Option<String>,
    #[serde(default)]
    max_dofs: Option<usize>,
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
}

/// One method run of a case: the primary (`integrator.method`) or a variant.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodConfig {
    /// Label: the table name (`<case>.<label>.csv`) and the timings.csv method.
    pub label: String,
    /// Method name (one of [`METHODS`]).
    pub method: String,
    /// LCP solver of each step.
    pub lcp_solver: LcpSolverKind,
    /// Skip this method when the system has more DOFs (variants only).
    pub max_dofs: Option<usize>,
}

impl MethodConfig {
    /// Whether the method runs on a system with `n` DOFs.
    pub fn runs_at(&self, n: usize) -> bool {
        self.max_dofs.is_none_or(|m| n <= m)
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
    /// DOFs (and gap springs) written to the CSVs; None: all.
    pub output_dofs: Option<Vec<usize>>,
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
}

/// Validation context: file and study for error messages.
pub(crate) struct Ctx<'a> {
    pub file: &'a Path,
    pub study: &'a str,
}

impl Ctx<'_> {
    fn err(
        &self,
        key: &str,
        value: impl std::fmt::Display,
        expected: impl Into<String>,
    ) -> InputError {
        InputError::value(
            self.file,
            self.study,
            format!("study.{key}"),
            value,
            expected,
        )
    }
    fn missing(&self, key: &str, expected: impl Into<String>) -> InputError {
        InputError::Key {
            file: self.file.to_path_buf(),
            study: Some(self.study.to_string()),
            key: format!("study.{key}"),
            value: None,
            expected: expected.into(),
        }
    }
}

fn finite(ctx: &Ctx, key: &str, v: f64) -> Result<f64, InputError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(ctx.err(key, v, "a finite number"))
    }
}

fn positive(ctx: &Ctx, key: &str, v: f64) -> Result<f64, InputError> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(ctx.err(key, v, "a finite number > 0"))
    }
}

fn vector(ctx: &Ctx, key: &str, v: &[f64], n: usize) -> Result<Vec<f64>, InputError> {
    if v.len() != n {
        return Err(ctx.err(
            key,
            format!("{v:?}"),
            format!("an array of {n} numbers (one per DOF)"),
        ));
    }
    for (i, x) in v.iter().enumerate() {
        finite(ctx, &format!("{key}[{i}]"), *x)?;
    }
    Ok(v.to_vec())
}

fn square(
    ctx: &Ctx,
    key: &str,
    rows: &[Vec<f64>],
    n: Option<usize>,
) -> Result<Vec<Vec<f64>>, InputError> {
    let size = n.unwrap_or(rows.len());
    let ok = rows.len() == size && size > 0 && rows.iter().all(|r| r.len() == size);
    if !ok {
        return Err(ctx.err(
            key,
            format!(
                "{} rows of lengths {:?}",
                rows.len(),
                rows.iter().map(Vec::len).collect::<Vec<_>>()
            ),
            format!(
                "a square {0} x {0} matrix as nested arrays (row-major){1}",
                if size == 0 { 1 } else { size },
                n.map(|_| ", the size of `mass`").unwrap_or("")
            ),
        ));
    }
    for (i, r) in rows.iter().enumerate() {
        for (j, v) in r.iter().enumerate() {
            finite(ctx, &format!("{key}[{i}][{j}]"), *v)?;
        }
    }
    Ok(rows.to_vec())
}

/// Parses and validates one case table.
pub(crate) fn parse_case(ctx: &Ctx, table: toml::Table) -> Result<CaseConfig, InputError> {
    let raw: CaseToml = crate::harness::spec::deserialize_at(
        ctx.file,
        Some(ctx.study),
        "study",
        toml::Value::Table(table),
    )?;
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
    let alpha_b = finite(ctx, "integrator.alpha_b", integ.alpha_b)?;
    if !(-1.0 / 3.0..=0.0).contains(&alpha_b) {
        return Err(ctx.err(
            "integrator.alpha_b",
            alpha_b,
            "a number in [-1/3, 0] (0 = classic Newmark, average acceleration)",
        ));
    }
    let methods = methods(ctx, integ)?;
    let omega = system.excitation.omega;
    let (dt, steps, steady_state) = match &raw.steady_state {
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
            let dt = positive(
                ctx,
                "integrator.dt",
                integ.dt.ok_or_else(|| {
                    ctx.missing(
                        "integrator.dt",
                        "missing: the time step [s], a finite number > 0",
                    )
                })?,
            )?;
            let t_end = finite(
                ctx,
                "integrator.t_end",
                integ.t_end.ok_or_else(|| {
                    ctx.missing("integrator.t_end", "missing: the final time [s], > dt")
                })?,
            )?;
            if t_end <= dt {
                return Err(ctx.err("integrator.t_end", t_end, format!("a number > dt = {dt}")));
            }
            (dt, multiple_of(ctx, "integrator.t_end", t_end, dt)?, None)
        }
    };
    let output_every = match integ.output_interval {
        None => 1,
        Some(_) if steady_state.is_some() => {
            return Err(ctx.missing("integrator.output_interval", "must not be given with [study.steady_state] (every step of the measured periods is written)"));
        }
        Some(h) => {
            let h = positive(ctx, "integrator.output_interval", h)?;
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
    };
    let output_dofs = match &integ.output_dofs {
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
    };
    let mut reference_file = None;
    if let Some(r) = &raw.reference {
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
    let (exact, samples) = match &raw.reference {
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
    Ok(CaseConfig {
        system,
        x0,
        v0,
        dt,
        steps,
        output_every,
        output_dofs,
        alpha_b,
        methods,
        steady_state,
        exact,
        exact_samples_per_period: samples,
        reference_file,
    })
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

fn method_name(ctx: &Ctx, key: &str, name: &str) -> Result<String, InputError> {
    if METHODS.contains(&name) {
        Ok(name.to_string())
    } else {
        Err(ctx.err(
            key,
            format!("\"{name}\""),
            format!("one of {}", METHODS.map(|m| format!("\"{m}\"")).join(", ")),
        ))
    }
}

fn methods(ctx: &Ctx, integ: &IntegratorToml) -> Result<Vec<MethodConfig>, InputError> {
    let primary = MethodConfig {
        label: method_name(ctx, "integrator.method", &integ.method)?,
        method: integ.method.clone(),
        lcp_solver: lcp_solver(ctx, "integrator.lcp_solver", integ.lcp_solver.as_deref())?,
        max_dofs: None,
    };
    let mut all = vec![primary];
    for (i, v) in integ.variant.iter().enumerate() {
        let key = |k: &str| format!("integrator.variant[{i}].{k}");
        let method = method_name(ctx, &key("method"), &v.method)?;
        let solver = lcp_solver(ctx, &key("lcp_solver"), v.lcp_solver.as_deref())?;
        let label = v.label.clone().unwrap_or_else(|| {
            if method == "newmark-lcp" {
                format!("{method}-{}", solver.name())
            } else {
                method.clone()
            }
        });
        let valid = !label.is_empty()
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !valid || ["exact"].contains(&label.as_str()) {
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
        all.push(MethodConfig {
            label,
            method,
            lcp_solver: solver,
            max_dofs: v.max_dofs,
        });
    }
    Ok(all)
}

fn build_system(
    ctx: &Ctx,
    sys: &SystemToml,
    exc: &ExcitationToml,
) -> Result<GapSystem, InputError> {
    let explicit = sys.mass.is_some()
        || sys.damping.is_some()
        || sys.stiffness.is_some()
        || !sys.gaps.is_empty();
    let (mass, damping, stiffness, springs) = match (&sys.chain, explicit) {
        (Some(_), true) => {
            return Err(ctx.missing(
                "system.chain",
                "either [study.system.chain] or explicit mass/damping/stiffness/gaps, not both",
            ));
        }
        (Some(chain), false) => build_chain(ctx, chain)?,
        (None, _) => {
            let m = square(
                ctx,
                "system.mass",
                sys.mass.as_deref().ok_or_else(|| {
                    ctx.missing(
                        "system.mass",
                        "missing: the n x n mass matrix (or a [study.system.chain])",
                    )
                })?,
                None,
            )?;
            let n = m.len();
            let c = square(
                ctx,
                "system.damping",
                sys.damping.as_deref().ok_or_else(|| {
                    ctx.missing("system.damping", "missing: the n x n damping matrix")
                })?,
                Some(n),
            )?;
            let k = square(
                ctx,
                "system.stiffness",
                sys.stiffness.as_deref().ok_or_else(|| {
                    ctx.missing("system.stiffness", "missing: the n x n stiffness matrix")
                })?,
                Some(n),
            )?;
            let mut tri = TriMat::new((sys.gaps.len(), n));
            let (mut gaps, mut kg) = (Vec::new(), Vec::new());
            for (j, g) in sys.gaps.iter().enumerate() {
                let d = vector(ctx, &format!("system.gaps[{j}].direction"), &g.direction, n)?;
                if d.iter().all(|v| *v == 0.0) {
                    return Err(ctx.err(
                        &format!("system.gaps[{j}].direction"),
                        format!("{d:?}"),
                        "a nonzero vector d_j",
                    ));
                }
                for (i, v) in d.iter().enumerate() {
                    if *v != 0.0 {
                        tri.add_triplet(j, i, *v);
                    }
                }
                gaps.push(finite(ctx, &format!("system.gaps[{j}].gap"), g.gap)?);
                kg.push(positive(
                    ctx,
                    &format!("system.gaps[{j}].stiffness"),
                    g.stiffness,
                )?);
            }
            let springs = GapSprings {
                directions: tri.to_csr(),
                gaps,
                stiffness: kg,
            };
            (
                csr_from_rows(&m),
                csr_from_rows(&c),
                csr_from_rows(&k),
                springs,
            )
        }
    };
    let n = mass.rows();
    check_spd(ctx, &mass)?;
    let omega = exc.omega;
    if !(omega.is_finite() && omega >= 0.0) {
        return Err(ctx.err("excitation.omega", omega, "a finite number >= 0 [rad/s]"));
    }
    let mut amplitude = match &exc.amplitude {
        None => vec![0.0; n],
        Some(toml::Value::Float(_) | toml::Value::Integer(_)) => {
            let a = exc
                .amplitude
                .as_ref()
                .and_then(value_f64)
                .unwrap_or(f64::NAN);
            vec![finite(ctx, "excitation.amplitude", a)?; n]
        }
        Some(toml::Value::Array(items)) => {
            let vals: Option<Vec<f64>> = items.iter().map(value_f64).collect();
            let vals = vals.ok_or_else(|| {
                ctx.err(
                    "excitation.amplitude",
                    toml::Value::Array(items.clone()),
                    "numbers",
                )
            })?;
            vector(ctx, "excitation.amplitude", &vals, n)?
        }
        Some(other) => {
            return Err(ctx.err(
                "excitation.amplitude",
                other,
                format!("an array of {n} numbers, or one number applied to every DOF"),
            ));
        }
    };
    if exc.amplitude.is_none() && exc.load.is_empty() {
        return Err(ctx.missing("excitation.amplitude", format!("missing: an array of {n} numbers (F), one number for every DOF, or [[study.excitation.load]] tables")));
    }
    for (i, load) in exc.load.iter().enumerate() {
        if load.dof >= n {
            return Err(ctx.err(
                &format!("excitation.load[{i}].dof"),
                load.dof,
                format!("a DOF index in 0..{n}"),
            ));
        }
        amplitude[load.dof] += finite(
            ctx,
            &format!("excitation.load[{i}].amplitude"),
            load.amplitude,
        )?;
    }
    Ok(GapSystem {
        mass,
        damping,
        stiffness,
        springs,
        excitation: Harmonic { amplitude, omega },
    })
}

fn value_f64(v: &toml::Value) -> Option<f64> {
    match v {
        toml::Value::Float(f) => Some(*f),
        toml::Value::Integer(i) => Some(*i as f64),
        _ => None,
    }
}

type Matrices = (
    sprs::CsMat<f64>,
    sprs::CsMat<f64>,
    sprs::CsMat<f64>,
    GapSprings,
);

/// The chain: masses m, springs k between neighbours and from mass 0 to the
/// wall (dashpots c parallel to them); gap spring j acts on mass j along
/// side s_j = sides[j mod len] with gap g_j = gaps[j mod len].
fn build_chain(ctx: &Ctx, c: &ChainToml) -> Result<Matrices, InputError> {
    if c.n < 1 || c.n > 10_000_000 {
        return Err(ctx.err("system.chain.n", c.n, "an integer in 1..=10000000"));
    }
    let m = positive(ctx, "system.chain.mass", c.mass)?;
    let k = positive(ctx, "system.chain.spring", c.spring)?;
    let d = finite(ctx, "system.chain.damper", c.damper)?;
    if d < 0.0 {
        return Err(ctx.err("system.chain.damper", d, "a finite number >= 0"));
    }
    let kg = positive(ctx, "system.chain.gap_stiffness", c.gap_stiffness)?;
    if c.gaps.is_empty() {
        return Err(ctx.err(
            "system.chain.gaps",
            "[]",
            "a non-empty array of gaps [m], repeated along the chain",
        ));
    }
    for (i, g) in c.gaps.iter().enumerate() {
        finite(ctx, &format!("system.chain.gaps[{i}]"), *g)?;
    }
    if c.sides.is_empty() || c.sides.iter().any(|s| *s != 1 && *s != -1) {
        return Err(ctx.err(
            "system.chain.sides",
            format!("{:?}", c.sides),
            "a non-empty array of +1 / -1, repeated along the chain",
        ));
    }
    let chain = Chain {
        n: c.n,
        mass: m,
        spring: k,
        damper: d,
        gap_stiffness: kg,
        gaps: c.gaps.clone(),
        sides: c.sides.iter().map(|s| *s as f64).collect(),
    };
    let sys = chain.system(Harmonic {
        amplitude: vec![],
        omega: 0.0,
    });
    Ok((sys.mass, sys.damping, sys.stiffness, sys.springs))
}

/// M must be symmetric positive definite (dense Cholesky for small n; a
/// diagonal M with positive entries for large n).
fn check_spd(ctx: &Ctx, mass: &sprs::CsMat<f64>) -> Result<(), InputError> {
    let n = mass.rows();
    let diagonal = mass.iter().all(|(_, (i, j))| i == j);
    if diagonal {
        let mut diag = vec![0.0; n];
        for (&v, (i, _)) in mass.iter() {
            diag[i] += v;
        }
        if let Some((i, v)) = diag.iter().enumerate().find(|(_, v)| **v <= 0.0) {
            return Err(ctx.err(
                &format!("system.mass[{i}][{i}]"),
                v,
                "a positive definite mass matrix (diagonal entries > 0)",
            ));
        }
        return Ok(());
    }
    if n > 4000 {
        return Err(ctx.err(
            "system.mass",
            format!("{n} x {n} non-diagonal"),
            "a diagonal mass matrix for n > 4000",
        ));
    }
    let dense = to_dense(mass);
    let asym = (&dense - dense.transpose()).amax();
    if asym > 1e-12 * dense.amax() {
        return Err(ctx.err(
            "system.mass",
            format!("asymmetry {asym:e}"),
            "a symmetric positive definite matrix",
        ));
    }
    if dense.cholesky().is_none() {
        return Err(ctx.err(
            "system.mass",
            "not positive definite",
            "a symmetric positive definite matrix",
        ));
    }
    Ok(())
}
