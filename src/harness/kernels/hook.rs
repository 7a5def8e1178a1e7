//! A test hook that changes one kernel on purpose, so that the history's
//! judging can be shown to catch it (tests/kernels.rs): the environment
//! variable [`HOOK_VAR`] = `KERNEL=CHANGE` changes kernel `KERNEL`
//! (`case/method`) inside its measured region; every other kernel runs
//! unchanged. Changes:
//! - `extra-passes:N`: after the kernel's own work, N extra passes over a
//!   vector of [`PASS_LEN`] entries (a 1000-DOF state's positions and
//!   velocities), each a dependent sum: a slowdown of the same method, its
//!   counters unchanged (about 5 % of the chain's sparse step at N = 13);
//! - `repeat`: the kernel's work twice, its counters summed: a method that
//!   does more work and says so in its counters.
//!
//! Unset (always, outside those tests), the kernels run as they are.

use super::catalog::{Counters, Work};

/// The environment variable of the hook.
pub const HOOK_VAR: &str = "CONTACT_HARNESS_KERNEL_HOOK";
/// Entries of the vector an extra pass runs over.
pub const PASS_LEN: usize = 2000;

/// A change of a kernel (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// N extra passes over a state-sized vector.
    ExtraPasses(usize),
    /// The work twice, counters summed.
    Repeat,
}

/// The change `hook` (the variable's value) asks of kernel `name`: None
/// when it names another kernel; an error naming the value when it cannot
/// be read.
pub fn parse(hook: &str, name: &str) -> Result<Option<Change>, String> {
    let (kernel, change) = hook.split_once('=').ok_or_else(|| {
        format!("{HOOK_VAR} = `{hook}`: expected KERNEL=extra-passes:N or KERNEL=repeat")
    })?;
    if kernel != name {
        return Ok(None);
    }
    if change == "repeat" {
        return Ok(Some(Change::Repeat));
    }
    let n = change
        .strip_prefix("extra-passes:")
        .and_then(|n| n.parse::<usize>().ok())
        .ok_or_else(|| {
            format!(
                "{HOOK_VAR} = `{hook}`: the change `{change}` is neither extra-passes:N (N a whole \
                 number) nor repeat"
            )
        })?;
    Ok(Some(Change::ExtraPasses(n)))
}

/// `work` with `change` applied.
pub fn apply(mut work: Work, change: Change) -> Work {
    match change {
        Change::ExtraPasses(n) => {
            let state: Vec<f64> = (0..PASS_LEN).map(|i| i as f64 * 1e-3).collect();
            Box::new(move || {
                let counters = work()?;
                for _ in 0..n {
                    let mut sum = 0.0;
                    for &x in std::hint::black_box(&state) {
                        sum += x * x;
                    }
                    std::hint::black_box(sum);
                }
                Ok(counters)
            })
        }
        Change::Repeat => Box::new(move || {
            let mut counters: Counters = work()?;
            for (c, (_, v)) in counters.iter_mut().zip(work()?) {
                c.1 += v;
            }
            Ok(counters)
        }),
    }
}

/// The hook of kernel `name` from the environment.
pub fn from_env(name: &str) -> Result<Option<Change>, String> {
    match std::env::var(HOOK_VAR) {
        Ok(hook) if !hook.is_empty() => parse(&hook, name),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hook_is_read_and_applied() {
        let k = "chain-1000/newmark-ssn-step";
        assert_eq!(parse(&format!("{k}=repeat"), k), Ok(Some(Change::Repeat)));
        assert_eq!(
            parse(&format!("{k}=extra-passes:13"), k),
            Ok(Some(Change::ExtraPasses(13)))
        );
        assert_eq!(
            parse(&format!("{k}=repeat"), "belt/moreau-1000-steps"),
            Ok(None)
        );
        for bad in [
            format!("{k}=extra-passes:x"),
            format!("{k}=slower"),
            k.to_string(),
        ] {
            let e = parse(&bad, k).unwrap_err();
            assert!(e.contains(HOOK_VAR) && e.contains(&bad), "{e}");
        }
        let work: Work = Box::new(|| Ok(vec![("steps".to_string(), 3.0)]));
        let mut twice = apply(work, Change::Repeat);
        assert_eq!(twice().unwrap(), vec![("steps".to_string(), 6.0)]);
        let work: Work = Box::new(|| Ok(vec![("steps".to_string(), 3.0)]));
        let mut slower = apply(work, Change::ExtraPasses(2));
        assert_eq!(slower().unwrap(), vec![("steps".to_string(), 3.0)]);
    }
}
