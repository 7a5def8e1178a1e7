"""Peer work-precision measurement of the ideal 2-D slider-crank in Exudyn.

Writes reference-data/slider-crank/exudyn-work-precision.csv (or --out PATH):
`#` comment lines (command, versions, CPU, date, solver settings), then

    h,cpu_s,cpu_s_spread,steps,max_error_x,max_error_v,max_error_a

one row per fixed step h: the CPU time of Exudyn's solve (median of 3 runs,
`time.process_time()`), the half range (max - min) / 2 of those runs, the
number of steps, and the largest errors of the slider position x [m],
velocity v [m/s] and acceleration a [m/s^2] against the exact kinematics,
taken at the common output times t = 0, 1e-4, ..., 0.05 s (501 times).
See reference-data/slider-crank/SOURCE.md.

Run from the repository root:
    python3 -m pip install exudyn numpy
    python3 reference-data/generate/slider_crank_exudyn.py

Options (for checks; the committed CSV uses none of them):
    --out PATH      write the CSV elsewhere
    --fast          load exudynCPPfast (no range checks, AVX2) instead of the
                    default module exudynCPP
    --python-drive  drive the crank with a plain Python user function instead
                    of an Exudyn symbolic user function (evaluated in C++)
    --repeats N     timed runs per h (default 3)

Mechanism (parameters from Lopez-Lombardero et al., Mechanism and Machine
Theory 194 (2024) 105583): crank pivot at the origin, crank angle phi from +x,
slider on the x axis, no offset, gravity 0.
    crank  l1 = 0.05 m,  m1 = 0.30 kg,  J1 = 1.0e-5 kg m^2 (about its CoM, mid-length)
    rod    l2 = 0.12 m,  m2 = 0.087 kg, J2 = 1.044e-4 kg m^2 (about its CoM, mid-length;
           the uniform rod m2 l2^2 / 12: the 4.8037e-4 once quoted is impossible, SOURCE.md)
    slider m3 = 0.14 kg
    phi(t) = phi0 + omega t, phi0 = 0, omega = 523.6 rad/s (5000 rpm), t in [0, 0.05] s.

Exudyn model: three NodeRigidBody2D / ObjectRigidBody2D bodies; revolute
joints ground-crank, crank-rod, rod-slider as ObjectJointRevolute2D on
MarkerBodyPosition markers; the slider on ground by ObjectJointPrismatic2D
(axis x, constrainRotation=True, so the slider does not rotate and its
inertia, set to 1e-6 kg m^2 because the 2-D body needs one, has no effect);
the drive is an ObjectConnectorCoordinate between a ground coordinate and the
crank's rotation coordinate with offsetUserFunction phi(t) - phi0 = omega t
(and offsetUserFunction_t = omega, used only for the initial accelerations),
given as an Exudyn symbolic user function (--python-drive: a Python one).
Initial positions and velocities of all three bodies are the exact ones.

Solver: Exudyn's default dynamic solver, MainSolverImplicitSecondOrder with
DynamicSolverType.GeneralizedAlpha (index-3 constraints, spectralRadius 0.9,
modified Newton, relative/absolute tolerance 1e-8/1e-10, all defaults) with
numberOfSteps = T/h fixed steps; the only change to the numerics is
adaptiveStep = False, so that a Newton failure stops the run instead of
silently reducing the step. Output: no solution file, no console output,
sensors stored in memory only (every 1e-4 s).

Timing: time.process_time() around dynamicSolver.SolveSteps(...) only; this
includes all time steps (Newton iterations, Jacobians, the drive function)
and the in-memory sensor records, and excludes model building, Assemble,
InitializeSolver (solver data, initial accelerations) and FinalizeSolver.
Each h is solved --repeats times from the same initial state; the runs must
give bit-identical results (checked).

Deterministic apart from the timings and the date.
"""
import argparse
import datetime
import os
import platform
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_OUT = os.path.join(ROOT, "reference-data", "slider-crank", "exudyn-work-precision.csv")

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--out", default=DEFAULT_OUT)
parser.add_argument("--fast", action="store_true")
parser.add_argument("--python-drive", action="store_true")
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--max-seconds", type=float, default=120.0,
                    help="skip finer steps once one solve takes longer than this")
ARGS = parser.parse_args()

if ARGS.fast:
    sys.exudynFast = True  # must be set before the first import of exudyn

import numpy as np  # noqa: E402
import exudyn as exu  # noqa: E402
from exudyn import itemInterface as ii  # noqa: E402
from exudyn.advancedUtilities import CreateSymbolicUserFunction  # noqa: E402

# ---------------------------------------------------------------- parameters
L1 = 0.05          # crank length [m]
L2 = 0.12          # rod length [m]
M1 = 0.30          # crank mass [kg]
J1 = 1.0e-5        # crank inertia about its CoM [kg m^2]
M2 = 0.087         # rod mass [kg]
J2 = 1.044e-4     # rod inertia about its CoM [kg m^2]
M3 = 0.14          # slider mass [kg]
J3 = 1.0e-6        # slider inertia: no effect (rotation locked by the prismatic joint)
OMEGA = 523.6      # crank speed [rad/s] (5000 rpm)
PHI0 = 0.0         # crank angle at t = 0 [rad]
T_END = 0.05       # simulated time [s]
OUTPUT_PERIOD = 1.0e-4
STEPS_H = [1e-4, 5e-5, 2e-5, 1e-5, 5e-6, 2e-6, 1e-6]


# ---------------------------------------------------------- exact kinematics
def exact(t):
    """Exact slider position, velocity, acceleration for phi = PHI0 + OMEGA t.

    x(phi)    = l1 cos phi + S,  S = sqrt(l2^2 - l1^2 sin^2 phi)
    dx/dphi   = -l1 sin phi - l1^2 sin phi cos phi / S
    d2x/dphi2 = -l1 cos phi - l1^2 (cos^2 phi - sin^2 phi) / S
                - l1^4 sin^2 phi cos^2 phi / S^3
    v = OMEGA dx/dphi, a = OMEGA^2 d2x/dphi2 (OMEGA constant).
    """
    phi = PHI0 + OMEGA * np.asarray(t, dtype=float)
    s, c = np.sin(phi), np.cos(phi)
    S = np.sqrt(L2 ** 2 - L1 ** 2 * s ** 2)
    x = L1 * c + S
    dx = -L1 * s - L1 ** 2 * s * c / S
    ddx = -L1 * c - L1 ** 2 * (c ** 2 - s ** 2) / S - L1 ** 4 * s ** 2 * c ** 2 / S ** 3
    return x, OMEGA * dx, OMEGA ** 2 * ddx


def check_exact():
    """Check v and a against central differences of x and v (once, at start)."""
    t = np.linspace(0.0, T_END, 1001)
    d = 1e-8
    x, v, a = exact(t)
    xp, vp, _ = exact(t + d)
    xm, vm, _ = exact(t - d)
    err_v = np.max(np.abs((xp - xm) / (2 * d) - v)) / np.max(np.abs(v))
    err_a = np.max(np.abs((vp - vm) / (2 * d) - a)) / np.max(np.abs(a))
    # central-difference error ~ d^2 * x''' / 6 plus rounding ~ eps * x / d:
    # both far below 1e-5 relative here (measured: 3e-10)
    assert err_v < 1e-5 and err_a < 1e-5, (err_v, err_a)
    return err_v, err_a


# ------------------------------------------------------------------- model
def drive(mbs, t, itemNumber, lOffset):
    return OMEGA * t              # crank rotation coordinate relative to its reference PHI0


def drive_t(mbs, t, itemNumber, lOffset):
    return OMEGA + 0.0 * t        # '+ 0 t' keeps the symbolic recording a function of t


def build_model():
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()

    phi = PHI0
    s, c = np.sin(phi), np.cos(phi)
    S = np.sqrt(L2 ** 2 - L1 ** 2 * s ** 2)
    x0, v0, _ = exact(0.0)
    A = np.array([L1 * c, L1 * s])                     # crank tip
    vA = L1 * OMEGA * np.array([-s, c])
    B = np.array([float(x0), 0.0])                     # slider (rod end)
    vB = np.array([float(v0), 0.0])
    beta = np.arctan2(-L1 * s, S)                      # rod angle: B - A = l2 (cos beta, sin beta)
    beta_t = -(L1 / L2) * c * OMEGA / np.cos(beta)     # from l2 sin beta = -l1 sin phi

    ground = mbs.AddObject(ii.ObjectGround())
    n1 = mbs.AddNode(ii.NodeRigidBody2D(referenceCoordinates=[0.5 * A[0], 0.5 * A[1], phi],
                                        initialVelocities=[0.5 * vA[0], 0.5 * vA[1], OMEGA]))
    b1 = mbs.AddObject(ii.ObjectRigidBody2D(mass=M1, inertia=J1, nodeNumber=n1))
    n2 = mbs.AddNode(ii.NodeRigidBody2D(referenceCoordinates=[0.5 * (A[0] + B[0]), 0.5 * (A[1] + B[1]), beta],
                                        initialVelocities=[0.5 * (vA[0] + vB[0]), 0.5 * (vA[1] + vB[1]), beta_t]))
    b2 = mbs.AddObject(ii.ObjectRigidBody2D(mass=M2, inertia=J2, nodeNumber=n2))
    n3 = mbs.AddNode(ii.NodeRigidBody2D(referenceCoordinates=[B[0], 0.0, 0.0],
                                        initialVelocities=[vB[0], 0.0, 0.0]))
    b3 = mbs.AddObject(ii.ObjectRigidBody2D(mass=M3, inertia=J3, nodeNumber=n3))

    mG = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=ground, localPosition=[0.0, 0.0, 0.0]))
    m1a = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=b1, localPosition=[-0.5 * L1, 0.0, 0.0]))
    m1b = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=b1, localPosition=[0.5 * L1, 0.0, 0.0]))
    m2a = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=b2, localPosition=[-0.5 * L2, 0.0, 0.0]))
    m2b = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=b2, localPosition=[0.5 * L2, 0.0, 0.0]))
    m3 = mbs.AddMarker(ii.MarkerBodyPosition(bodyNumber=b3, localPosition=[0.0, 0.0, 0.0]))
    mGr = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=ground, localPosition=[0.0, 0.0, 0.0]))
    m3r = mbs.AddMarker(ii.MarkerBodyRigid(bodyNumber=b3, localPosition=[0.0, 0.0, 0.0]))

    mbs.AddObject(ii.ObjectJointRevolute2D(markerNumbers=[mG, m1a]))    # ground-crank
    mbs.AddObject(ii.ObjectJointRevolute2D(markerNumbers=[m1b, m2a]))   # crank-rod
    mbs.AddObject(ii.ObjectJointRevolute2D(markerNumbers=[m2b, m3]))    # rod-slider
    mbs.AddObject(ii.ObjectJointPrismatic2D(markerNumbers=[mGr, m3r], axisMarker0=[1.0, 0.0, 0.0],
                                            normalMarker1=[0.0, 1.0, 0.0], constrainRotation=True))

    # drive: q_crank_rotation - q_ground = offset(t) = omega t (index-3, position level)
    nG = mbs.AddNode(ii.NodePointGround())
    mGc = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=nG, coordinate=0))
    m1c = mbs.AddMarker(ii.MarkerNodeCoordinate(nodeNumber=n1, coordinate=2))
    if ARGS.python_drive:
        f, f_t = drive, drive_t
        keep = []
    else:
        f = CreateSymbolicUserFunction(mbs, drive, "offsetUserFunction",
                                       itemTypeName="ObjectConnectorCoordinate")
        f_t = CreateSymbolicUserFunction(mbs, drive_t, "offsetUserFunction_t",
                                         itemTypeName="ObjectConnectorCoordinate")
        keep = [f, f_t]  # the expression trees must outlive the solve
    mbs.AddObject(ii.ObjectConnectorCoordinate(markerNumbers=[mGc, m1c],
                                               offsetUserFunction=f, offsetUserFunction_t=f_t))

    sensors = [mbs.AddSensor(ii.SensorNode(nodeNumber=n3, outputVariableType=ovt,
                                           storeInternal=True, writeToFile=False))
               for ovt in (exu.OutputVariableType.Position,
                           exu.OutputVariableType.Velocity,
                           exu.OutputVariableType.Acceleration)]
    mbs.Assemble()
    return SC, mbs, sensors, keep


def settings(h):
    ss = exu.SimulationSettings()
    ti = ss.timeIntegration
    ti.solverType = exu.DynamicSolverType.GeneralizedAlpha   # the default, stated
    ti.endTime = T_END
    ti.numberOfSteps = int(round(T_END / h))
    ti.adaptiveStep = False
    ti.verboseMode = 0
    ti.verboseModeFile = 0
    ss.solution.file.write = False
    ss.solution.sensors.writePeriod = OUTPUT_PERIOD
    ss.show.statistics = False
    ss.show.computationTime = False
    ss.show.globalTimers = False
    return ss


def solve(mbs, sensors, h):
    """Solve --repeats times; return CPU times, solver counters and the sensor data."""
    ss = settings(h)
    times, data = [], None
    for _ in range(ARGS.repeats):
        solver = exu.MainSolverImplicitSecondOrder()
        if not solver.InitializeSolver(mbs, ss):
            raise RuntimeError("InitializeSolver failed")
        t0 = time.process_time()
        ok = solver.SolveSteps(mbs, ss)
        t1 = time.process_time()
        solver.FinalizeSolver(mbs, ss)
        if not ok:
            raise RuntimeError(f"h={h}: SolveSteps failed: {solver.GetErrorString()}")
        times.append(t1 - t0)
        run = [np.array(mbs.GetSensorStoredData(s)) for s in sensors]
        counters = (solver.it.numberOfSteps, solver.it.currentTime,
                    solver.it.newtonStepsCount, solver.it.newtonJacobiCount)
        if data is None:
            data, first = run, counters
        else:  # determinism: every repetition must give the same numbers
            assert all(np.array_equal(a, b) for a, b in zip(data, run)), f"h={h}: runs differ"
            assert counters == first, (counters, first)
        if t1 - t0 > ARGS.max_seconds:
            break
    return times, first, data


def main():
    fd_v, fd_a = check_exact()
    print(f"exact kinematics vs central differences: rel. error v {fd_v:.1e}, a {fd_a:.1e}")
    SC, mbs, sensors, keep = build_model()
    module = [m for m in sys.modules if m in ("exudyn.exudynCPP", "exudyn.exudynCPPfast")]
    cpu = "unknown"
    with open("/proc/cpuinfo") as fh:
        for line in fh:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    rows, notes = [], []
    print(f"{'h':>8} {'cpu_s':>10} {'spread':>9} {'steps':>6} {'err_x':>9} {'err_v':>9} {'err_a':>9} newton jac")
    for h in STEPS_H:
        times, (nsteps, tend, newton, jac), (X, V, A) = solve(mbs, sensors, h)
        t = X[:, 0]
        k = np.round(t / OUTPUT_PERIOD)
        assert len(t) == int(round(T_END / OUTPUT_PERIOD)) + 1, len(t)
        assert np.max(np.abs(t - k * OUTPUT_PERIOD)) < 1e-12, "sensor times off the common grid"
        assert nsteps == int(round(T_END / h)) and abs(tend - T_END) < 1e-12, (nsteps, tend)
        xe, ve, ae = exact(t)
        ex = np.max(np.abs(X[:, 1] - xe))
        ev = np.max(np.abs(V[:, 1] - ve))
        ea = np.max(np.abs(A[:, 1] - ae))
        med = statistics.median(times)
        spread = (max(times) - min(times)) / 2
        rows.append(f"{h:g},{med:.6g},{spread:.3g},{nsteps},{ex:.6e},{ev:.6e},{ea:.6e}")
        notes.append(f"h={h:g}: {len(times)} runs {', '.join(f'{x:.4f}' for x in times)} s; "
                     f"{newton} Newton iterations, {jac} Jacobians")
        print(f"{h:8.0e} {med:10.4f} {spread:9.4f} {nsteps:6d} {ex:9.2e} {ev:9.2e} {ea:9.2e} {newton} {jac}",
              flush=True)
        if max(times) > ARGS.max_seconds:
            print(f"one solve took more than {ARGS.max_seconds} s: finer steps skipped")
            break

    cmd = "python3 reference-data/generate/slider_crank_exudyn.py" + "".join(" " + a for a in sys.argv[1:])
    header = [
        "# slider-crank (Lopez-Lombardero et al. 2024 parameters), Exudyn work-precision, see SOURCE.md",
        f"# command (from the repository root): {cmd}",
        f"# exudyn {exu.__version__} (module {', '.join(module)}), numpy {np.__version__}, "
        f"python {platform.python_version()}; CPU: {cpu}; date {datetime.date.today().isoformat()}",
        "# solver: MainSolverImplicitSecondOrder, GeneralizedAlpha (index 3, spectralRadius 0.9, "
        "modified Newton, tol rel 1e-8 abs 1e-10), fixed steps (adaptiveStep False); drive: "
        + ("Python" if ARGS.python_drive else "symbolic") + " offsetUserFunction on ObjectConnectorCoordinate",
        f"# cpu_s: median of {ARGS.repeats} time.process_time() around SolveSteps; cpu_s_spread = (max-min)/2; "
        "errors: max over t = 0, 1e-4, ..., 0.05 s vs exact kinematics",
    ] + [f"# {n}" for n in notes]
    os.makedirs(os.path.dirname(os.path.abspath(ARGS.out)), exist_ok=True)
    with open(ARGS.out, "w") as fh:
        fh.write("\n".join(header) + "\n")
        fh.write("h,cpu_s,cpu_s_spread,steps,max_error_x,max_error_v,max_error_a\n")
        # Rows by increasing h: the harness reads the first column as an
        # abscissa, which must increase strictly.
        fh.write("\n".join(reversed(rows)) + "\n")
    print(f"wrote {os.path.relpath(ARGS.out, ROOT) if ARGS.out.startswith(ROOT) else ARGS.out}")
    del keep


if __name__ == "__main__":
    main()
