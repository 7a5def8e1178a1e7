//! The general problem traits: a model that implements one is run by every
//! integrator written against it.
//!
//! Mechanical systems are written in second-order form
//!
//!   M q'' = f(t, q, q') + G(q)^T lambda,   g(q) >= 0, lambda >= 0, g . lambda = 0,
//!
//! ([`SecondOrderSystem`]): a constant sparse mass matrix M, the applied,
//! elastic, damping and smooth (penalty, friction) forces f with their
//! Jacobians df/dq and df/dq' on fixed sparsity patterns (so that an
//! implicit integrator factors the step Jacobian symbolically once), and
//! unilateral constraints g(q) >= 0 with their gradients G = dg/dq on a fixed
//! pattern, whose multipliers lambda an integrator finds as a complementarity
//! problem (an LCP per step, or the NCP function lambda - max(0, lambda - c g)
//! in a semi-smooth Newton solve). A system with no constraints has
//! `constraints() == 0`.
//!
//! Explicit integrators see a first-order ODE y' = F(t, y)
//! ([`FirstOrderOde`]: the Runge-Kutta integrators of `integrators::rk` run
//! it; the blade pair and the multibody system implement it);
//! [`AsFirstOrder`] turns a second-order system without constraints into
//! one (y = (q, q'), q'' = M^-1 f, M diagonal). Today only the gap system
//! implements [`SecondOrderSystem`] (run by Runge-Kutta through
//! [`AsFirstOrder`] in the tests); Newmark and the event-driven solver take
//! the piecewise-linear [`GapSystem`](super::gap_system::GapSystem) itself,
//! whose linear structure they use.

use sprs::CsMat;

/// A fixed sparsity pattern (CSC: column pointers and sorted row indices)
/// with the position of each entry in a value array.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pattern {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Column pointers, length `cols + 1`.
    pub col_ptr: Vec<usize>,
    /// Row indices, sorted within each column.
    pub row_idx: Vec<usize>,
}

impl Pattern {
    /// The pattern of the nonzeros of a sparse matrix (either storage).
    pub fn of(a: &CsMat<f64>) -> Self {
        let csc = a.to_csc();
        Self {
            rows: csc.rows(),
            cols: csc.cols(),
            col_ptr: csc.indptr().raw_storage().to_vec(),
            row_idx: csc.indices().to_vec(),
        }
    }

    /// Number of entries.
    pub fn nnz(&self) -> usize {
        self.row_idx.len()
    }

    /// Position of entry (i, j) in a value array of this pattern.
    pub fn position(&self, i: usize, j: usize) -> Option<usize> {
        let (lo, hi) = (self.col_ptr[j], self.col_ptr[j + 1]);
        self.row_idx[lo..hi].binary_search(&i).ok().map(|k| lo + k)
    }
}

/// M q'' = f(t, q, q') + G^T lambda with g(q) >= 0 (see the module doc).
pub trait SecondOrderSystem {
    /// Number of generalised coordinates n.
    fn dofs(&self) -> usize;

    /// The constant mass matrix M (n x n, symmetric positive definite).
    fn mass(&self) -> &CsMat<f64>;

    /// f(t, q, v) into `out` (length n).
    fn force(&self, t: f64, q: &[f64], v: &[f64], out: &mut [f64]);

    /// The fixed patterns of df/dq and df/dv.
    fn force_jacobian_patterns(&self) -> (Pattern, Pattern);

    /// The values of df/dq and df/dv at (t, q, v) on their patterns (a
    /// piecewise-smooth f gives an element of its generalised Jacobian).
    fn force_jacobians(&self, t: f64, q: &[f64], v: &[f64], dq: &mut [f64], dv: &mut [f64]);

    /// Number of unilateral constraints m.
    fn constraints(&self) -> usize {
        0
    }

    /// g(q) into `out` (length m).
    fn gaps(&self, _q: &[f64], _out: &mut [f64]) {}

    /// The fixed pattern of G = dg/dq (m x n).
    fn gap_jacobian_pattern(&self) -> Pattern {
        Pattern {
            rows: 0,
            cols: self.dofs(),
            col_ptr: vec![0; self.dofs() + 1],
            row_idx: Vec::new(),
        }
    }

    /// The values of G at q on its pattern.
    fn gap_jacobian(&self, _q: &[f64], _values: &mut [f64]) {}
}

/// y' = F(t, y).
pub trait FirstOrderOde {
    /// Dimension of y.
    fn dim(&self) -> usize;

    /// F(t, y) into `dy`.
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]);

    /// The number of switching functions (see
    /// [`crate::integrators::events`]): 0, the default, when F is smooth.
    fn switches(&self) -> usize {
        0
    }

    /// The switching functions g_i(t, y) into `g` (length
    /// [`Self::switches`]): F is smooth while none changes sign, so the
    /// Runge-Kutta integrators end a step where one does and restart.
    fn switching(&self, _t: f64, _y: &[f64], _g: &mut [f64]) {}
}

/// A second-order system without constraints and with a diagonal mass
/// matrix as the first-order ODE y = (q, v), y' = (v, M^-1 f(t, q, v)).
pub struct AsFirstOrder<'a, S: SecondOrderSystem> {
    system: &'a S,
    inverse_mass: Vec<f64>,
    scratch: std::cell::RefCell<Vec<f64>>,
}

impl<'a, S: SecondOrderSystem> AsFirstOrder<'a, S> {
    /// None when the system has constraints or M is not diagonal with
    /// positive entries.
    pub fn new(system: &'a S) -> Option<Self> {
        let n = system.dofs();
        if system.constraints() > 0 {
            return None;
        }
        let mut diag = vec![0.0; n];
        for (&v, (i, j)) in system.mass().iter() {
            if i != j && v != 0.0 {
                return None;
            }
            if i == j {
                diag[i] += v;
            }
        }
        if diag.iter().any(|d| d.is_nan() || *d <= 0.0) {
            return None;
        }
        Some(Self {
            system,
            inverse_mass: diag.iter().map(|d| 1.0 / d).collect(),
            scratch: std::cell::RefCell::new(vec![0.0; n]),
        })
    }
}

impl<S: SecondOrderSystem> FirstOrderOde for AsFirstOrder<'_, S> {
    fn dim(&self) -> usize {
        2 * self.system.dofs()
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let n = self.system.dofs();
        let (q, v) = y.split_at(n);
        let mut f = self.scratch.borrow_mut();
        self.system.force(t, q, v, &mut f);
        dy[..n].copy_from_slice(v);
        for ((a, fi), m) in dy[n..].iter_mut().zip(f.iter()).zip(&self.inverse_mass) {
            *a = fi * m;
        }
    }
}
