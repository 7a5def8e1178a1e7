//! The equations of motion of a planar multibody system in absolute
//! coordinates (Lagrange's equations of the first kind; Hrabacka et al.
//! 2023, eqs. (1)-(4); Shabana 2010, section 6):
//!
//!   [ M   C_q^T ] [ q''    ]   [ Q_e + Q_v ]
//!   [ C_q   0   ] [ lambda ] = [ Q_d       ]          (1)  `Augmented`
//!
//!   q'' = M^-1 C_q^T (C_q M^-1 C_q^T)^-1 [Q_d - C_q M^-1 (Q_e + Q_v)]
//!         + M^-1 (Q_e + Q_v)                            (4)  `Eliminated`
//!
//! with M = diag(m, m, J) per body, Q_v = 0 (centre-of-mass coordinates in
//! the plane have no quadratic-velocity forces), Q_e the applied forces
//! (gravity along -y, constant torques, contact forces of clearance joints)
//! and Q_d = -C_tt - (C_q q')_q q' - 2 C_qt q'. Baumgarte stabilisation
//! (Baumgarte, Comput. Methods Appl. Mech. Eng. 1 (1972) 1-16) replaces Q_d
//! by Q_d - 2 alpha C' - beta^2 C, C' = C_q q' + C_t, so that the drift
//! obeys C'' + 2 alpha C' + beta^2 C = 0.
//!
//! Sizes are compile-time constants: N coordinates, R constraint
//! equations, NR = N + R for the augmented matrix (nalgebra's stack
//! matrices: nothing is allocated per evaluation). The system is a
//! [`FirstOrderOde`] in y = (q, q').

use std::cell::Cell;
use std::time::Instant;

use nalgebra::{Const, DimMin, SMatrix, SVector};

use crate::multibody::body::Body;
use crate::multibody::constraints::Constraint;
use crate::multibody::contact::{ClearanceJoint, ContactState};
use crate::problem::FirstOrderOde;

/// How the accelerations are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Formulation {
    /// Eq. (1): one LU of the (N + R) x (N + R) augmented matrix.
    Augmented,
    /// Eq. (4): the multipliers eliminated, (C_q M^-1 C_q^T) factored.
    Eliminated,
}

/// Baumgarte's parameters [1/s]; zero for none.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Baumgarte {
    /// alpha (damping of the drift).
    pub alpha: f64,
    /// beta (stiffness of the drift).
    pub beta: f64,
}

/// Work counters and timers of a run (interior mutability: the ODE's
/// right-hand side takes &self).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Work {
    /// Right-hand side (acceleration) evaluations.
    pub evaluations: u64,
    /// Nanoseconds spent evaluating C_q and Q_d (the constraint terms).
    pub constraint_ns: u64,
    /// Nanoseconds spent in the right-hand side altogether.
    pub total_ns: u64,
}

/// A planar multibody system of N / 3 bodies, R constraint equations.
pub struct Mechanism<const N: usize, const R: usize, const NR: usize> {
    bodies: Vec<Body>,
    constraints: Vec<Box<dyn Constraint>>,
    /// Clearance joints (contact forces).
    pub clearance: Vec<ClearanceJoint>,
    /// Gravitational acceleration along -y [m/s^2].
    pub gravity: f64,
    /// Constant torques on bodies [N m].
    pub torques: Vec<(usize, f64)>,
    /// Which equations are solved.
    pub formulation: Formulation,
    /// Drift stabilisation.
    pub baumgarte: Baumgarte,
    work: Cell<Work>,
    /// Whether to time the constraint evaluations (the timer's own cost is
    /// measured and subtracted, see [`timer_overhead_ns`]).
    pub timed: bool,
    /// Whether the integrators locate the clearance joints' switches (the
    /// contact's onset and end, the damping's clip; the ODE's
    /// `switching`); default true.
    pub locate_switches: bool,
}

/// The result of one evaluation of the equations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dynamics<const N: usize, const R: usize> {
    /// q''.
    pub acceleration: SVector<f64, N>,
    /// The multipliers lambda of eq. (1) (the constraint forces are
    /// -C_q^T lambda).
    pub lambda: SVector<f64, R>,
}

/// Why the equations could not be solved.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MechanismError {
    /// The constraint equations do not fit N and R.
    #[error("the constraints have {found} equations, the system was built for {expected}")]
    Rows {
        /// R.
        expected: usize,
        /// Sum of the constraints' rows.
        found: usize,
    },
    /// N + R differs from NR, or N is not 3 x bodies.
    #[error("sizes: {0}")]
    Sizes(String),
}

impl<const N: usize, const R: usize, const NR: usize> Mechanism<N, R, NR>
where
    Const<NR>: DimMin<Const<NR>, Output = Const<NR>>,
{
    /// A system of `bodies` with `constraints` (their rows summing to R).
    pub fn new(
        bodies: Vec<Body>,
        constraints: Vec<Box<dyn Constraint>>,
        formulation: Formulation,
    ) -> Result<Self, MechanismError> {
        let rows: usize = constraints.iter().map(|c| c.rows()).sum();
        if rows != R {
            return Err(MechanismError::Rows {
                expected: R,
                found: rows,
            });
        }
        if N != 3 * bodies.len() || NR != N + R {
            return Err(MechanismError::Sizes(format!(
                "N = {N} for {} bodies, NR = {NR} for N + R = {}",
                bodies.len(),
                N + R
            )));
        }
        Ok(Self {
            bodies,
            constraints,
            clearance: Vec::new(),
            gravity: 0.0,
            torques: Vec::new(),
            formulation,
            baumgarte: Baumgarte::default(),
            work: Cell::new(Work::default()),
            timed: false,
            locate_switches: true,
        })
    }

    /// The bodies.
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// The diagonal of M.
    pub fn mass_diagonal(&self) -> SVector<f64, N> {
        SVector::from_fn(|k, _| {
            let b = &self.bodies[k / 3];
            if k % 3 == 2 { b.inertia } else { b.mass }
        })
    }

    /// C(q, t), stacked.
    pub fn constraint_values(&self, q: &[f64], t: f64) -> SVector<f64, R> {
        let mut c = SVector::<f64, R>::zeros();
        let mut row = 0;
        for k in &self.constraints {
            k.eval(q, t, &mut c.as_mut_slice()[row..]);
            row += k.rows();
        }
        c
    }

    /// C_q (R x N), stacked.
    pub fn jacobian(&self, q: &[f64], t: f64) -> SMatrix<f64, R, N> {
        // Row-major buffer of stride N, then into the column-major matrix.
        let mut rows = [[0.0f64; N]; R];
        let mut row = 0;
        for k in &self.constraints {
            let flat = rows[row..].as_flattened_mut();
            k.jacobian(q, t, flat, N);
            row += k.rows();
        }
        SMatrix::from_fn(|i, j| rows[i][j])
    }

    /// Q_d = -C_tt - (C_q q')_q q' - 2 C_qt q' (eq. (3)), stacked: the
    /// right-hand side of C_q q'' = Q_d.
    pub fn acceleration_rhs(&self, q: &[f64], qd: &[f64], t: f64) -> SVector<f64, R> {
        let mut gamma = SVector::<f64, R>::zeros();
        let mut row = 0;
        for k in &self.constraints {
            k.gamma(q, qd, t, &mut gamma.as_mut_slice()[row..]);
            row += k.rows();
        }
        gamma
    }

    /// The velocity constraint C' = C_q q' + C_t.
    pub fn velocity_constraint(&self, q: &[f64], qd: &[f64], t: f64) -> SVector<f64, R> {
        let cq = self.jacobian(q, t);
        let mut ct = SVector::<f64, R>::zeros();
        let mut row = 0;
        for k in &self.constraints {
            k.time_derivative(q, t, &mut ct.as_mut_slice()[row..]);
            row += k.rows();
        }
        cq * SVector::<f64, N>::from_column_slice(qd) + ct
    }

    /// Q_e: gravity, torques and the clearance joints' contact forces.
    pub fn applied_forces(&self, q: &[f64], qd: &[f64]) -> SVector<f64, N> {
        let mut f = SVector::<f64, N>::zeros();
        for (k, b) in self.bodies.iter().enumerate() {
            f[3 * k + 1] -= b.mass * self.gravity;
        }
        for &(k, tau) in &self.torques {
            f[3 * k + 2] += tau;
        }
        for j in &self.clearance {
            j.add_forces(q, qd, f.as_mut_slice());
        }
        f
    }

    /// The contact states of the clearance joints.
    pub fn contact_states(&self, q: &[f64], qd: &[f64]) -> Vec<ContactState> {
        self.clearance.iter().map(|j| j.state(q, qd)).collect()
    }

    /// Before the first step: the clearance joints take the initial state
    /// as their last accepted one (a contact's onset is located from it).
    pub fn start(&self, t: f64, q: &[f64], qd: &[f64]) {
        for j in &self.clearance {
            j.start(t, q, qd);
        }
    }

    /// After an accepted step ending at t: the clearance joints update
    /// their memory; returns whether any changed (the right-hand side
    /// changed with it).
    pub fn accept(&self, t: f64, q: &[f64], qd: &[f64]) -> bool {
        let mut changed = false;
        for j in &self.clearance {
            changed |= j.accept(t, q, qd);
        }
        changed
    }

    /// The counters and timers so far.
    pub fn work(&self) -> Work {
        self.work.get()
    }

    /// The accelerations and multipliers at (t, q, q').
    pub fn dynamics(&self, t: f64, q: &[f64], qd: &[f64]) -> Option<Dynamics<N, R>> {
        let start = self.timed.then(Instant::now);
        let qd_vec = SVector::<f64, N>::from_column_slice(qd);
        let constraint_start = self.timed.then(Instant::now);
        let cq = self.jacobian(q, t);
        let mut qdd_rhs = self.acceleration_rhs(q, qd, t);
        let constraint_ns = constraint_start.map_or(0, |s| s.elapsed().as_nanos() as u64);
        if self.baumgarte.alpha != 0.0 || self.baumgarte.beta != 0.0 {
            let c = self.constraint_values(q, t);
            let mut ct = SVector::<f64, R>::zeros();
            let mut row = 0;
            for k in &self.constraints {
                k.time_derivative(q, t, &mut ct.as_mut_slice()[row..]);
                row += k.rows();
            }
            let cd = cq * qd_vec + ct;
            let (a, b) = (self.baumgarte.alpha, self.baumgarte.beta);
            qdd_rhs -= cd * (2.0 * a) + c * (b * b);
        }
        let force = self.applied_forces(q, qd);
        let m = self.mass_diagonal();
        let result = match self.formulation {
            Formulation::Eliminated => {
                let minv = m.map(|v| 1.0 / v);
                let cq_minv = SMatrix::<f64, R, N>::from_fn(|i, j| cq[(i, j)] * minv[j]);
                let s = cq_minv * cq.transpose();
                let rhs = qdd_rhs - cq_minv * force;
                let lambda_neg = s.cholesky()?.solve(&rhs);
                // q'' = M^-1 (Q + C_q^T mu), mu = -lambda of eq. (1).
                let acceleration = (force + cq.transpose() * lambda_neg).component_mul(&minv);
                Dynamics {
                    acceleration,
                    lambda: -lambda_neg,
                }
            }
            Formulation::Augmented => {
                let mut a = SMatrix::<f64, NR, NR>::zeros();
                let mut b = SVector::<f64, NR>::zeros();
                for i in 0..N {
                    a[(i, i)] = m[i];
                    b[i] = force[i];
                }
                for r in 0..R {
                    for j in 0..N {
                        a[(N + r, j)] = cq[(r, j)];
                        a[(j, N + r)] = cq[(r, j)];
                    }
                    b[N + r] = qdd_rhs[r];
                }
                let x = a.lu().solve(&b)?;
                Dynamics {
                    acceleration: SVector::from_fn(|i, _| x[i]),
                    lambda: SVector::from_fn(|r, _| x[N + r]),
                }
            }
        };
        let mut w = self.work.get();
        w.evaluations += 1;
        w.constraint_ns += constraint_ns;
        w.total_ns += start.map_or(0, |s| s.elapsed().as_nanos() as u64);
        self.work.set(w);
        Some(result)
    }

    /// Total kinetic energy (M q' . q') / 2 [J].
    pub fn kinetic_energy(&self, qd: &[f64]) -> f64 {
        let m = self.mass_diagonal();
        0.5 * (0..N).map(|k| m[k] * qd[k] * qd[k]).sum::<f64>()
    }

    /// Potential energy of gravity, sum m_i g y_i [J] (zero at y = 0).
    pub fn potential_energy(&self, q: &[f64]) -> f64 {
        self.bodies
            .iter()
            .enumerate()
            .map(|(k, b)| b.mass * self.gravity * q[3 * k + 1])
            .sum()
    }
}

/// The state y = (q, q') as the ODE y' = (q', q''); a singular system gives
/// NaN accelerations (the integrator's non-finite check stops the run).
impl<const N: usize, const R: usize, const NR: usize> FirstOrderOde for Mechanism<N, R, NR>
where
    Const<NR>: DimMin<Const<NR>, Output = Const<NR>>,
{
    fn dim(&self) -> usize {
        2 * N
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let (q, qd) = y.split_at(N);
        dy[..N].copy_from_slice(qd);
        match self.dynamics(t, q, qd) {
            Some(d) => dy[N..].copy_from_slice(d.acceleration.as_slice()),
            None => dy[N..].fill(f64::NAN),
        }
    }

    /// Two per clearance joint when `locate_switches` is set
    /// ([`ClearanceJoint::switching`]), else none.
    fn switches(&self) -> usize {
        if self.locate_switches {
            2 * self.clearance.len()
        } else {
            0
        }
    }

    fn switching(&self, _t: f64, y: &[f64], g: &mut [f64]) {
        let (q, qd) = y.split_at(N);
        for (j, out) in self.clearance.iter().zip(g.chunks_mut(2)) {
            out.copy_from_slice(&j.switching(q, qd));
        }
    }
}

/// The cost of one pair of `Instant::now()` calls with nothing between
/// them [ns], the median of 1001 trials: what each timed section adds.
pub fn timer_overhead_ns() -> f64 {
    let mut samples: Vec<u64> = (0..1001)
        .map(|_| {
            let s = Instant::now();
            let e = Instant::now();
            (e - s).as_nanos() as u64
        })
        .collect();
    samples.sort_unstable();
    samples[500] as f64
}
