//! The share of the machine's CPU that other processes took while a run's
//! jobs ran: the one thing a CPU time cannot correct for. On a shared
//! machine a job's thread CPU time grows with what runs beside it (the
//! other core's caches and memory bandwidth, a hyperthread sibling, the
//! hypervisor's steal), and a memory-bound method (a dense Lemke over a
//! 1000-gap chain) grows far more than the cache-resident calibration
//! kernel, so no unit measured in the run removes it. The history does not
//! judge the CPU times of a run during which others took more than
//! [`crate::harness::history::MAX_OTHERS_SHARE`] (its rule, in
//! `harness::history`).
//!
//! Measured from Linux's `/proc/stat` (busy jiffies of all CPUs: user,
//! nice, system, irq, softirq, steal) beside the process's own CPU time
//! (`getrusage`, itself and its waited-for children):
//! share = (busy - own) / (wall x CPUs), clamped to [0, 1].

use std::time::Instant;

/// A running measurement, started before the jobs.
#[derive(Debug, Clone, Copy)]
pub struct LoadProbe {
    busy: f64,
    own: f64,
    wall: Instant,
    cpus: usize,
}

impl LoadProbe {
    /// Starts measuring; None where `/proc/stat` cannot be read.
    pub fn start() -> Option<LoadProbe> {
        Some(LoadProbe {
            busy: busy_seconds(&std::fs::read_to_string("/proc/stat").ok()?)?,
            own: own_seconds(),
            wall: Instant::now(),
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
        })
    }

    /// The share of all CPUs' time since the start that went to other
    /// processes, in [0, 1]; None if `/proc/stat` cannot be read now.
    pub fn others_share(&self) -> Option<f64> {
        let busy = busy_seconds(&std::fs::read_to_string("/proc/stat").ok()?)?;
        let wall = self.wall.elapsed().as_secs_f64();
        if wall <= 0.0 {
            return None;
        }
        Some(share(
            busy - self.busy,
            own_seconds() - self.own,
            wall,
            self.cpus,
        ))
    }
}

/// (busy - own) / (wall cpus), clamped to [0, 1].
pub fn share(busy: f64, own: f64, wall: f64, cpus: usize) -> f64 {
    ((busy - own) / (wall * cpus.max(1) as f64)).clamp(0.0, 1.0)
}

/// Busy seconds of all CPUs from the text of `/proc/stat`: the first
/// (`cpu`) line's user, nice, system, irq, softirq and steal jiffies (guest
/// time is inside user) over the clock tick.
pub fn busy_seconds(stat: &str) -> Option<f64> {
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    let v: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .map(|f| f.parse::<f64>().ok())
        .collect::<Option<_>>()?;
    if v.len() < 8 {
        return None;
    }
    let busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    Some(busy / clock_ticks())
}

fn clock_ticks() -> f64 {
    // SAFETY: sysconf reads a constant of the system.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as f64 } else { 100.0 }
}

/// CPU seconds (user + system) of this process and its waited-for children.
fn own_seconds() -> f64 {
    let of = |who| {
        // SAFETY: getrusage fills the zeroed struct it is given.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(who, &mut u) } != 0 {
            return 0.0;
        }
        let t = |tv: libc::timeval| tv.tv_sec as f64 + 1e-6 * tv.tv_usec as f64;
        t(u.ru_utime) + t(u.ru_stime)
    };
    of(libc::RUSAGE_SELF) + of(libc::RUSAGE_CHILDREN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_seconds_read_the_cpu_line() {
        let stat = "cpu  100 20 30 1000 50 5 5 10 7 0\ncpu0 1 2 3 4 5 6 7 8 9 0\n";
        let ticks = clock_ticks();
        assert_eq!(busy_seconds(stat), Some(170.0 / ticks));
        assert_eq!(busy_seconds("cpu0 1 2 3\n"), None);
        assert_eq!(busy_seconds("cpu  1 2 x 4 5 6 7 8\n"), None);
        assert_eq!(share(3.0, 1.0, 2.0, 2), 0.5);
        assert_eq!(share(1.0, 3.0, 2.0, 2), 0.0);
    }

    /// Another process spinning on one core is seen: about half of two
    /// CPUs (at least a tenth, whatever else the machine runs).
    #[test]
    fn a_spinning_process_beside_the_run_is_measured() {
        let Some(probe) = LoadProbe::start() else {
            eprintln!("no /proc/stat: skipped");
            return;
        };
        let mut spinner = std::process::Command::new("sh")
            .args([
                "-c",
                "end=$(($(date +%s) + 2)); while [ $(date +%s) -lt $end ]; do :; done",
            ])
            .spawn()
            .expect("sh");
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let share = probe.others_share().expect("share");
        let _ = spinner.kill();
        let _ = spinner.wait();
        assert!(share > 0.1, "others' share {share}");
    }
}
