//! Contact laws, one place for every model: normal laws ([`normal`]:
//! Signorini, penalty, Hertz-type with Lankarani-Nikravesh / Hunt-Crossley
//! damping), tangential laws ([`friction`]: regularised, set-valued and
//! LuGre), and the impulse form of both over one time step ([`impulse`]:
//! the local problems of the Moreau stepper). The models keep their
//! geometry; no harness, study or model imports.

pub mod friction;
pub mod impulse;
pub mod normal;
