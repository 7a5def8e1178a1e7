//! The slider-crank kernels' work: one fixed step of RK4 or
//! Dormand-Prince of the mechanism with the clearance joint in contact, of
//! the mechanism with kinematic joints by eq. (1) (augmented) or eq. (4),
//! RK4 with Baumgarte on the free mechanism, and an adaptive
//! Dormand-Prince solve over a short span.

use nalgebra::{Const, DimMin};

use crate::fixtures::slider_crank as fixture;
use crate::harness::kernels::{Work, counters};
use crate::integrators::rk::{Dopri5, Rk4, Tolerances};
use crate::multibody::{Baumgarte, Formulation, Mechanism};
use crate::problem::FirstOrderOde;
use crate::studies::slider_crank::run::error_magnitudes;

/// The clearance kernels' step [s].
const DT: f64 = 1e-6;

/// The fixed step of RK4 on slider-crank-ideal [s] (its sweep's middle).
const RK4_DT: f64 = 2.5e-5;

/// The fixed step of slider-crank-dopri5-order [s] (its sweep's middle).
const DOPRI5_DT: f64 = 1e-4;

/// The free mechanism's step [s] (slider-crank-free).
const FREE_DT: f64 = 1e-4;

/// The adaptive solve: its tolerance (rtol = atol, slider-crank-ideal's
/// sweep middle), first step and span [s].
const TOLERANCE: f64 = 1e-8;
const FIRST_STEP: f64 = 2.5e-5;
const SPAN: f64 = 1e-3;

/// Which fixed-step integrator.
#[derive(Clone, Copy)]
pub enum Fixed {
    /// RK4.
    Rk4,
    /// Dormand-Prince 5(4) without error control.
    Dopri5,
}

/// One fixed step of `mech` from `y0` at `t0` by `integrator` with step
/// `dt`; the mechanism is leaked (the kernel process ends after one
/// kernel).
fn fixed_step<const R: usize, const NR: usize>(
    mech: Mechanism<9, R, NR>,
    y0: [f64; 18],
    t0: f64,
    integrator: Fixed,
    dt: f64,
) -> Result<Work, String>
where
    Const<NR>: DimMin<Const<NR>, Output = Const<NR>>,
{
    let mech: &'static Mechanism<9, R, NR> = Box::leak(Box::new(mech));
    let mut rk4 = Rk4::new(18);
    let mut dp = Dopri5::new(18);
    Ok(Box::new(move || {
        let ode = Counting::new(mech);
        let mut y = y0;
        match integrator {
            Fixed::Rk4 => rk4.step(&ode, t0, dt, &mut y),
            Fixed::Dopri5 => {
                dp.reset();
                dp.step(&ode, t0, dt, &mut y);
            }
        }
        std::hint::black_box(y);
        Ok(counters(&[("rhs_evaluations", ode.calls())]))
    }))
}

/// The driven mechanism's time at crank angle [`fixture::PHI`] [s].
fn t_phi() -> f64 {
    fixture::PHI / fixture::OMEGA
}

/// One fixed step of the ideal driven mechanism with `formulation` at
/// crank angle 1 rad, 5000 rpm.
pub fn ideal_step(formulation: Formulation, integrator: Fixed) -> Result<Work, String> {
    let dt = match integrator {
        Fixed::Rk4 => RK4_DT,
        Fixed::Dopri5 => DOPRI5_DT,
    };
    fixed_step(
        fixture::ideal(formulation)?,
        fixture::state(false),
        t_phi(),
        integrator,
        dt,
    )
}

/// One RK4 step of the free mechanism (eq. 4) with Baumgarte
/// alpha = beta = 20 1/s at crank angle 1 rad turning at 100 rad/s.
pub fn free_baumgarte_step() -> Result<Work, String> {
    let mech = fixture::free(
        Formulation::Eliminated,
        Baumgarte {
            alpha: 20.0,
            beta: 20.0,
        },
    )?;
    fixed_step(mech, fixture::free_state(), 0.0, Fixed::Rk4, FREE_DT)
}

/// Adaptive Dormand-Prince (rtol = atol = 1e-8, the study's error
/// magnitudes) of the ideal driven mechanism with `formulation` over
/// 1e-3 s from crank angle 1 rad, first step 2.5e-5 s.
pub fn ideal_adaptive(formulation: Formulation) -> Result<Work, String> {
    let mech: &'static Mechanism<9, 9, 18> = Box::leak(Box::new(fixture::ideal(formulation)?));
    let y0 = fixture::state(false);
    let mut q0 = [0.0; 9];
    q0.copy_from_slice(&y0[..9]);
    let t0 = t_phi();
    let mut dp = Dopri5::with_magnitudes(error_magnitudes(&q0));
    Ok(Box::new(move || {
        dp.reset();
        dp.stats = Default::default();
        let mut y = y0;
        dp.integrate(
            mech,
            t0,
            t0 + SPAN,
            &mut y,
            FIRST_STEP,
            Tolerances {
                rtol: TOLERANCE,
                atol: TOLERANCE,
            },
            1000,
            &[],
            &mut |_, _| {},
            &mut |t, y| {
                let (q, qd) = y.split_at(9);
                mech.accept(t, q, qd)
            },
        )
        .map_err(|e| e.to_string())?;
        std::hint::black_box(y);
        Ok(counters(&[
            ("steps", dp.stats.accepted),
            ("rejected_steps", dp.stats.rejected),
            ("rhs_evaluations", dp.stats.evaluations),
        ]))
    }))
}

/// Counts the right-hand-side evaluations of an ODE.
pub(super) struct Counting<'a> {
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
pub fn clearance_step(dopri: bool) -> Result<Work, String> {
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
