//! The JSON object printed by `lcp solve` (ARCHITECTURE.md, fixed interface):
//! `{"status", "z", "residual", "iterations", "solver"}` followed by the
//! extra keys `"n"` and, when there is one, `"message"`. JSON has no NaN or
//! infinity: a non-finite residual or z entry is written as `null`.

use crate::lcp::solver::{LcpOptions, LcpSolverKind, solve};
use crate::lcp::{Lcp, LcpSolution};
use serde_json::{Map, Value};

/// Solves `lcp` with `kind` (no warm start) and returns the JSON object.
pub fn solve_json(lcp: &Lcp, kind: LcpSolverKind, options: &LcpOptions) -> Value {
    solution_json(&solve(lcp, kind, options, None))
}

/// The JSON object of a solution.
pub fn solution_json(solution: &LcpSolution) -> Value {
    let mut map = Map::new();
    map.insert("status".into(), Value::from(solution.status.as_str()));
    map.insert(
        "z".into(),
        Value::Array(solution.z.iter().map(|&v| finite_number(v)).collect()),
    );
    map.insert("residual".into(), finite_number(solution.residual));
    map.insert("iterations".into(), Value::from(solution.iterations));
    map.insert("solver".into(), Value::from(solution.solver));
    map.insert("n".into(), Value::from(solution.z.len()));
    if let Some(message) = &solution.message {
        map.insert("message".into(), Value::from(message.as_str()));
    }
    Value::Object(map)
}

/// A JSON number, or `null` for NaN and infinities.
fn finite_number(v: f64) -> Value {
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcp::LcpStatus;
    use nalgebra::{DMatrix, DVector};

    #[test]
    fn has_the_documented_keys() {
        let p = Lcp::new(
            DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]),
            DVector::from_column_slice(&[-5.0, -6.0]),
        )
        .unwrap();
        let v = solve_json(&p, LcpSolverKind::Lemke, &LcpOptions::default());
        assert_eq!(v["status"], "solved");
        assert_eq!(v["solver"], "lemke");
        assert_eq!(v["iterations"], 3);
        assert_eq!(v["n"], 2);
        assert!(v["residual"].as_f64().unwrap() <= 1e-12);
        let z: Vec<f64> = v["z"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert!((z[0] - 4.0 / 3.0).abs() < 1e-14);
        assert!(v.get("message").is_none());
    }

    #[test]
    fn non_finite_numbers_become_null() {
        let s = LcpSolution {
            status: LcpStatus::Failed,
            z: vec![f64::NAN, 1.0],
            residual: f64::INFINITY,
            iterations: 0,
            solver: "pgs",
            message: Some("diverged".into()),
        };
        let v = solution_json(&s);
        assert_eq!(v["status"], "failed");
        assert!(v["residual"].is_null());
        assert!(v["z"][0].is_null());
        assert_eq!(v["z"][1], 1.0);
        assert_eq!(v["message"], "diverged");
        // Serialises (serde_json refuses NaN numbers).
        assert!(
            serde_json::to_string(&v)
                .unwrap()
                .contains("\"residual\":null")
        );
    }
}
