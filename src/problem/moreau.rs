//! A linear mechanical system with frictional contacts as the Moreau-Jean
//! stepper sees it (`integrators::moreau`): M q'' + B q' + K q = s(t) f +
//! sum_j H_j^T r_j, its matrices as products, its factored iteration
//! matrix W = M + th h B + th^2 h^2 K, and per contact the map H_j over a
//! common set of contact DOFs (two tangential rows, then the normal), its
//! kinematics and its laws. The mass on the belt and the blade pair
//! implement it.

use crate::contact::impulse::SlipCoefficient;
use crate::contact::normal::Penalty;

/// A factored iteration matrix W.
pub trait IterationMatrix {
    /// x <- W^-1 x.
    fn solve_in_place(&self, x: &mut [f64]);
}

/// The normal law of a contact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NormalLaw {
    /// A persistent contact with a prescribed normal force N [N] (the
    /// belt's weight): P_N = h N.
    Prescribed(f64),
    /// The unilateral penalty law, implicit at the theta point.
    Penalty(Penalty),
}

/// The laws of one contact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactLaw {
    /// Its normal law.
    pub normal: NormalLaw,
    /// Two tangential directions (rows 0 and 1 of H_j), or one (row 0;
    /// row 1 is not used).
    pub planar: bool,
    /// Where a set-valued law's slip coefficient is evaluated (in the
    /// plane; a line contact is always implicit).
    pub slip_coefficient: SlipCoefficient,
}

/// A linear mechanical system with contacts, as the Moreau stepper sees
/// it (module doc): its matrices as products, its load, and per contact
/// the map H_j over a common set of contact DOFs, its kinematics and laws.
pub trait MoreauProblem {
    /// The factored W = M + th h B + th^2 h^2 K.
    type Iteration: IterationMatrix;
    /// Number of DOFs.
    fn dofs(&self) -> usize;
    /// Forms and factors W for the step h and theta `th`.
    fn iteration_matrix(&self, h: f64, th: f64) -> Result<Self::Iteration, String>;
    /// y = K x.
    fn stiffness_mul(&self, x: &[f64], y: &mut [f64]);
    /// y = B x.
    fn damping_mul(&self, x: &[f64], y: &mut [f64]);
    /// The load vector f [N].
    fn load_vector(&self) -> &[f64];
    /// The load's time factor s(t).
    fn load_factor(&self, t: f64) -> f64;
    /// Number of contacts.
    fn contact_count(&self) -> usize;
    /// The global DOFs every H_j acts on.
    fn contact_dofs(&self) -> &[usize];
    /// Row r (0, 1: tangential; 2: normal) of H_j over [`contact_dofs`].
    ///
    /// [`contact_dofs`]: MoreauProblem::contact_dofs
    fn contact_row(&self, j: usize, r: usize) -> &[f64];
    /// (penetration g, local velocity c = H_j v + w_j) at (q, v); the
    /// penetration is used by a penalty law only.
    fn contact_kinematics(&self, j: usize, q: &[f64], v: &[f64]) -> (f64, [f64; 3]);
    /// w_j, the local velocity of the contact's moving support, if any.
    fn contact_drift(&self, _j: usize) -> Option<[f64; 3]> {
        None
    }
    /// The laws of contact j.
    fn contact_law(&self, j: usize) -> ContactLaw;
}
