//! A single direct-acting valvetrain (the second example of Haslinger,
//! Offner, Sopouch et al., ZAMM 94 (2014) 957-967): a cam on a flat-faced
//! (bucket) follower, the follower on the valve stem, the valve on its seat
//! and the valve spring between the cylinder head and the retainer.
//!
//! Degrees of freedom (x positive in the opening direction, 0 = valve
//! closed): the spring's free lumps (multi-mass model, see
//! [`crate::models::valve_spring`]), the valve x_v and the follower x_f.
//! The valve carries the valve, retainer and keepers (`valve_mass`) and
//! the spring's top end coil, which moves with the retainer. Follower and
//! valve are joined by the stem's axial stiffness k = E A / L (a lumped
//! valvetrain model, R. L. Norton, Cam Design and Manufacturing Handbook,
//! 2nd ed., 2009, ch. 10) with a damping ratio.
//!
//! Contacts, all unilateral (Signorini): cam-follower g_c = x_f + lash -
//! h(theta(t)) >= 0 (h the cam's lift profile; the follower may lift off);
//! valve-seat g_s = x_v >= 0 (the valve may bounce); the spring's coil
//! pairs (multi-mass model with coil contact). Cam and seat act on
//! different coordinates: with a rigid stem they would act on one, and at
//! the base circle (zero lash) both would be closed with linearly
//! dependent gradients, a singular semi-smooth Newton matrix.
//!
//! The single-mass comparison model replaces the spring by a linear spring
//! of rate k = G d^4 / (8 D^3 n_a) and preload k (L0 - L_inst) with a third
//! of the active coils' mass on the valve (the classical effective mass of
//! a spring with one end fixed) and the stiffness-proportional damping of
//! the multi-mass model (c = (c_s / k_s) k). Gas forces and gravity are
//! neglected.

use std::f64::consts::PI;

use crate::models::valve_spring::{CamLift, RetainerMotion, Spring};
use crate::problem::ContactSystemState;
use crate::problem::{ContactSystem, GapRow};

/// The valvetrain's own data (SI units).
#[derive(Debug, Clone, PartialEq)]
pub struct ValvetrainParams {
    /// Valve, retainer and keepers [kg].
    pub valve_mass: f64,
    /// Follower (bucket tappet) [kg].
    pub follower_mass: f64,
    /// Axial stiffness of the stem between follower and valve [N/m].
    pub stem_stiffness: f64,
    /// Damping ratio of the follower-valve mode [-].
    pub stem_damping_ratio: f64,
    /// Clearance between cam base circle and follower [m].
    pub lash: f64,
}

/// How the spring is modelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpringModel {
    /// The multi-mass model, with or without coil contact.
    MultiMass {
        /// Coil pairs as contacts.
        coil_contact: bool,
    },
    /// One linear spring, a third of its active mass on the valve.
    SingleMass,
}

/// The assembled valvetrain.
#[derive(Debug, Clone)]
pub struct Valvetrain {
    /// Its data.
    pub params: ValvetrainParams,
    /// The spring.
    pub spring: Spring,
    /// The cam lift profile and speed.
    pub cam: CamLift,
    /// The spring model.
    pub model: SpringModel,
    /// The system the BDF integrator runs.
    pub system: ContactSystem,
    /// DOF of the valve.
    pub valve: usize,
    /// DOF of the follower.
    pub follower: usize,
    /// Contact row of the cam.
    pub cam_row: usize,
    /// Contact row of the valve seat.
    pub seat_row: usize,
    /// Number of coil-pair contact rows (the first rows).
    pub coil_rows: usize,
}

impl Valvetrain {
    /// Assembles the valvetrain.
    pub fn new(
        params: ValvetrainParams,
        spring: Spring,
        cam: CamLift,
        model: SpringModel,
    ) -> Result<Self, String> {
        for (name, v) in [
            ("valve_mass", params.valve_mass),
            ("follower_mass", params.follower_mass),
            ("stem_stiffness", params.stem_stiffness),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("{name} = {v}: must be finite and > 0"));
            }
        }
        let lumps = match model {
            SpringModel::MultiMass { .. } => spring.dofs(),
            SpringModel::SingleMass => 0,
        };
        let (valve, follower) = (lumps, lumps + 1);
        let p = &spring.params;
        let top_end_coil = 0.5 * p.end_coils * p.coil_mass();
        let mut mass = vec![0.0; lumps + 2];
        mass[valve] = params.valve_mass + top_end_coil;
        mass[follower] = params.follower_mass;
        let mut system = ContactSystem::new(mass);
        let mut coil_rows = 0;
        match model {
            SpringModel::MultiMass { coil_contact } => {
                spring.assemble(&mut system, RetainerMotion::Dof(valve), coil_contact);
                coil_rows = system.gaps.len();
            }
            SpringModel::SingleMass => {
                let k = p.rate();
                system.mass[valve] += p.active_coils * p.coil_mass() / 3.0;
                system.add_link(Some(valve), None, k, single_mass_damping(&spring));
                // The preload pushes the valve closed (-x).
                system.load[valve] -= k * (p.free_length - p.installed_length);
            }
        }
        let m_pair =
            params.follower_mass * system.mass[valve] / (params.follower_mass + system.mass[valve]);
        let stem_damping =
            2.0 * params.stem_damping_ratio * (params.stem_stiffness * m_pair).sqrt();
        system.add_link(
            Some(valve),
            Some(follower),
            params.stem_stiffness,
            stem_damping,
        );
        let driver = system.add_driver(cam);
        let cam_row = system.gaps.len();
        system.gaps.push(GapRow {
            coeffs: vec![(follower, 1.0)],
            constant: params.lash,
            drives: vec![(driver, -1.0)],
        });
        let seat_row = system.gaps.len();
        system.gaps.push(GapRow {
            coeffs: vec![(valve, 1.0)],
            constant: 0.0,
            drives: Vec::new(),
        });
        system.stiffness_scale = spring.segment_stiffness;
        system.length_scale = p.wire_diameter;
        system.extent = p.free_length;
        Ok(Self {
            params,
            spring,
            cam,
            model,
            system,
            valve,
            follower,
            cam_row,
            seat_row,
            coil_rows,
        })
    }

    /// The spring's preload k (L0 - L_inst) [N].
    pub fn preload(&self) -> f64 {
        let p = &self.spring.params;
        p.rate() * (p.free_length - p.installed_length)
    }

    /// The rigid valvetrain's moving mass: follower, valve with the top end
    /// coil, and a third of the active coils [kg].
    pub fn rigid_mass(&self) -> f64 {
        let p = &self.spring.params;
        self.params.follower_mass
            + self.params.valve_mass
            + 0.5 * p.end_coils * p.coil_mass()
            + p.active_coils * p.coil_mass() / 3.0
    }

    /// At rest: valve on its seat carrying the preload, follower on the
    /// base circle (stem unloaded), spring at its installed state.
    pub fn initial_state(&self) -> ContactSystemState {
        let n = self.system.dofs();
        let mut q = vec![0.0; n];
        if let SpringModel::MultiMass { .. } = self.model {
            q[..self.spring.dofs()].copy_from_slice(&self.spring.installed_state());
        }
        let mut lambda = vec![0.0; self.system.gaps.len()];
        lambda[self.seat_row] = self.preload();
        ContactSystemState {
            t: 0.0,
            q,
            v: vec![0.0; n],
            lambda,
        }
    }

    /// The force of the spring on its seat in the cylinder head
    /// (compression positive) [N].
    pub fn spring_seat_force(&self, s: &ContactSystemState) -> f64 {
        let (xv, vv) = (s.q[self.valve], s.v[self.valve]);
        match self.model {
            SpringModel::MultiMass { .. } => {
                let lumps = self.spring.dofs();
                let lambda: Vec<f64> = if self.coil_rows > 0 {
                    s.lambda[..self.coil_rows].to_vec()
                } else {
                    vec![0.0; self.spring.pairs.len()]
                };
                self.spring
                    .seat_force(&s.q[..lumps], &s.v[..lumps], (xv, vv), &lambda)
            }
            SpringModel::SingleMass => {
                let p = &self.spring.params;
                let k = p.rate();
                k * (p.free_length - p.installed_length + xv)
                    + single_mass_damping(&self.spring) * vv
            }
        }
    }

    /// The quasi-static spring force at valve lift x: preload + k x [N].
    pub fn static_spring_force(&self, x: f64) -> f64 {
        self.preload() + self.spring.params.rate() * x
    }

    /// The rigid valvetrain's jump speed (no damping, rigid stem, the
    /// single-mass spring): the follower stays on the cam while the spring
    /// supplies the deceleration, F(x) >= m |x''| with x = h(theta) - lash
    /// and x'' = w^2 h''(theta), so w_jump^2 = min over the angles with
    /// h'' < 0 and h > lash of (F0 + k (h - lash)) / (m |h''|) (h'' per
    /// rad^2). Returns (n_jump [rev/s], the critical cam angle [rad]):
    /// a grid of 20,000 angles over the lift event, refined by golden
    /// section around the grid's minimum.
    pub fn rigid_jump_speed(&self) -> (f64, f64) {
        let m = self.rigid_mass();
        let lash = self.params.lash;
        let ratio = |theta: f64| {
            let (h, _, hdd) = self.cam.profile(theta);
            if hdd < 0.0 && h > lash {
                self.static_spring_force(h - lash) / (m * -hdd)
            } else {
                f64::INFINITY
            }
        };
        let span = 2.0 * self.cam.rise_angle + self.cam.dwell_angle;
        let n = 20_000;
        let step = span / n as f64;
        let (mut best, mut at) = (f64::INFINITY, 0.0);
        for i in 1..n {
            let theta = i as f64 * step;
            let r = ratio(theta);
            if r < best {
                best = r;
                at = theta;
            }
        }
        if !best.is_finite() {
            return (f64::INFINITY, f64::NAN);
        }
        let (mut a, mut b) = (at - step, at + step);
        let g = 0.5 * (5f64.sqrt() - 1.0);
        for _ in 0..100 {
            let (c, d) = (b - g * (b - a), a + g * (b - a));
            if ratio(c) < ratio(d) {
                b = d;
            } else {
                a = c;
            }
        }
        let theta = 0.5 * (a + b);
        (ratio(theta).min(best).sqrt() / (2.0 * PI), theta)
    }
}

/// The single-mass spring's damper: the multi-mass model's
/// stiffness-proportional damping applied to the rate, (c_s / k_s) k.
fn single_mass_damping(spring: &Spring) -> f64 {
    spring.segment_damping / spring.segment_stiffness * spring.params.rate()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::valve_spring::tu_delft;

    fn train(model: SpringModel) -> Valvetrain {
        let cam = CamLift {
            lift: 8e-3,
            rise_angle: PI / 3.0,
            dwell_angle: 0.0,
            cam_speed: 40.0,
        };
        let params = ValvetrainParams {
            valve_mass: 0.045,
            follower_mass: 0.035,
            stem_stiffness: 6e7,
            stem_damping_ratio: 0.05,
            lash: 0.0,
        };
        Valvetrain::new(params, Spring::new(tu_delft()).expect("spring"), cam, model)
            .expect("valvetrain")
    }

    /// At rest every DOF is in equilibrium: the seat carries the preload,
    /// the cam nothing.
    #[test]
    fn the_initial_state_is_an_equilibrium() {
        for model in [
            SpringModel::MultiMass { coil_contact: true },
            SpringModel::MultiMass {
                coil_contact: false,
            },
            SpringModel::SingleMass,
        ] {
            let vt = train(model);
            let s = vt.initial_state();
            let n = vt.system.dofs();
            let mut f = vec![0.0; n];
            let mut kq = vec![0.0; n];
            vt.system.load_at(&vt.system.drives(0.0), &mut f);
            vt.system.linear_forces(&s.q, &s.v, &mut kq);
            for p in 0..vt.system.gaps.len() {
                vt.system.add_contact(p, s.lambda[p], &mut f);
            }
            for k in 0..n {
                assert!(
                    (f[k] - kq[k]).abs() < 1e-8,
                    "{model:?} dof {k}: {}",
                    f[k] - kq[k]
                );
            }
            let seat = vt.spring_seat_force(&s);
            assert!((seat - vt.preload()).abs() < 1e-8, "{seat}");
            assert!((vt.preload() - 41.92 * 2.0).abs() < 0.1);
        }
    }

    /// The analytic jump speed: at the critical angle the spring force just
    /// supplies m w^2 |h''|, and every other angle of the event needs less.
    #[test]
    fn the_rigid_jump_speed_balances_spring_and_inertia() {
        let vt = train(SpringModel::SingleMass);
        let (n, theta) = vt.rigid_jump_speed();
        let w = 2.0 * PI * n;
        let m = vt.rigid_mass();
        let (h, _, hdd) = vt.cam.profile(theta);
        assert!(hdd < 0.0);
        assert!((vt.static_spring_force(h) - m * w * w * -hdd).abs() < 1e-9 * vt.preload());
        for i in 1..1000 {
            let th = i as f64 * 2.0 * PI / 3.0 / 1000.0;
            let (h, _, hdd) = vt.cam.profile(th);
            let need = if hdd < 0.0 { m * w * w * -hdd } else { 0.0 };
            assert!(vt.static_spring_force(h) - need >= -1e-9 * vt.preload());
        }
        // The cycloid decelerates over the second half of the rise (and the
        // return mirrors it).
        assert!(theta > PI / 6.0 && theta < PI / 2.0, "{theta}");
        assert!(n > 20.0 && n < 80.0, "{n}");
    }
}
