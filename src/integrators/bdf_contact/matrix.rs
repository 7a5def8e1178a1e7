//! The Newton matrix of a BDF contact step (module doc of
//! [`super`]): its assembly into the fixed-pattern sparse LU, and the test
//! of an increment for a matrix singular to working precision.

use super::{BdfContact, ContactModel, REDUNDANT_COMPLIANCE, SINGULAR_INCREMENT};

impl BdfContact<'_> {
    /// Whether a Newton increment reveals a matrix singular to working
    /// precision: a component beyond [`SINGULAR_INCREMENT`] times its scale
    /// (the length scale for positions, k_s times it for contact forces).
    /// Closed contacts with dependent gradients give an exact zero pivot
    /// only by chance; round-off leaves a pivot of order epsilon, and the
    /// increment then carries forces of order 1e20 N (module doc).
    pub(super) fn singular_to_working_precision(&self, delta: &[f64]) -> bool {
        let length = self.system.length_scale;
        let force = self.system.stiffness_scale * length;
        delta[..self.n]
            .iter()
            .any(|d| d.abs() > SINGULAR_INCREMENT * length)
            || delta[self.n..]
                .iter()
                .any(|d| d.abs() > SINGULAR_INCREMENT * force)
    }

    /// The Newton matrix of a step with gamma = b h into `self.lu`:
    /// M / gamma^2 + C / gamma + K, plus for penalty contact the closed
    /// pairs' (k_p + c_p / gamma) G^T G, for NCP contact the bordered rows
    /// and columns of the max function (open rows ks / c on the diagonal;
    /// with `regularized`, the closed rows' compliance, module doc).
    pub(super) fn assemble_newton_matrix(
        &mut self,
        gamma: f64,
        active: &[bool],
        regularized: bool,
    ) {
        let sys = self.system;
        let n = self.n;
        let ks = sys.stiffness_scale;
        let vals = self.lu.values_mut();
        vals.iter_mut().for_each(|x| *x = 0.0);
        for &(slot, mass, damping, stiffness) in &self.a_slots {
            vals[slot] = mass / (gamma * gamma) + damping / gamma + stiffness;
        }
        match self.contact {
            ContactModel::Penalty { stiffness, damping } => {
                let w = stiffness + damping / gamma;
                for (p, row) in sys.gaps.iter().enumerate() {
                    if !active[p] {
                        continue;
                    }
                    for &(x, sx) in &row.coeffs {
                        for &(y, sy) in &row.coeffs {
                            let pos = self.lu.position(x, y).expect("pattern");
                            self.lu.values_mut()[pos] += w * sx * sy;
                        }
                    }
                }
            }
            ContactModel::Ncp { c } => {
                for (p, row) in sys.gaps.iter().enumerate() {
                    let r = n + p;
                    for &(x, sx) in &row.coeffs {
                        // d R_x / d lambda_p = -G_px.
                        let pos = self.lu.position(x, r).expect("pattern");
                        self.lu.values_mut()[pos] = -sx;
                        if active[p] {
                            // d Phi_p / d q_x = c G_px, scaled by ks / c.
                            let pos = self.lu.position(r, x).expect("pattern");
                            self.lu.values_mut()[pos] = sx * ks;
                        }
                    }
                    let pos = self.lu.position(r, r).expect("pattern");
                    if !active[p] {
                        self.lu.values_mut()[pos] = ks / c;
                    } else if regularized {
                        // delta times the diagonal of the
                        // Schur complement k_s G A^-1 G^T,
                        // with A by its diagonal.
                        let schur: f64 = row
                            .coeffs
                            .iter()
                            .map(|&(x, sx)| {
                                let key = (x, x);
                                let a = sys.mass[x] / (gamma * gamma)
                                    + sys.damping.get(&key).unwrap_or(&0.0) / gamma
                                    + sys.stiffness.get(&key).unwrap_or(&0.0);
                                sx * sx / a
                            })
                            .sum();
                        self.lu.values_mut()[pos] = REDUNDANT_COMPLIANCE * ks * schur;
                    }
                }
            }
        }
    }
}
