//! Valgrind client requests (the magic instruction sequence of Valgrind's
//! `valgrind.h`, amd64 only): outside Valgrind the sequence does nothing
//! and a request returns its default.
//!
//! The kernel process starts under `--instr-atstart=no` (Valgrind runs the
//! setup of the kernel's state and the warm-up run without callgrind's
//! instrumentation, about ten times faster) and asks for the
//! instrumentation with [`start_instrumentation`] just before the measured
//! run. On other architectures
//! the requests are no-ops and the process is instrumented from the start
//! ([`INSTRUMENT_AT_START`]): the counts are the same, only slower to get.

/// Whether the kernel process must be instrumented from its start (no
/// client requests on this architecture).
pub const INSTRUMENT_AT_START: bool = !cfg!(target_arch = "x86_64");

/// `VG_USERREQ_TOOL_BASE('C', 'T')` of callgrind.h.
const CALLGRIND_BASE: u64 = (b'C' as u64) << 24 | (b'T' as u64) << 16;
/// `VG_USERREQ__START_INSTRUMENTATION`.
const START_INSTRUMENTATION: u64 = CALLGRIND_BASE + 4;
/// `VG_USERREQ__RUNNING_ON_VALGRIND` of valgrind.h.
const RUNNING_ON_VALGRIND: u64 = 0x1001;

/// Sends request `request` with argument `arg`; `default` outside Valgrind.
#[cfg(target_arch = "x86_64")]
fn request(default: u64, request: u64, arg: u64) -> u64 {
    let args: [u64; 6] = [request, arg, 0, 0, 0, 0];
    let mut result = default;
    // SAFETY: the rotations of rdi add up to 128 bits (rdi is unchanged)
    // and `xchg rbx, rbx` changes nothing: natively the sequence has no
    // effect but on the flags; Valgrind recognises it, reads the six words
    // at rax and writes the answer into rdx.
    unsafe {
        std::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") result,
            in("rax") args.as_ptr(),
            options(nostack),
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn request(default: u64, _request: u64, _arg: u64) -> u64 {
    default
}

/// Callgrind: start instrumenting (and simulating the caches) from here.
pub fn start_instrumentation() {
    request(0, START_INSTRUMENTATION, 0);
}

/// Whether this process runs under Valgrind.
pub fn running_on_valgrind() -> bool {
    request(0, RUNNING_ON_VALGRIND, 0) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_do_nothing_natively() {
        assert!(!running_on_valgrind());
        start_instrumentation();
        assert_eq!(CALLGRIND_BASE, 0x4354_0000);
    }
}
