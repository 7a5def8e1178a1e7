"""The rigid single-mass valvetrain's jump speed, independently of the Rust
code (reference-data/valvetrain/rigid-jump.csv).

The follower stays on the cam while the spring force supplies the
deceleration: F0 + k x >= m w^2 |x''(theta)| wherever x'' < 0, so
w_jump^2 = min over those angles of (F0 + k x) / (m |x''|). The lift is the
cycloidal rise-return of Norton (Cam Design and Manufacturing Handbook,
ch. 3), x = H (u - sin(2 pi u) / (2 pi)), u = theta / beta on the rise.
Parameters: experiments/valvetrain.toml (TU Delft ME46060 spring, d = 4 mm,
D = 24 mm; assumed valve and follower masses).

Run: python3 -m pip install numpy scipy; python3 valvetrain_jump.py
"""

import math
import pathlib

import numpy as np
from scipy.optimize import minimize_scalar

# Spring (Wahl's rate without curvature correction) and masses.
G, d, D, n_a, n_e, rho = 81.5e9, 4e-3, 24e-3, 4.5, 2.0, 7850.0
L0, L_inst = 41e-3, 39e-3
k = G * d**4 / (8 * D**3 * n_a)
coil_mass = rho * math.pi * d**2 / 4 * math.pi * D
F0 = k * (L0 - L_inst)
m_valve, m_follower = 0.050, 0.030
m = m_valve + m_follower + n_e / 2 * coil_mass + n_a * coil_mass / 3
# Cam: lift H over beta (rise), the return mirrors it.
H, beta = 8e-3, math.radians(60.0)


def lift(theta):
    u = theta / beta
    return H * (u - math.sin(2 * math.pi * u) / (2 * math.pi))


def accel(theta):
    u = theta / beta
    return H * 2 * math.pi * math.sin(2 * math.pi * u) / beta**2


def ratio(theta):
    a = accel(theta)
    return (F0 + k * lift(theta)) / (m * -a) if a < 0 else np.inf


# The deceleration is on the rise's second half; scan, then refine.
grid = np.linspace(beta / 2, beta, 100001)[1:-1]
i = int(np.argmin([ratio(t) for t in grid]))
res = minimize_scalar(ratio, bounds=(grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]),
                      method="bounded", options={"xatol": 1e-14})
w = math.sqrt(res.fun)
n_jump = w / (2 * math.pi)
out = pathlib.Path(__file__).resolve().parents[1] / "valvetrain" / "rigid-jump.csv"
out.write_text(
    "# The rigid single-mass valvetrain's jump speed: min over theta with x'' < 0 of\n"
    "# sqrt((F0 + k x) / (m |x''|)) / (2 pi); reference-data/generate/valvetrain_jump.py\n"
    "# (NumPy grid + SciPy bounded minimisation). Parameters: experiments/valvetrain.toml.\n"
    "quantity,value\n"
    f"rate_n_per_m,{k:.12g}\n"
    f"preload_n,{F0:.12g}\n"
    f"rigid_mass_kg,{m:.12g}\n"
    f"critical_angle_deg,{math.degrees(res.x):.12g}\n"
    f"jump_speed_rev_per_s,{n_jump:.12g}\n"
)
print(out.read_text())
