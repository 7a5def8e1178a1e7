use super::*;

fn sdof() -> GapSystem {
    crate::fixtures::gap::sdof(0.1, Some((0.5, 4.0)), 0.15, 1.0)
}

#[test]
fn sdof_branch_has_two_folds() {
    let options = ContinuationOptions {
        omega_from: 0.8,
        omega_to: 1.6,
        ..ContinuationOptions::default()
    };
    let t0 = std::time::Instant::now();
    let branch = continue_orbits(&sdof(), &options, &EventDrivenOptions::default()).unwrap();
    let folds: Vec<(f64, f64)> = branch
        .special(PointKind::Fold)
        .map(|p| (p.omega, p.amplitude))
        .collect();
    eprintln!(
        "{} points, {} flows, {} rejected, {:?}, folds {folds:?}",
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
            "{:?} omega {} A {} |l| {:?} stable {}",
            p.kind,
            p.omega,
            p.amplitude,
            p.multipliers.iter().map(|c| c.norm()).collect::<Vec<_>>(),
            p.stable
        );
    }
    assert_eq!(folds.len(), 2);
}
