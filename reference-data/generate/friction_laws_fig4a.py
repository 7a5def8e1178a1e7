#!/usr/bin/env python3
"""Independent NumPy tabulation of the friction coefficient f(v_r) of the five
friction laws of the seed's Fig. 4a (seed 004: Czech study text "Modelování
tření v kontaktních vazbách", friction modelling in contact joints), on
v_r = 0 .. 4e-3 m/s, 401 points, step 1e-5 m/s:

  constant     f = f0 for v > 0, f0 = 0.2 (at v = 0: 0.2, the limit v -> 0+)
  tanh         f = f_s tanh(k v), f_s = 0.2, k = 2e4 s/m
  adams        f = f_s sin(C atan(B v - E (B v - atan(B v)))),
               f_s = 0.2, B = 0.5 s/mm = 500 s/m, C = 1.7, E = -2
  micro_slip   h(v) = f_d + (f_s - f_d) exp(-d v),
               f = h(v) v / v_k for v < v_k, f = h(v) for v >= v_k,
               f_s = 0.4, f_d = 0.2, d = 2 s/mm = 2000 s/m, v_k = 1e-3 m/s
  ansys        mu = mu_k (1 + (FACT - 1) exp(-DC v)) (the ANSYS manual's form),
               mu_k = 0.2, FACT = 2, DC = 2 s/mm = 2000 s/m

Every constant is read in one unit system, the one Fig. 4a's axis (0-4 mm/s)
implies: a speed in mm/s, so B = 0.5 s/mm, d = DC = 2 s/mm, v_k = 1e-3 m/s =
1 mm/s (the legend's "ck = 10^-3" in m/s).

The formulas are written here from their mathematical statements (the seed's
and, for the ANSYS law, the ANSYS manual's); the script shares no code with
the Rust crate (contact-harness) whose contact::friction laws it checks.
reference-data/friction-laws/SOURCE.md records the parameter choices and why.

Writes, from the repository root,
  reference-data/friction-laws/fig4a.csv   comment lines (#), then
      v,constant,tanh,adams,micro_slip,ansys (401 rows)
and prints the versions and a few values.

Usage (from the repository root):
  python3 -m pip install numpy
  python3 reference-data/generate/friction_laws_fig4a.py
Run time: well under a second.
"""

import os
import platform
import sys

import numpy as np

# ---------------------------------------------------------------------------
# Grid: v_i = i * 1e-5 m/s, i = 0 .. 400, computed as i / 1e5 (the double
# nearest to the decimal i * 10^-5), printed %.12g: that is the exact decimal
# i * 10^-5 (at most 3 significant digits), e.g. 0, 1e-05, 0.00088, 0.004.
N_STEPS = 400
V_DIVISOR = 1.0e5           # v = i / V_DIVISOR [m/s]

# Parameters
F_CONST = 0.2               # constant law
TANH_FS = 0.2               # tanh: f_s
TANH_K = 2.0e4              # tanh: k [s/m] (a choice: the seed leaves it out)
ADAMS_FS = 0.2              # MSC.ADAMS-type: f_s
ADAMS_B = 500.0             # B = 0.5 s/mm = 500 s/m
ADAMS_C = 1.7
ADAMS_E = -2.0
MS_FS = 0.4                 # micro-slip: f_s
MS_FD = 0.2                 # micro-slip: f_d
MS_D = 2000.0               # micro-slip: d = 2 s/mm [s/m]
MS_VK = 1.0e-3              # micro-slip: v_k [m/s] (the legend's "ck = 10^-3")
ANSYS_MUK = 0.2             # ANSYS: mu_k
ANSYS_FACT = 2.0            # ANSYS: FACT = mu_s / mu_k
ANSYS_DC = 2000.0           # ANSYS: DC = 2 s/mm [s/m]

OUT_PATH = os.path.join("reference-data", "friction-laws", "fig4a.csv")
COMMAND = "python3 reference-data/generate/friction_laws_fig4a.py"
COLUMNS = ["v", "constant", "tanh", "adams", "micro_slip", "ansys"]


def constant(v):
    return np.full_like(v, F_CONST)


def tanh_law(v):
    return TANH_FS * np.tanh(TANH_K * v)


def adams(v):
    bv = ADAMS_B * v
    return ADAMS_FS * np.sin(ADAMS_C * np.arctan(bv - ADAMS_E * (bv - np.arctan(bv))))


def micro_slip(v):
    h = MS_FD + (MS_FS - MS_FD) * np.exp(-MS_D * v)
    return np.where(v < MS_VK, h * v / MS_VK, h)


def ansys(v):
    return ANSYS_MUK * (1.0 + (ANSYS_FACT - 1.0) * np.exp(-ANSYS_DC * v))


LAWS = [constant, tanh_law, adams, micro_slip, ansys]


def versions():
    return f"Python {platform.python_version()}, NumPy {np.__version__}"


def main():
    print(versions())
    print(f"command: {COMMAND}")
    idx = np.arange(N_STEPS + 1)
    v = idx / V_DIVISOR
    table = np.column_stack([v] + [law(v) for law in LAWS])

    # sanity checks (independent closed forms)
    def at(vv):
        return table[int(round(vv * V_DIVISOR))]

    checks = [
        ("micro_slip(5e-4) = 0.5 (0.2 + 0.2 e^-1)", at(5e-4)[4], 0.5 * (0.2 + 0.2 * np.exp(-1.0))),
        ("micro_slip(1e-3) = 0.2 + 0.2 e^-2", at(1e-3)[4], 0.2 + 0.2 * np.exp(-2.0)),
        ("ansys(0) = FACT mu_k = 0.4", at(0.0)[5], 0.4),
        ("ansys(4e-3) = 0.2 (1 + e^-8)", at(4e-3)[5], 0.2 * (1.0 + np.exp(-8.0))),
        ("tanh(1e-4) = 0.2 tanh 2", at(1e-4)[2], 0.2 * np.tanh(2.0)),
        ("adams(0) = 0", at(0.0)[3], 0.0),
    ]
    print("\nchecks:")
    for name, got, want in checks:
        print(f"  {name:<46s} {got:.17g}  diff {abs(got - want):.1e}")
        if abs(got - want) > 1e-15:
            sys.exit(f"check failed: {name}")

    # ADAMS peak (closed form: C atan(g) = pi/2, g = B v - E (B v - atan(B v)))
    i_peak = int(np.argmax(table[:, 3]))
    print(f"\nadams: largest tabulated value {table[i_peak, 3]:.17g} at v = {table[i_peak, 0]:g} m/s")
    i98 = int(np.argmax(table[:, 2] >= 0.98 * TANH_FS))
    print(f"tanh: first v with f >= 0.98 f_s: {table[i98, 0]:g} m/s")
    d = np.abs(table[:, 4] - table[:, 5])[idx >= round(MS_VK * V_DIVISOR)]
    print(f"micro_slip vs ansys for v >= v_k: max |difference| {d.max():.3e}")

    print("\nvalues:")
    print("  " + " ".join(f"{c:>22s}" for c in COLUMNS))
    for vv in (0.0, 1e-4, 5e-4, 1e-3, 2e-3, 4e-3):
        row = at(vv)
        print("  " + f"{row[0]:>22.12g} " + " ".join(f"{x:22.17g}" for x in row[1:]))

    os.makedirs(os.path.dirname(OUT_PATH), exist_ok=True)
    with open(OUT_PATH, "w") as f:
        f.write("# Friction coefficient f(v_r) of the five laws of the seed's Fig. 4a "
                "(seed 004: Czech study text 'Modelovani treni v kontaktnich vazbach', friction modelling "
                "in contact joints)\n")
        f.write(f"# constant: f = {F_CONST:g} for v > 0 (v = 0: the limit v -> 0+)\n")
        f.write(f"# tanh: f = f_s tanh(k v), f_s = {TANH_FS:g}, k = {TANH_K:g} s/m (k a choice: the seed gives none)\n")
        f.write(f"# adams: f = f_s sin(C atan(B v - E (B v - atan(B v)))), f_s = {ADAMS_FS:g}, "
                f"B = 0.5 s/mm = {ADAMS_B:g} s/m, C = {ADAMS_C:g}, E = {ADAMS_E:g}\n")
        f.write(f"# micro_slip: h = f_d + (f_s - f_d) exp(-d v), f = h v / v_k (v < v_k), f = h (v >= v_k), "
                f"f_s = {MS_FS:g}, f_d = {MS_FD:g}, d = 2 s/mm = {MS_D:g} s/m, v_k = {MS_VK:g} m/s\n")
        f.write(f"# ansys: mu = mu_k (1 + (FACT - 1) exp(-DC v)) (ANSYS manual's form), mu_k = {ANSYS_MUK:g}, "
                f"FACT = {ANSYS_FACT:g}, DC = 2 s/mm = {ANSYS_DC:g} s/m\n")
        f.write(f"# command: {COMMAND}   (from the repository root)\n")
        f.write("# method: closed-form evaluation in NumPy (float64), v = i / 1e5 m/s for i = 0..400\n")
        f.write(f"# versions: {versions()}\n")
        f.write("# columns: v [m/s] (= i * 1e-5 exactly, printed %.12g), then the dimensionless "
                "coefficients (%.17g)\n")
        f.write(",".join(COLUMNS) + "\n")
        for row in table:
            f.write(f"{float(row[0]):.12g}," + ",".join(f"{float(x):.17g}" for x in row[1:]) + "\n")
    print(f"\nwrote {OUT_PATH} ({table.shape[0]} rows)")


if __name__ == "__main__":
    if not os.path.isdir("reference-data"):
        sys.exit("run from the repository root: python3 reference-data/generate/friction_laws_fig4a.py")
    main()
