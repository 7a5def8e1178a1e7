//! The blade pair as a [`MoreauProblem`]: what the Moreau-Jean stepper
//! integrates with true sticking, the patches' penalty
//! normal law implicit at the theta point and their friction in the
//! contact plane. W = M + th h B + th^2 h^2 K is banded (the two blades'
//! DOFs are ordered along each beam) and factored by [`BandCholesky`]; the
//! patch maps H_j act on the 10 tip DOFs (v, w, theta_z, theta_y, theta_x
//! per blade; theta_x a torsion DOF or a zero column). A set-valued law's
//! slip coefficient is taken at the step's start slip speed
//! ([`SlipCoefficient::StepStart`]: with f(|c+|) the ANSYS law with
//! DC = 2 s/mm makes the sweeps oscillate). The patches of one rigid shroud
//! pair are coupled through the Delassus operator, so the stepper sweeps
//! over them (redundant patches make Gauss-Seidel slow where slip
//! reverses: thousands of sweeps in a step).

use super::BladePair;
use crate::contact::impulse::SlipCoefficient;
use crate::problem::moreau::{ContactLaw, IterationMatrix, MoreauProblem, NormalLaw};
use crate::sparse::band::BandCholesky;

impl IterationMatrix for BandCholesky {
    fn solve_in_place(&self, x: &mut [f64]) {
        BandCholesky::solve_in_place(self, x);
    }
}

impl MoreauProblem for BladePair {
    type Iteration = BandCholesky;

    fn dofs(&self) -> usize {
        BladePair::dofs(self)
    }

    fn iteration_matrix(&self, h: f64, th: f64) -> Result<BandCholesky, String> {
        let [m, b, k] = self.dense_matrices();
        let wm = m + b * (th * h) + k * (th * th * h * h);
        BandCholesky::new(&wm)
    }

    fn stiffness_mul(&self, x: &[f64], y: &mut [f64]) {
        BladePair::stiffness_mul(self, x, y);
    }

    fn damping_mul(&self, x: &[f64], y: &mut [f64]) {
        BladePair::damping_mul(self, x, y);
    }

    fn load_vector(&self) -> &[f64] {
        BladePair::load_vector(self)
    }

    fn load_factor(&self, t: f64) -> f64 {
        BladePair::load_factor(self, t)
    }

    fn contact_count(&self) -> usize {
        self.patch_count()
    }

    fn contact_dofs(&self) -> &[usize] {
        &self.contact().tip_dofs
    }

    fn contact_row(&self, j: usize, r: usize) -> &[f64] {
        &self.contact().patches[j].h[r]
    }

    fn contact_kinematics(&self, j: usize, q: &[f64], v: &[f64]) -> (f64, [f64; 3]) {
        let k = self.contact().kinematics(j, q, v);
        (k.penetration, k.velocity)
    }

    fn contact_law(&self, _j: usize) -> ContactLaw {
        ContactLaw {
            normal: NormalLaw::Penalty(self.contact().penalty),
            planar: true,
            slip_coefficient: SlipCoefficient::StepStart,
        }
    }
}
