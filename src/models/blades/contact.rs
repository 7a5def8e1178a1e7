//! The contact forces of the patches (the seed's eqs. (1)-(7)): penalty
//! normal force, friction opposing the slip, and the transformation of the
//! patch forces to the two blades' tip DOFs by the transposed maps.
//!
//! Per patch j, with H_j = [T_1,Aj  -T_2,Aj] (3 x 10, the tip DOFs of
//! blade 1 then blade 2, rows xi, eta, zeta), the relative velocity is
//! c_Aj = qdot_1,Aj - qdot_2,Aj = H_j qdot (eq. (1)) and, the maps being
//! constant (small displacements), the relative displacement H_j q. With
//! zeta pointing into blade 1, the penetration and its rate are
//!
//!   g_j = -(H_j q)_zeta - g0_j,   gdot_j = -c_zeta,
//!
//! (g0_j the gap at rest; negative: an interference fit). The normal force
//! is the penalty law
//!
//!   F_N = max(0, k_n g + d_n gdot) for g > 0,   F_N = 0 for g <= 0,
//!
//! the friction force (eqs. (3)-(5)), with the slip c = (c_xi, c_eta) and
//! s = |c|,
//!
//!   T = -F_N f(s) c / s for s > 0,   T = 0 for s = 0,
//!
//! which for a set-valued law is the seed's computation without a sticking
//! limit. The force on blade 1 is f_Aj^(2,1) = (T_xi, T_eta, F_N) (eq. (6)),
//! on blade 2 its opposite, and the generalised forces are
//! Q = sum_j H_j^T f_Aj^(2,1) (eq. (7): T_1^T f on blade 1, T_2^T (-f) on
//! blade 2), so action equals reaction by construction.
//!
//! Energy: the normal force splits into the spring k_n g_+ (potential
//! k_n g_+^2 / 2) and the rest, whose dissipated power (F_N - k_n g_+) gdot
//! is >= 0 (d_n gdot^2 while F_N > 0; -k_n g gdot with gdot < 0 where the
//! max clips); friction dissipates F_N f(s) s >= 0.
//!
//! The laws are evaluated in `crate::contact` ([`Penalty::normal_force`],
//! [`FrictionLaw::planar_force`]); this module holds the geometry.

use crate::contact::friction::FrictionLaw;
use crate::contact::normal::Penalty;

/// The tip DOFs H acts on: per blade v, w, theta_z, theta_y and theta_x
/// (the torsion; with a blade rigid in torsion its column of H is zero).
pub const TIP_DOFS: usize = 10;

/// The tip DOFs of one blade in H.
pub const BLADE_TIP_DOFS: usize = TIP_DOFS / 2;

/// One patch's kinematic maps.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchMap {
    /// H_j (3 x TIP_DOFS): local relative velocity from the tip DOFs
    /// (blade 1's v, w, theta_z, theta_y, theta_x, then blade 2's).
    pub h: [[f64; TIP_DOFS]; 3],
    /// The full rigid maps T_i,Aj (3 x 6, DOFs u, v, w, theta_x, theta_y,
    /// theta_z of tip i) of the two blades.
    pub rigid: [[[f64; 6]; 3]; 2],
    /// g0_j [m]: the gap at rest (negative: interference).
    pub gap: f64,
}

/// Penetration, its rate and the relative velocity of one patch.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PatchKinematics {
    /// g [m].
    pub penetration: f64,
    /// c = (c_xi, c_eta, c_zeta) [m/s].
    pub velocity: [f64; 3],
}

/// What the contact does at one state (sums over the patches).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ContactTotals {
    /// Sum of F_N [N].
    pub normal: f64,
    /// The resultant friction force (T_xi, T_eta) on blade 1 [N].
    pub friction: [f64; 2],
    /// The largest slip speed |c| over the patches [m/s].
    pub max_slip: f64,
    /// The slip speed of the watched patch [m/s].
    pub watched_slip: f64,
    /// Friction power dissipated, sum F_N f(s) s >= 0 [W].
    pub friction_power: f64,
    /// Power dissipated by the normal law, sum (F_N - k_n g_+) gdot >= 0 [W].
    pub normal_damping_power: f64,
    /// Potential of the penalty springs, sum k_n g_+^2 / 2 [J].
    pub potential: f64,
}

/// The patches of a blade pair.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactSet {
    /// One map per patch.
    pub patches: Vec<PatchMap>,
    /// Global indices of the tip DOFs H acts on (a blade rigid in torsion
    /// repeats its tip v for theta_x, whose column of H is zero).
    pub tip_dofs: [usize; TIP_DOFS],
    /// The normal law, the same on every patch.
    pub penalty: Penalty,
}

impl ContactSet {
    /// H_j x (x a global vector: displacements or velocities).
    #[inline]
    pub fn relative(&self, j: usize, x: &[f64]) -> [f64; 3] {
        self.relative_with(j, |k| x[self.tip_dofs[k]])
    }

    /// The tip DOFs' entries of a global vector x.
    #[inline]
    fn tip(&self, x: &[f64]) -> [f64; TIP_DOFS] {
        self.tip_dofs.map(|d| x[d])
    }

    /// H_j x from the tip DOFs' entries x_tip ([`Self::tip`]).
    #[inline]
    fn relative_tip(&self, j: usize, x_tip: &[f64; TIP_DOFS]) -> [f64; 3] {
        self.relative_with(j, |k| x_tip[k])
    }

    /// H_j x with x's tip entries read by `x_at` (tip DOF k -> value): one
    /// sum order for [`Self::relative`] and [`Self::relative_tip`].
    #[inline]
    fn relative_with(&self, j: usize, x_at: impl Fn(usize) -> f64) -> [f64; 3] {
        let h = &self.patches[j].h;
        let mut r = [0.0; 3];
        for (k, ((h0, h1), h2)) in h[0].iter().zip(&h[1]).zip(&h[2]).enumerate() {
            let xk = x_at(k);
            r[0] += h0 * xk;
            r[1] += h1 * xk;
            r[2] += h2 * xk;
        }
        r
    }

    /// out += H_j^T f (the generalised force of f_Aj^(2,1) on both blades).
    #[inline]
    pub fn add_generalized(&self, j: usize, f: &[f64; 3], out: &mut [f64]) {
        let h = &self.patches[j].h;
        for (k, &d) in self.tip_dofs.iter().enumerate() {
            out[d] += h[0][k] * f[0] + h[1][k] * f[1] + h[2][k] * f[2];
        }
    }

    /// The penetration and velocities of patch j at (q, v).
    #[inline]
    pub fn kinematics(&self, j: usize, q: &[f64], v: &[f64]) -> PatchKinematics {
        self.kinematics_of(j, self.relative(j, q), self.relative(j, v))
    }

    /// Patch j's kinematics from H_j q and H_j v.
    #[inline]
    fn kinematics_of(&self, j: usize, hq: [f64; 3], hv: [f64; 3]) -> PatchKinematics {
        PatchKinematics {
            penetration: -hq[2] - self.patches[j].gap,
            velocity: hv,
        }
    }

    /// The force f_Aj^(2,1) = (T_xi, T_eta, F_N) on blade 1 at (q, v).
    pub fn patch_force(&self, law: &FrictionLaw, k: &PatchKinematics) -> [f64; 3] {
        let c = k.velocity;
        let n = self.penalty.normal_force(k.penetration, -c[2]);
        let t = law.planar_force(n, [c[0], c[1]]);
        [t[0], t[1], n]
    }

    /// The contact forces at (q, v): adds them to `out` (the generalised
    /// forces, when given) and returns the totals; `watch` names the patch
    /// whose slip speed is reported.
    pub fn evaluate(
        &self,
        law: &FrictionLaw,
        q: &[f64],
        v: &[f64],
        watch: usize,
        mut out: Option<&mut [f64]>,
    ) -> ContactTotals {
        let mut tot = ContactTotals::default();
        let k_n = self.penalty.stiffness;
        // The tip DOFs gathered once for all patches.
        let (q_tip, v_tip) = (self.tip(q), self.tip(v));
        for j in 0..self.patches.len() {
            let k = self.kinematics_of(
                j,
                self.relative_tip(j, &q_tip),
                self.relative_tip(j, &v_tip),
            );
            let f = self.patch_force(law, &k);
            let c = k.velocity;
            let s = (c[0] * c[0] + c[1] * c[1]).sqrt();
            let g_plus = k.penetration.max(0.0);
            tot.normal += f[2];
            tot.friction[0] += f[0];
            tot.friction[1] += f[1];
            tot.max_slip = tot.max_slip.max(s);
            if j == watch {
                tot.watched_slip = s;
            }
            tot.friction_power -= f[0] * c[0] + f[1] * c[1];
            tot.normal_damping_power += (f[2] - k_n * g_plus) * (-c[2]);
            tot.potential += 0.5 * k_n * g_plus * g_plus;
            if let Some(o) = out.as_deref_mut() {
                self.add_generalized(j, &f, o);
            }
        }
        tot
    }
}
