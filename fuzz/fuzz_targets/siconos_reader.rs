//! Fuzz target: the Siconos LCP reader, then (for problems up to 16
//! unknowns) every solver on what it read. The reader returns a problem or
//! a format error; a solver may fail but may not panic or hang, and a
//! `solved` answer must satisfy the LCP (its residual recomputed here).
#![no_main]

use contact_harness::lcp::{self, LcpOptions, LcpSolverKind, LcpStatus};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(problem) = lcp::read_siconos(text) else {
        return;
    };
    if problem.dim() > 16 {
        return;
    }
    let options = LcpOptions::default();
    for kind in [
        LcpSolverKind::Auto,
        LcpSolverKind::Lemke,
        LcpSolverKind::Pgs,
        LcpSolverKind::NewtonMin,
        LcpSolverKind::NewtonFb,
        LcpSolverKind::Enumerate,
    ] {
        let solution = lcp::solve(&problem, kind, &options, None);
        if solution.status == LcpStatus::Solved {
            let residual = problem.residual(&solution.z);
            assert!(
                residual <= options.tolerance,
                "{kind:?} says solved, residual {residual:e} > {:e}",
                options.tolerance
            );
        }
    }
});
