//! The slider-crank kind's per-step kernels (`harness::kernels`): one
//! fixed step of RK4 and of Dormand-Prince of eq. (4) with the clearance
//! joint in contact; the kernels of the mechanism with kinematic joints
//! are in [`ideal`].

mod ideal;

use crate::fixtures::slider_crank as fixture;
use crate::harness::kernels::{Kernel, KernelInfo, LeftOut, Work, counters};
use crate::integrators::rk::{Dopri5, Rk4};
use crate::multibody::{Formulation, Mechanism};
use crate::problem::FirstOrderOde;

/// The measured step [s].
const DT: f64 = 1e-6;

/// Every method the kind times has a kernel.
pub const LEFT_OUT: LeftOut = &[];

/// The kind's kernels.
pub const KERNELS: [Kernel; 8] = [
    Kernel {
        info: KernelInfo {
            kind: "slider-crank",
            timed: "rk4-eliminated",
            case: "slider-crank-clearance",
            method: "rk4-step",
            what: "one RK4 step of 1e-6 s of the slider-crank (eq. 4, multipliers eliminated) with \
                   the clearance joint in contact (journal 1 micrometre deep), 5000 rpm",
        },
        prepare: |_| clearance_step(false),
    },
    Kernel {
        info: KernelInfo {
            kind: "slider-crank",
            timed: "dopri5-eliminated",
            case: "slider-crank-clearance",
            method: "dopri5-step",
            what: "one Dormand-Prince 5(4) step of 1e-6 s of the same mechanism and state",
        },
        // The trial step of the adaptive dopri5-eliminated runs of the
        // clearance studies (its error control aside).
        prepare: |_| clearance_step(true),
    },
    Kernel {
        info: KernelInfo {
            kind: "slider-crank",
            timed: "rk4-augmented",
            case: "slider-crank-ideal",
            method: "rk4-augmented-step",
            what: "one RK4 step of 2.5e-5 s of the slider-crank with kinematic joints (eq. 1, one LU \
                   of the augmented matrix per evaluation) at crank angle 1 rad, 5000 rpm",
        },
        prepare: |_| ideal::ideal_step(Formulation::Augmented, ideal::Fixed::Rk4),
    },
    Kernel {
        info: KernelInfo {
            kind: "slider-crank",
            timed: "rk4-baumgarte",
            case: "slider-crank-free",
            method: "rk4-baumgarte-step",
            what: "one RK4 step of 1e-4 s of the free slider-crank (eq. 4) with Baumgarte \
                   alpha = beta = 20 1/s at crank angle 1 rad turning at 100 rad/s",
        },
        prepare: |_| ideal::free_baumgarte_step(),
    },
    Kernel {
        info: KernelInfo {
            kind: "slider-crank",
            timed: "dopri5-fixed-augmented",
            case: "slider-crank-ideal",
            method: "dopri5-fixed-augmented-step",
            what: "one Dormand-Prince 5(4) step of 1e-4 s without error control of the slider-crank \
                   with kinematic joints (eq. 1) at crank angle 1 rad, 5000 rpm",
        },
        prepare: |_| ideal::ideal_step(Formulation::Augmented, ideal::Fixed::Dopri5),
    },
    Kernel {
        info: KernelInfo {
            kind: "slider-crank",
            timed: "dopri5-fixed-eliminated",
            case: "slider-crank-ideal",
            method: "dopri5-fixed-eliminated-step",
            what: "one Dormand-Prince 5(4) step of 1e-4 s without error control of the same \
                   mechanism by eq. (4)",
        },
        prepare: |_| ideal::ideal_step(Formulation::Eliminated, ideal::Fixed::Dopri5),
    },
    Kernel {
        info: KernelInfo {
            kind: "slider-crank",
            timed: "dopri5-augmented",
            case: "slider-crank-ideal",
            method: "dopri5-augmented-solve",
            what: "adaptive Dormand-Prince (rtol = atol = 1e-8) of the same mechanism by eq. (1) over \
                   1e-3 s from crank angle 1 rad, first step 2.5e-5 s",
        },
        prepare: |_| ideal::ideal_adaptive(Formulation::Augmented),
    },
    Kernel {
        info: KernelInfo {
            kind: "slider-crank",
            timed: "rk4-eliminated",
            case: "slider-crank-ideal",
            method: "rk4-eliminated-step",
            what: "one RK4 step of 2.5e-5 s of the slider-crank with kinematic joints by eq. (4) at \
                   crank angle 1 rad, 5000 rpm (the ideal joint's step; rk4-step is the clearance \
                   joint's)",
        },
        prepare: |_| ideal::ideal_step(Formulation::Eliminated, ideal::Fixed::Rk4),
    },
];

/// Counts the right-hand-side evaluations of an ODE.
struct Counting<'a> {
    inner: &'a dyn FirstOrderOde,
    calls: std::cell::Cell<usize>,
}

impl<'a> Counting<'a> {
    /// `inner`, no evaluation counted yet.
    fn new(inner: &'a dyn FirstOrderOde) -> Self {
        Self {
            inner,
            calls: std::cell::Cell::new(0),
        }
    }

    /// The evaluations so far.
    fn calls(&self) -> usize {
        self.calls.get()
    }
}

impl FirstOrderOde for Counting<'_> {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.calls.set(self.calls.get() + 1);
        self.inner.rhs(t, y, dy);
    }
}

/// One fixed step of RK4 or Dormand-Prince (`dopri`) of eq. (4) with the
/// clearance joint, from crank angle 1 rad with the journal 1 micrometre
/// deep in the bearing. The mechanism is leaked (the kernel process ends
/// after one kernel).
fn clearance_step(dopri: bool) -> Result<Work, String> {
    let mech: &'static Mechanism<9, 7, 16> =
        Box::leak(Box::new(fixture::clearance(Formulation::Eliminated)?));
    let y0 = fixture::state(true);
    let mut rk4 = Rk4::new(mech.dim());
    let mut dp = Dopri5::new(mech.dim());
    Ok(Box::new(move || {
        let ode = Counting {
            inner: mech,
            calls: std::cell::Cell::new(0),
        };
        let mut y = y0;
        if dopri {
            dp.reset();
            dp.step(&ode, 0.0, DT, &mut y);
        } else {
            rk4.step(&ode, 0.0, DT, &mut y);
        }
        std::hint::black_box(y);
        Ok(counters(&[("rhs_evaluations", ode.calls.get())]))
    }))
}
