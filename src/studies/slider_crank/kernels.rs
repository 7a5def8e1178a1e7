//! The slider-crank kind's per-step kernels (`harness::kernels`): one
//! fixed step of RK4 and of Dormand-Prince of eq. (4) with the clearance
//! joint in contact, and of the mechanism with kinematic joints: RK4 and
//! Dormand-Prince of eq. (1), RK4 with Baumgarte, an adaptive
//! Dormand-Prince solve (their work in [`steps`]).

mod steps;

use crate::harness::kernels::{Kernel, KernelInfo, LeftOut};
use crate::multibody::Formulation;

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
        prepare: |_| steps::clearance_step(false),
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
        prepare: |_| steps::clearance_step(true),
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
        prepare: |_| steps::ideal_step(Formulation::Augmented, steps::Fixed::Rk4),
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
        prepare: |_| steps::free_baumgarte_step(),
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
        prepare: |_| steps::ideal_step(Formulation::Augmented, steps::Fixed::Dopri5),
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
        prepare: |_| steps::ideal_step(Formulation::Eliminated, steps::Fixed::Dopri5),
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
        prepare: |_| steps::ideal_adaptive(Formulation::Augmented),
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
        prepare: |_| steps::ideal_step(Formulation::Eliminated, steps::Fixed::Rk4),
    },
];
