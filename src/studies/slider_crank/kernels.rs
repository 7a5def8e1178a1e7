//! The slider-crank kind's per-step kernels (`harness::kernels`): one
//! fixed step of RK4 and of Dormand-Prince of eq. (4) with the clearance
//! joint in contact.

use crate::fixtures::slider_crank as fixture;
use crate::harness::kernels::{Kernel, KernelInfo, Work, counters};
use crate::integrators::rk::{Dopri5, Rk4};
use crate::multibody::{Formulation, Mechanism};
use crate::problem::FirstOrderOde;

/// The measured step [s].
const DT: f64 = 1e-6;

/// The kind's kernels.
pub const KERNELS: [Kernel; 2] = [
    Kernel {
        info: KernelInfo {
            case: "slider-crank-clearance",
            method: "rk4-step",
            what: "one RK4 step of 1e-6 s of the slider-crank (eq. 4, multipliers eliminated) with \
                   the clearance joint in contact (journal 1 micrometre deep), 5000 rpm",
        },
        prepare: |_| clearance_step(false),
    },
    Kernel {
        info: KernelInfo {
            case: "slider-crank-clearance",
            method: "dopri5-step",
            what: "one Dormand-Prince 5(4) step of 1e-6 s of the same mechanism and state",
        },
        prepare: |_| clearance_step(true),
    },
];

/// Counts the right-hand-side evaluations of an ODE.
struct Counting<'a> {
    inner: &'a dyn FirstOrderOde,
    calls: std::cell::Cell<usize>,
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
