//! A cooperative time limit for one job (a method of a case, or a case's
//! reference).
//!
//! The runner sets a deadline on the worker thread before a job starts
//! ([`run_with_limit`]); every integrator's step loop, the event-driven
//! engine's march and the pivoting loops call [`check`]. Once the deadline
//! has passed, `check` unwinds the job with a [`TimeLimitExceeded`] payload
//! (by `resume_unwind`, so no panic message is printed); [`run_with_limit`]
//! catches exactly that payload and returns it as an error, so the job fails
//! with a clear message and the run goes on. Outside a limited job (unit
//! tests, `lcp solve`) `check` does nothing.
//!
//! Cost: one thread-local read and one clock read per call (about 25 ns);
//! loops whose iterations are cheaper call [`check_every`].

use std::cell::Cell;
use std::time::{Duration, Instant};

thread_local! {
    static DEADLINE: Cell<Option<(Instant, Duration)>> = const { Cell::new(None) };
}

/// The unwinding payload of a job that ran past its limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeLimitExceeded {
    /// The limit the job had.
    pub limit: Duration,
}

impl std::fmt::Display for TimeLimitExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "stopped after the time limit of {} s (raise it with `time_limit` in the study or --time-limit)",
            self.limit.as_secs_f64()
        )
    }
}

/// Runs `f` with a deadline `limit` from now on this thread. Returns
/// `Err(TimeLimitExceeded)` if `f` ran past it (and reached a [`check`]);
/// any other panic is resumed unchanged. The previous deadline (if any) is
/// restored afterwards.
pub fn run_with_limit<T>(limit: Duration, f: impl FnOnce() -> T) -> Result<T, TimeLimitExceeded> {
    let previous = DEADLINE.with(|d| d.replace(Some((Instant::now() + limit, limit))));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    DEADLINE.with(|d| d.set(previous));
    match outcome {
        Ok(value) => Ok(value),
        Err(payload) => match payload.downcast::<TimeLimitExceeded>() {
            Ok(exceeded) => Err(*exceeded),
            Err(other) => std::panic::resume_unwind(other),
        },
    }
}

/// Unwinds the current job if its deadline has passed (see the module docs).
#[inline]
pub fn check() {
    if let Some((deadline, limit)) = DEADLINE.with(Cell::get)
        && Instant::now() > deadline
    {
        std::panic::resume_unwind(Box::new(TimeLimitExceeded { limit }));
    }
}

/// [`check`] on every 1024th value of a loop counter, for loops whose
/// iterations take well under a microsecond.
#[inline]
pub fn check_every(counter: usize) {
    if counter.is_multiple_of(1024) {
        check();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_past_its_limit_is_stopped_and_reported() {
        let limit = Duration::from_millis(20);
        let result = run_with_limit(limit, || {
            loop {
                check();
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        assert_eq!(result, Err::<(), _>(TimeLimitExceeded { limit }));
        // The deadline is cleared afterwards: check does nothing.
        check();
    }

    #[test]
    fn a_job_within_its_limit_returns_its_value() {
        let value = run_with_limit(Duration::from_secs(60), || {
            check();
            41 + 1
        });
        assert_eq!(value, Ok(42));
    }

    #[test]
    fn other_panics_pass_through_unchanged() {
        let caught = std::panic::catch_unwind(|| {
            run_with_limit(Duration::from_secs(60), || std::panic::panic_any(7_u32))
        });
        let payload = caught.expect_err("the panic is resumed");
        assert_eq!(payload.downcast_ref::<u32>(), Some(&7));
    }

    #[test]
    fn without_a_deadline_check_does_nothing() {
        for i in 0..4096 {
            check_every(i);
        }
    }
}
