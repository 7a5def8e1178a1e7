//! The friction-law kind's kernels (`harness::kernels`): one method run of
//! the kind is one law's coefficient tabulated on the case's speeds; each
//! kernel is that tabulation of one law of experiments/friction-laws.toml
//! (401 speeds on 0 to 4e-3 m/s).

use crate::contact::friction::FrictionLaw;
use crate::fixtures::friction;
use crate::harness::kernels::{Kernel, KernelInfo, LeftOut, Work, counters};

/// Every law the kind times has a kernel.
pub const LEFT_OUT: LeftOut = &[];

/// The speeds of friction-laws: 401 on [0, 4e-3] m/s.
const SPEEDS: usize = 401;
const TOP: f64 = 4e-3;

/// One kernel per law.
macro_rules! law_kernel {
    ($name:literal, $what:literal) => {
        Kernel {
            info: KernelInfo {
                kind: "friction-law",
                timed: $name,
                case: "friction-laws",
                method: concat!($name, "-curve"),
                what: $what,
            },
            prepare: |_| tabulate($name),
        }
    };
}

/// The kind's kernels.
pub const KERNELS: [Kernel; 5] = [
    law_kernel!(
        "constant",
        "the constant law (0.2) tabulated on friction-laws' 401 speeds, 0 to 4e-3 m/s"
    ),
    law_kernel!(
        "tanh",
        "f = 0.2 tanh(2e4 v) tabulated on the same 401 speeds"
    ),
    law_kernel!(
        "adams",
        "the ADAMS-type step law (0.2, B = 500 s/m, C = 1.7, E = -2) tabulated on the same 401 speeds"
    ),
    law_kernel!(
        "micro-slip",
        "the micro-slip law (0.4 -> 0.2, decay 2000 s/m, v_c = 1e-3 m/s) tabulated on the same 401 speeds"
    ),
    law_kernel!(
        "ansys",
        "ANSYS's exponential law (0.4 -> 0.2, decay 2000 s/m) tabulated on the same 401 speeds"
    ),
];

/// The coefficient of law `name` on the speeds, as the method run
/// computes its series.
fn tabulate(name: &str) -> Result<Work, String> {
    let law: FrictionLaw =
        friction::fig4a_law(name).ok_or_else(|| format!("no law `{name}` in the fixture"))?;
    let speeds: Vec<f64> = (0..SPEEDS)
        .map(|k| TOP * k as f64 / (SPEEDS - 1) as f64)
        .collect();
    Ok(Box::new(move || {
        let f: Vec<f64> = speeds.iter().map(|&v| law.coefficient(v)).collect();
        std::hint::black_box(&f);
        Ok(counters(&[("evaluations", f.len())]))
    }))
}
