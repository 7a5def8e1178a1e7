//! Planar multibody dynamics in absolute coordinates: rigid bodies with
//! q_i = [x_i, y_i, phi_i], kinematic constraints (revolute, prismatic,
//! driving) with their Jacobians and acceleration right-hand sides,
//! revolute joints with clearance as contact forces, and the equations of
//! motion in the augmented (index-1 DAE) or eliminated (ODE) form, with
//! Baumgarte stabilisation (Hrabacka, Hajzman, Byrtus, Dyk, Bulin & Smolik,
//! Computational Mechanics 2023, eqs. (1)-(4); Shabana, *Computational
//! Dynamics*, 2010; Flores et al., *Kinematics and Dynamics of Multibody
//! Systems with Imperfect Joints*, 2008). No harness imports: the
//! `slider-crank` study kind builds on it.

pub mod body;
pub mod constraints;
pub mod contact;
pub mod system;

pub use crate::contact::normal::{
    StiffnessLaw, contact_modulus, hertz_stiffness, line_contact_force,
};
pub use body::{Body, Point};
pub use constraints::{Constraint, Driving, PrismaticGround, Revolute};
pub use contact::{ClearanceJoint, ContactState, JournalBearing};
pub use system::{Baumgarte, Dynamics, Formulation, Mechanism, MechanismError, Work};
