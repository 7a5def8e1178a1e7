//! Building the gap system of a case from its TOML tables: explicit
//! matrices and gap springs, or the chain generator; M checked SPD.

use serde::Deserialize;
use sprs::TriMat;

use crate::error::InputError;
use crate::models::gap_system::Chain;
use crate::problem::{GapSprings, GapSystem, Harmonic};
use crate::sparse::{csr_from_rows, to_dense};
use crate::studies::keys::KeyCtx as Ctx;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SystemToml {
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
    #[serde(default)]
    allow_indefinite: bool,
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
pub(super) struct ExcitationToml {
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

pub(super) fn build_system(
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
        (None, _) => explicit_matrices(ctx, sys)?,
    };
    let n = mass.rows();
    check_spd(ctx, &mass)?;
    let omega = exc.omega;
    if !(omega.is_finite() && omega >= 0.0) {
        return Err(ctx.err("excitation.omega", omega, "a finite number >= 0 [rad/s]"));
    }
    let amplitude = excitation_amplitude(ctx, exc, n)?;
    Ok(GapSystem {
        mass,
        damping,
        stiffness,
        springs,
        excitation: Harmonic { amplitude, omega },
    })
}

/// The explicit mass, damping and stiffness matrices (n x n, the first
/// sets n; stiffness and damping positive semidefinite unless
/// `allow_indefinite`) and the gap springs.
fn explicit_matrices(ctx: &Ctx, sys: &SystemToml) -> Result<Matrices, InputError> {
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
        sys.damping
            .as_deref()
            .ok_or_else(|| ctx.missing("system.damping", "missing: the n x n damping matrix"))?,
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
    if !sys.allow_indefinite {
        semidefinite(ctx, "system.stiffness", &k)?;
        semidefinite(ctx, "system.damping", &c)?;
    }
    let springs = explicit_gaps(ctx, sys, n)?;
    Ok((
        csr_from_rows(&m),
        csr_from_rows(&c),
        csr_from_rows(&k),
        springs,
    ))
}

/// The explicit gap springs: each a nonzero direction d_j (n entries), a
/// finite gap and a positive stiffness.
fn explicit_gaps(ctx: &Ctx, sys: &SystemToml, n: usize) -> Result<GapSprings, InputError> {
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
        gaps.push(ctx.finite(&format!("system.gaps[{j}].gap"), g.gap)?);
        kg.push(ctx.positive(&format!("system.gaps[{j}].stiffness"), g.stiffness)?);
    }
    Ok(GapSprings {
        directions: tri.to_csr(),
        gaps,
        stiffness: kg,
    })
}

/// The force amplitude of every DOF: one number for all, an array of n,
/// plus each `[[excitation.load]]`; at least one of them is given.
fn excitation_amplitude(ctx: &Ctx, exc: &ExcitationToml, n: usize) -> Result<Vec<f64>, InputError> {
    let mut amplitude = match &exc.amplitude {
        None => vec![0.0; n],
        Some(toml::Value::Float(_) | toml::Value::Integer(_)) => {
            let a = exc
                .amplitude
                .as_ref()
                .and_then(value_f64)
                .unwrap_or(f64::NAN);
            vec![ctx.finite("excitation.amplitude", a)?; n]
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
        amplitude[load.dof] +=
            ctx.finite(&format!("excitation.load[{i}].amplitude"), load.amplitude)?;
    }
    Ok(amplitude)
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
    let m = ctx.positive("system.chain.mass", c.mass)?;
    let k = ctx.positive("system.chain.spring", c.spring)?;
    let d = ctx.finite("system.chain.damper", c.damper)?;
    if d < 0.0 {
        return Err(ctx.err("system.chain.damper", d, "a finite number >= 0"));
    }
    let kg = ctx.positive("system.chain.gap_stiffness", c.gap_stiffness)?;
    if c.gaps.is_empty() {
        return Err(ctx.err(
            "system.chain.gaps",
            "[]",
            "a non-empty array of gaps [m], repeated along the chain",
        ));
    }
    for (i, g) in c.gaps.iter().enumerate() {
        ctx.finite(&format!("system.chain.gaps[{i}]"), *g)?;
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

/// Refuses a matrix whose symmetric part (A + A^T) / 2 has an eigenvalue
/// below -1e-12 times its largest |eigenvalue|: a stiffness or damping that
/// feeds energy in makes the motion grow without bound (the exact solver
/// would march an exponential for ever). `system.allow_indefinite = true`
/// accepts such a matrix on purpose.
fn semidefinite(ctx: &Ctx, key: &str, a: &[Vec<f64>]) -> Result<(), InputError> {
    let n = a.len();
    let sym = nalgebra::DMatrix::from_fn(n, n, |i, j| 0.5 * a[i][j] + 0.5 * a[j][i]);
    if !sym.iter().all(|v| v.is_finite()) {
        return Err(ctx.err(key, "a matrix", "finite entries whose sums do not overflow"));
    }
    // The test is scale-invariant: scaled to entries of at most 1, the
    // eigen-solver sees no magnitude it cannot handle (crate::guard).
    let scale = if sym.amax() > 0.0 { sym.amax() } else { 1.0 };
    let sym = sym / scale;
    let Ok(eig) = crate::guard::symmetric_eigenvalues(key, sym) else {
        return Err(ctx.err(
            key,
            "a matrix",
            format!(
                "entries at most {:e} in magnitude (its eigenvalues must be computable)",
                crate::guard::MAX_ENTRY
            ),
        ));
    };
    if !eig.iter().all(|v| v.is_finite()) {
        return Err(ctx.err(
            key,
            "a matrix",
            "magnitudes whose products do not overflow (its eigenvalues are not finite)",
        ));
    }
    let top = eig.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let low = eig.iter().fold(f64::INFINITY, |m, &v| m.min(v));
    if low < -1e-12 * top {
        return Err(ctx.err(
            key,
            format!("a matrix whose symmetric part has the eigenvalue {:e}", low * scale),
            "a positive semidefinite matrix (symmetric part); set system.allow_indefinite = true to integrate a growing system on purpose",
        ));
    }
    Ok(())
}

/// A vector of `n` finite numbers at `key`.
pub(super) fn vector(ctx: &Ctx, key: &str, v: &[f64], n: usize) -> Result<Vec<f64>, InputError> {
    if v.len() != n {
        return Err(ctx.err(
            key,
            format!("{v:?}"),
            format!("an array of {n} numbers (one per DOF)"),
        ));
    }
    for (i, x) in v.iter().enumerate() {
        ctx.finite(&format!("{key}[{i}]"), *x)?;
    }
    Ok(v.to_vec())
}

/// A square matrix of finite numbers at `key` (of size `n` when given).
pub(super) fn square(
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
            ctx.finite(&format!("{key}[{i}][{j}]"), *v)?;
        }
    }
    Ok(rows.to_vec())
}
