//! Spec tables and summaries that more than one kind takes: a kind imports
//! these, never another kind. [`friction`]: the `[friction]` table (a law
//! and its parameters); [`figures`]: the cost-against-regularisation figure
//! of the kinds with regularised laws, the valve kinds' curves against the
//! cam angle, and what captions name; [`valve`]: the `[spring]` and
//! `[cam]` tables and the contact-and-stepping keys of the valve-spring
//! and valvetrain kinds; [`seat_force`]: their seat-force error measures
//! and the spring's quasi-static curve; [`like_for_like`]: their one
//! reference loop (the fine NCP run, each penalty model converged, each
//! method graded against its own); [`span`]: the step, span and
//! sampling of the slider-crank and stick-slip kinds; [`slope`]: a
//! method's log-log slope over the cases as a study scalar;
//! [`ode_kernel`]: the per-step kernel of an adaptive Dormand-Prince run
//! (the stick-slip and shrouded-blades kinds' ODE methods); [`bdf_kernel`]:
//! one BDF2 step of the contact BDF (the valve kinds' kernels).

pub(crate) mod bdf_kernel;
pub(crate) mod figures;
pub(crate) mod friction;
pub(crate) mod friction_method;
pub(crate) mod like_for_like;
pub(crate) mod ode_kernel;
pub(crate) mod seat_force;
pub(crate) mod slope;
pub(crate) mod span;
pub(crate) mod valve;
