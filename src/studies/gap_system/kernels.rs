//! The gap-system kind's per-step kernels (`harness::kernels`): one
//! Newmark step of chain-1000 with the paper's dense LCP and with the
//! sparse Newton step, from the same state, and Lemke over the Siconos
//! LCP collection; the small systems' kernels are in [`sdof`]. [`LEFT_OUT`]
//! would name the timed methods without a kernel of their own.

mod sdof;

use std::path::Path;

use crate::fixtures::chain;
use crate::harness::kernels::{Kernel, KernelInfo, LeftOut, Work, counters};
use crate::integrators::newmark::{self, DenseLcpStep, StepSolver};
use crate::lcp::{self, Lcp, LcpOptions, LcpSolverKind, LcpStatus};
use crate::problem::GapSystem;

/// Steps to the chain's representative state (the warm-up step is the
/// 150th, the measured one the 151st).
const CHAIN_STEPS: usize = 149;

/// Every method the kind times has a kernel.
pub const LEFT_OUT: LeftOut = &[];

/// The kind's kernels.
pub const KERNELS: [Kernel; 10] = [
    Kernel {
        info: KernelInfo {
            kind: "gap-system",
            timed: "newmark-lcp",
            case: "chain-1000",
            method: "newmark-lcp-step",
            what: "one Newmark step of the 1000-DOF chain with 1000 gaps with the paper's dense LCP \
                   (Lemke), from the state after 150 steps of dt = 0.01 s (about 250 gaps closed)",
        },
        prepare: |_| chain_step(true),
    },
    Kernel {
        info: KernelInfo {
            kind: "gap-system",
            timed: "newmark-ssn",
            case: "chain-1000",
            method: "newmark-ssn-step",
            what: "one Newmark step of the same chain with the sparse semi-smooth Newton step, from \
                   the same state",
        },
        prepare: |_| chain_step(false),
    },
    Kernel {
        // A solver benchmark, not the step of a timed method.
        info: KernelInfo {
            kind: "gap-system",
            timed: "",
            case: "lcp-collection",
            method: "lemke",
            what: "Lemke on every LCP of reference-data/lcp/ (the Siconos collection), read beforehand",
        },
        prepare: lemke,
    },
    Kernel {
        info: KernelInfo {
            kind: "gap-system",
            timed: "newmark-lcp-lemke",
            case: "chain-100",
            method: "newmark-lcp-lemke-step",
            what: "one Newmark step of the 100-DOF chain of chain-scaling with the dense LCP by Lemke, \
                   from the state after 150 steps of dt = 0.01 s",
        },
        prepare: |_| sdof::chain_100_lemke_step(),
    },
    Kernel {
        info: KernelInfo {
            kind: "gap-system",
            timed: "newmark-lcp-pgs",
            case: "sdof-gap",
            method: "newmark-lcp-pgs-step",
            what: "one Newmark step of 0.00125 s of the SDOF of convergence-sdof with the dense LCP by \
                   projected Gauss-Seidel, in contact: after the first step past t = 3.25 s that \
                   closes the gap",
        },
        prepare: |_| sdof::sdof_lcp_step(LcpSolverKind::Pgs),
    },
    Kernel {
        info: KernelInfo {
            kind: "gap-system",
            timed: "newmark-lcp-newton-fb",
            case: "sdof-gap",
            method: "newmark-lcp-newton-fb-step",
            what: "one Newmark step of the same SDOF and state with the LCP by semi-smooth Newton on \
                   the Fischer-Burmeister function",
        },
        prepare: |_| sdof::sdof_lcp_step(LcpSolverKind::NewtonFb),
    },
    Kernel {
        info: KernelInfo {
            kind: "gap-system",
            timed: "event-driven",
            case: "sdof-gap",
            method: "event-driven-period",
            what: "the exact event-driven solution of the same SDOF from rest to the end of its fourth \
                   forcing period (7.9 s each), sampled 65 times over that period",
        },
        prepare: |_| sdof::event_driven_period(),
    },
    Kernel {
        info: KernelInfo {
            kind: "gap-system",
            timed: "continuation",
            case: "sdof-continuation",
            method: "shooting-solve",
            what: "one point of the continuation: the shooting Newton solve of the periodic orbit of \
                   sdof-continuation's oscillator at omega = 1.2 rad/s from the state after 30 periods",
        },
        prepare: |_| sdof::shooting_solve(),
    },
    Kernel {
        info: KernelInfo {
            kind: "gap-system",
            timed: "sweep-up",
            case: "sdof-continuation",
            method: "sweep-up-step",
            what: "one Newmark step (dense LCP by Lemke, dt = T / 400) of sdof-continuation's oscillator at \
                   omega = 1.2 rad/s on the upper branch the up-sweep rides there (the gap closed)",
        },
        prepare: |_| sdof::sweep_step(true),
    },
    Kernel {
        info: KernelInfo {
            kind: "gap-system",
            timed: "sweep-down",
            case: "sdof-continuation",
            method: "sweep-down-step",
            what: "the same step at the same frequency on the lower branch the down-sweep rides there \
                   (the gap open)",
        },
        prepare: |_| sdof::sweep_step(false),
    },
];

/// The chain-1000 kernels: drive the sparse step 149 steps, then step with
/// the dense LCP (`dense`) or the sparse Newton step. The system is leaked
/// (the stepper borrows it; the kernel process ends after one kernel).
fn chain_step(dense: bool) -> Result<Work, String> {
    let sys: &'static GapSystem = Box::leak(Box::new(chain::system(chain::N)));
    let p = chain::params(CHAIN_STEPS + 2);
    let (mut stepper, mut ssn) =
        chain::advanced(sys, &p, CHAIN_STEPS).map_err(|e| e.to_string())?;
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
