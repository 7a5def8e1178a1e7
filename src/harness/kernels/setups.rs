//! The setup of each kernel of [`super::KERNELS`]: the model, the state it
//! starts from (reached outside the measured region) and the work of one
//! measured run, with the counters that work reports. The models are the
//! repository's benchmark models (the same as `benches/`); they are leaked
//! (`Box::leak`) because the steppers borrow them and the kernel process
//! ends after one kernel.

use std::path::Path;

use super::{Counters, KernelInfo, Work};
use crate::contact::friction::{Coulomb, FrictionLaw};
use crate::integrators::bdf_contact::{BdfContact, BdfState, ContactModel, Stepping};
use crate::integrators::moreau::{MoreauState, MoreauStepper};
use crate::integrators::newmark::{
    self, DenseLcpStep, NewmarkParams, SparseNewtonStep, StepSolver, Stepper,
};
use crate::integrators::rk::{Dopri5, Rk4};
use crate::lcp::{self, Lcp, LcpOptions, LcpSolverKind, LcpStatus};
use crate::models::belt::Belt;
use crate::models::blades::{BladePair, BladePairParams};
use crate::models::gap_system::{Chain, GapSystem, Harmonic};
use crate::models::slider_crank::{Drive, JournalBearingParams, SliderCrank};
use crate::models::valve_spring::{CamLift, Spring, tu_delft};
use crate::multibody::{Body, Formulation, Mechanism};
use crate::problem::FirstOrderOde;

fn counters(list: &[(&str, usize)]) -> Counters {
    list.iter()
        .map(|&(k, v)| (k.to_string(), v as f64))
        .collect()
}

/// The work of kernel `info`.
pub fn prepare(info: &KernelInfo, root: &Path) -> Result<Work, String> {
    match (info.case, info.method) {
        ("chain-1000", "newmark-lcp-step") => chain(true),
        ("chain-1000", "newmark-ssn-step") => chain(false),
        ("valve-spring", "ncp-bdf1-step") => spring(true),
        ("valve-spring", "penalty-bdf1-step") => spring(false),
        ("slider-crank-clearance", "rk4-step") => crank(false),
        ("slider-crank-clearance", "dopri5-step") => crank(true),
        ("shrouded-blades", "moreau-step") => blades(),
        ("belt", "moreau-1000-steps") => belt(),
        ("lcp-collection", "lemke") => lemke(root),
        ("calibration", "fixed-kernel") => Ok(Box::new(|| {
            std::hint::black_box(super::calibration::work());
            Ok(Counters::new())
        })),
        _ => Err(format!("kernel {} has no setup", info.name())),
    }
}

const CHAIN_N: usize = 1000;
/// Steps to the chain's representative state (the warm-up step is the
/// 150th, the measured one the 151st).
const CHAIN_STEPS: usize = 149;

/// The chain-1000 kernels: drive the sparse step 149 steps, then step with
/// the dense LCP (`dense`) or the sparse Newton step.
fn chain(dense: bool) -> Result<Work, String> {
    let sys: &'static GapSystem = Box::leak(Box::new(Chain::benchmark(CHAIN_N).system(Harmonic {
        amplitude: vec![60.0],
        omega: 10.0,
    })));
    let p = NewmarkParams {
        dt: 0.01,
        steps: CHAIN_STEPS + 2,
        alpha_b: 0.0,
        output_every: 1,
        lcp_solver: LcpSolverKind::Lemke,
        lcp_options: LcpOptions::default(),
    };
    let zeros = vec![0.0; CHAIN_N];
    let k_sparse = newmark::effective_stiffness_sparse(sys, &p);
    let mut ssn = SparseNewtonStep::new(sys, &k_sparse).map_err(|e| e.to_string())?;
    let mut stepper = Stepper::new(sys, &p, &zeros, &zeros).map_err(|e| e.to_string())?;
    for _ in 0..CHAIN_STEPS {
        stepper.advance(&mut ssn).map_err(|e| e.to_string())?;
    }
    if dense {
        let k_dense = newmark::effective_stiffness(sys, &p);
        let mut lcp_step =
            DenseLcpStep::new(sys, &k_dense, LcpSolverKind::Lemke, LcpOptions::default())
                .map_err(|e| e.to_string())?;
        return Ok(Box::new(move || {
            let pivots = stepper.advance(&mut lcp_step).map_err(|e| e.to_string())?;
            Ok(counters(&[
                ("lcp_pivots", pivots),
                ("active", lcp_step.active()),
            ]))
        }));
    }
    Ok(Box::new(move || {
        let before = ssn.factorizations();
        let iterations = stepper.advance(&mut ssn).map_err(|e| e.to_string())?;
        Ok(counters(&[
            ("newton_iterations", iterations),
            ("factorizations", ssn.factorizations() - before),
            ("active", ssn.active()),
        ]))
    }))
}

const SPRING_DT: f64 = 1e-5;

/// The valve-spring kernels: one BDF1 step from the state at t = 4.2 ms of
/// a fixed-step BDF2 run with the same contact model.
fn spring(ncp: bool) -> Result<Work, String> {
    let spring = Spring::new(tu_delft())?;
    let cam = CamLift {
        lift: 8e-3,
        rise_angle: std::f64::consts::PI / 3.0,
        dwell_angle: 0.0,
        cam_speed: 40.0,
    };
    let model = if ncp {
        ContactModel::Ncp {
            c: spring.segment_stiffness,
        }
    } else {
        ContactModel::Penalty {
            stiffness: 1e8,
            damping: 0.0,
        }
    };
    let system = Box::leak(Box::new(spring.prescribed_system(cam)));
    let mut bdf = BdfContact::new(system, model)?;
    let start = BdfState {
        t: 0.0,
        q: spring.installed_state(),
        v: vec![0.0; spring.dofs()],
        lambda: vec![0.0; spring.pairs.len()],
    };
    let mut state = start.clone();
    bdf.integrate(
        start,
        4.2e-3,
        Stepping::Fixed {
            dt: SPRING_DT,
            order: 2,
        },
        10_000,
        &mut |s| state = s.clone(),
    )
    .map_err(|e| e.to_string())?;
    let mut bdf = BdfContact::new(system, model)?;
    Ok(Box::new(move || {
        let before = bdf.stats;
        let t_end = state.t + SPRING_DT;
        bdf.integrate(
            state.clone(),
            t_end,
            Stepping::Fixed {
                dt: SPRING_DT,
                order: 1,
            },
            10,
            &mut |s| {
                std::hint::black_box(s.q[0]);
            },
        )
        .map_err(|e| e.to_string())?;
        let after = bdf.stats;
        Ok(counters(&[
            ("steps", after.steps - before.steps),
            (
                "newton_iterations",
                after.newton_iterations - before.newton_iterations,
            ),
            (
                "factorizations",
                after.factorizations - before.factorizations,
            ),
        ]))
    }))
}

const CRANK_OMEGA: f64 = 523.6;
const CRANK_DT: f64 = 1e-6;

/// The Lopez-Lombardero et al. (2024) slider-crank of `benches/slider_crank.rs`.
fn mechanism() -> SliderCrank {
    SliderCrank {
        crank_length: 0.05,
        rod_length: 0.12,
        crank: Body {
            mass: 0.30,
            inertia: 1e-5,
        },
        rod: Body {
            mass: 0.087,
            inertia: 1.044e-4,
        },
        slider: Body {
            mass: 0.14,
            inertia: 1.4e-5,
        },
        gravity: 0.0,
    }
}

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

/// The slider-crank kernels: one fixed step of RK4 or Dormand-Prince of
/// eq. (4) with the clearance joint, from crank angle 1 rad with the
/// journal 1 micrometre deep in the bearing.
fn crank(dopri: bool) -> Result<Work, String> {
    let m = mechanism();
    let drive = Drive::ConstantSpeed {
        phi0: 0.0,
        omega: CRANK_OMEGA,
    };
    let mut mech: Mechanism<9, 7, 16> = Mechanism::new(
        m.bodies(),
        m.constraints(false, drive),
        Formulation::Eliminated,
    )
    .map_err(|e| format!("{e:?}"))?;
    mech.clearance.push(m.clearance_joint(JournalBearingParams {
        journal_radius: 0.00995,
        bearing_radius: 0.010,
        law: crate::multibody::StiffnessLaw::Point {
            stiffness: crate::multibody::hertz_stiffness(0.010, 0.00995, 2.07e11, 0.3),
        },
        restitution: 0.9,
        friction: 0.02,
        friction_speed: 1e-4,
        reference_speed: crate::multibody::contact::REFERENCE_SPEED,
    }));
    let (q, qd) = m.initial_state(1.0, CRANK_OMEGA);
    let mut y0 = [0.0; 18];
    y0[..9].copy_from_slice(&q);
    y0[9..].copy_from_slice(&qd);
    // Rod (body 1) shifted along x by the clearance + 1 micrometre.
    y0[3] += 5e-5 + 1e-6;
    let mech: &'static Mechanism<9, 7, 16> = Box::leak(Box::new(mech));
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
            dp.step(&ode, 0.0, CRANK_DT, &mut y);
        } else {
            rk4.step(&ode, 0.0, CRANK_DT, &mut y);
        }
        std::hint::black_box(y);
        Ok(counters(&[("rhs_evaluations", ode.calls.get())]))
    }))
}

const BLADES_DT: f64 = 1e-6;

/// The shrouded-blades kernel: Moreau steps of the default model with
/// Coulomb friction mu = 0.2, the measured one after 2000 + 1 steps.
fn blades() -> Result<Work, String> {
    let model: &'static BladePair =
        Box::leak(Box::new(BladePair::new(&BladePairParams::default())?));
    let law = FrictionLaw::Constant { mu: 0.2 };
    let mut stepper = MoreauStepper::new(model, law, BLADES_DT)?;
    let mut state = model.moreau_state();
    for _ in 0..2000 {
        stepper.step(&mut state)?;
    }
    Ok(Box::new(move || {
        let report = stepper.step(&mut state)?;
        Ok(counters(&[
            ("pgs_sweeps", report.sweeps),
            ("sticking", report.sticking),
        ]))
    }))
}

/// The belt kernel: 1000 Moreau steps of the stick-slip study's system.
fn belt() -> Result<Work, String> {
    let belt = Belt {
        mass: 1.0,
        stiffness: 20.0,
        belt_speed: 0.1,
        normal_force: 9.81,
    };
    let law = FrictionLaw::Coulomb(Coulomb {
        static_coefficient: 0.15,
        kinetic_coefficient: 0.10,
    });
    // The stepper borrows the belt; the kernel process ends after one kernel.
    let belt: &'static Belt = Box::leak(Box::new(belt));
    let mut stepper = MoreauStepper::new(belt, law, 1e-3)?;
    let mut state = MoreauState::new(vec![0.0], vec![0.1], 1);
    Ok(Box::new(move || {
        let (mut stick, mut newton) = (0usize, 0usize);
        for _ in 0..1000 {
            let step = stepper.step(&mut state)?;
            stick += stepper.stuck(0) as usize;
            newton += step.newton_iterations;
        }
        Ok(counters(&[
            ("steps", 1000),
            ("stick_steps", stick),
            ("newton_iterations", newton),
        ]))
    }))
}

/// The LCP collection kernel: every `.dat` file of reference-data/lcp/
/// (sorted by name), each solved by Lemke.
fn lemke(root: &Path) -> Result<Work, String> {
    let dir = root.join("reference-data/lcp");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dat"))
        .collect();
    files.sort();
    let problems: Vec<Lcp> = files
        .iter()
        .map(|f| lcp::read_siconos_file(f).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    if problems.is_empty() {
        return Err(format!("no .dat file in {}", dir.display()));
    }
    let options = LcpOptions::default();
    Ok(Box::new(move || {
        let (mut pivots, mut solved) = (0usize, 0usize);
        for p in &problems {
            let s = lcp::solve(p, LcpSolverKind::Lemke, &options, None);
            pivots += s.iterations;
            solved += (s.status == LcpStatus::Solved) as usize;
        }
        Ok(counters(&[
            ("problems", problems.len()),
            ("solved", solved),
            ("lcp_pivots", pivots),
        ]))
    }))
}
