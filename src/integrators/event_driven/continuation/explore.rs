use super::*;
use crate::problem::{GapSprings, Harmonic};
use crate::sparse::csr_from_rows;

#[test]
#[ignore]
fn three_dof_explore() {
    let f: f64 = std::env::var("F")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let from: f64 = std::env::var("FROM")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.25);
    let to: f64 = std::env::var("TO")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.3);
    let system = GapSystem {
        mass: csr_from_rows(&[
            vec![1.0, 0.0, 0.0],
            vec![0.0, 1.5, 0.0],
            vec![0.0, 0.0, 2.0],
        ]),
        damping: csr_from_rows(&[
            vec![0.064, -0.024, 0.0],
            vec![-0.024, 0.07, -0.016],
            vec![0.0, -0.016, 0.056],
        ]),
        stiffness: csr_from_rows(&[
            vec![2.2, -1.2, 0.0],
            vec![-1.2, 2.0, -0.8],
            vec![0.0, -0.8, 0.8],
        ]),
        springs: GapSprings {
            directions: csr_from_rows(&[
                vec![1.0, 0.0, 0.0],
                vec![-1.0, 1.0, 0.0],
                vec![0.0, 0.0, -1.0],
            ]),
            gaps: vec![0.3, 0.2, 0.4],
            stiffness: vec![5.0, 3.0, 8.0],
        },
        excitation: Harmonic {
            amplitude: vec![0.5 * f, 0.0, f],
            omega: 1.0,
        },
    };
    let options = ContinuationOptions {
        omega_from: from,
        omega_to: to,
        ..ContinuationOptions::default()
    };
    let t0 = std::time::Instant::now();
    let branch = continue_orbits(&system, &options, &EventDrivenOptions::default());
    let branch = match branch {
        Ok(b) => b,
        Err(e) => {
            eprintln!("ERR {e} {:?}", t0.elapsed());
            return;
        }
    };
    eprintln!(
        "{} points, {} flows, {} rejected, {:?}",
        branch.points.len(),
        branch.flows,
        branch.rejected_steps,
        t0.elapsed()
    );
    for p in branch
        .points
        .iter()
        .filter(|p| p.kind != PointKind::Regular)
    {
        eprintln!(
            "{:?} omega {} A {} |l| {:?}",
            p.kind,
            p.omega,
            p.amplitude,
            p.multipliers
                .iter()
                .take(2)
                .map(|c| c.norm())
                .collect::<Vec<_>>()
        );
    }
    let mut last = 0.0;
    for p in &branch.points {
        if (p.omega - last).abs() > 0.05 {
            eprintln!("  w {:.3} A {:.4} st {}", p.omega, p.amplitude, p.stable);
            last = p.omega;
        }
    }
}
