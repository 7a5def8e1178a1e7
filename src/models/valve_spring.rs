//! A helical valve spring as an axial multi-mass model (after Haslinger,
//! Offner, Sopouch et al., ZAMM 94 (2014) 957-967): the wire cut into
//! `masses_per_coil` lumps per coil, consecutive lumps joined by axial
//! springs and dampers, coil contact between every lump and the lump one
//! coil further along the wire (gap = axial distance - wire diameter).
//!
//! Geometry (SI units; nodes i = 0..N along the wire, s_i = i / M coils):
//! - n_e / 2 closed end coils at each end (pitch d), n_a active coils with a
//!   progressive pitch p = d + gbar (1 + a (2u - 1)), u in [0, 1] along the
//!   active coils (the free gap per coil linear along the active wire, zero
//!   in the end coils), evaluated per lump: active segment j (0-based) takes
//!   u_j = (j + 1/2) / N_a, its middle, and the free length p(u_j) / M; so
//!   the coils close one after another (smallest gap at the bottom); gbar = (L0 - d (1 + n_e + n_a)) / n_a from the free
//!   length L0 (the wire's centreline from d/2 above the seat to L0 - d/2);
//! - free positions z0_0 = d/2, z0_{i+1} = z0_i + p_i / M.
//!
//! Dynamics: the end coils are rigid; the bottom one rests on the seat, the
//! top one moves with the retainer, z = z0 - (L0 - L_inst) - h(t), h the
//! valve lift. The active coils' N_a = n_a M segments carry k_s = k N_a
//! (in series: the rate k = G d^4 / (8 D^3 n_a), Wahl's formula without
//! the curvature correction) and c_s = 2 zeta k_s / w_1 (stiffness-
//! proportional, damping ratio zeta at the first mode); each of the
//! N_a - 1 free lumps has m = m_coil / M, m_coil = rho (pi d^2 / 4) pi D.
//! The discrete chain's natural frequencies (both ends fixed) are
//! w_j = 2 sqrt(k_s / m) sin(j pi / (2 N_a)); as N_a grows w_1 / (2 pi)
//! tends to the continuous spring's surge frequency f1 = sqrt(k / m_a) / 2
//! (m_a = n_a m_coil), with a relative error (pi / N_a)^2 / 24.
//!
//! Contact candidates: pairs (i, i + M) with at least one free node; gap
//! g = z_{i+M} - z_i - d >= 0; a contact force lambda >= 0 pushes i + M up
//! and i down. The gaps are linear in z (g = G z_f - b(t)).

use std::f64::consts::PI;

use crate::problem::{ContactSystem, GapRow, PrescribedMotion};

/// The spring's data (SI units).
#[derive(Debug, Clone, PartialEq)]
pub struct SpringParams {
    /// d [m].
    pub wire_diameter: f64,
    /// D [m].
    pub mean_diameter: f64,
    /// n_a.
    pub active_coils: f64,
    /// n_e, closed (inactive) coils, half at each end.
    pub end_coils: f64,
    /// G [Pa].
    pub shear_modulus: f64,
    /// rho [kg/m^3].
    pub density: f64,
    /// M, lumped masses per coil.
    pub masses_per_coil: usize,
    /// L0 [m].
    pub free_length: f64,
    /// L_inst [m].
    pub installed_length: f64,
    /// a in [0, 1): the gap runs from gbar (1 - a) at the bottom to
    /// gbar (1 + a) at the top.
    pub progressivity: f64,
    /// zeta at the first mode.
    pub damping_ratio: f64,
}

impl SpringParams {
    /// The rate k = G d^4 / (8 D^3 n_a) [N/m].
    pub fn rate(&self) -> f64 {
        self.shear_modulus * self.wire_diameter.powi(4)
            / (8.0 * self.mean_diameter.powi(3) * self.active_coils)
    }

    /// Mass of one coil rho (pi d^2 / 4) pi D [kg].
    pub fn coil_mass(&self) -> f64 {
        self.density * PI * self.wire_diameter.powi(2) / 4.0 * PI * self.mean_diameter
    }

    /// The continuous spring's first surge frequency, both ends fixed,
    /// f1 = sqrt(k / (n_a m_coil)) / 2 [Hz].
    pub fn surge_frequency(&self) -> f64 {
        0.5 * (self.rate() / (self.active_coils * self.coil_mass())).sqrt()
    }

    /// Solid length d (n_a + n_e + 1) [m].
    pub fn solid_length(&self) -> f64 {
        self.wire_diameter * (self.active_coils + self.end_coils + 1.0)
    }

    /// Mean free gap between active coils gbar [m].
    pub fn mean_gap(&self) -> f64 {
        (self.free_length - self.wire_diameter * (1.0 + self.end_coils + self.active_coils))
            / self.active_coils
    }
}

/// A cycloidal rise-dwell-return valve lift (R. L. Norton, Cam Design and
/// Manufacturing Handbook, 2nd ed., Industrial Press 2009, ch. 3: the
/// cycloidal displacement c(u) = u - sin(2 pi u) / (2 pi), continuous
/// acceleration): h = H c(theta / beta) over [0, beta], H over the dwell
/// [beta, beta + delta], H c((2 beta + delta - theta) / beta) over
/// [beta + delta, 2 beta + delta], 0 elsewhere (the base circle);
/// theta = 2 pi n_cam t, taken modulo 2 pi (the lift repeats every cam
/// revolution).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CamLift {
    /// H [m].
    pub lift: f64,
    /// beta [rad], the rise (and return) angle.
    pub rise_angle: f64,
    /// delta [rad], the dwell at full lift.
    pub dwell_angle: f64,
    /// n_cam [rev/s].
    pub cam_speed: f64,
}

impl CamLift {
    /// The cam angle at time t [rad].
    pub fn angle(&self, t: f64) -> f64 {
        2.0 * PI * self.cam_speed * t
    }

    /// (h, h', h'') at time t [m, m/s, m/s^2].
    pub fn at(&self, t: f64) -> (f64, f64, f64) {
        let w = 2.0 * PI * self.cam_speed;
        let theta = (w * t).rem_euclid(2.0 * PI);
        let (b, dw) = (self.rise_angle, self.dwell_angle);
        let (u, du) = if (0.0..=b).contains(&theta) {
            (theta / b, w / b)
        } else if theta > b && theta <= b + dw {
            return (self.lift, 0.0, 0.0);
        } else if theta > b + dw && theta <= 2.0 * b + dw {
            ((2.0 * b + dw - theta) / b, -w / b)
        } else {
            return (0.0, 0.0, 0.0);
        };
        let h = self.lift * (u - (2.0 * PI * u).sin() / (2.0 * PI));
        let hd = self.lift * (1.0 - (2.0 * PI * u).cos()) * du;
        let hdd = self.lift * 2.0 * PI * (2.0 * PI * u).sin() * du * du;
        (h, hd, hdd)
    }

    /// The duration of the lift event (2 beta + delta) / w [s].
    pub fn event_duration(&self) -> f64 {
        (2.0 * self.rise_angle + self.dwell_angle) / (2.0 * PI * self.cam_speed)
    }

    /// (h, dh/dtheta, d^2h/dtheta^2) at cam angle theta [m, m/rad,
    /// m/rad^2]: the profile itself, independent of the speed.
    pub fn profile(&self, theta: f64) -> (f64, f64, f64) {
        let w = 2.0 * PI * self.cam_speed;
        let (h, hd, hdd) = self.at(theta / w);
        (h, hd / w, hdd / (w * w))
    }
}

/// The cam lift as a driver of a [`ContactSystem`]: s = h(t).
impl PrescribedMotion for CamLift {
    fn at(&self, t: f64) -> (f64, f64, f64) {
        CamLift::at(self, t)
    }
}

/// The assembled spring: geometry, free DOFs, contact pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct Spring {
    /// The data.
    pub params: SpringParams,
    /// Free positions of the N + 1 nodes [m].
    pub free_positions: Vec<f64>,
    /// N_b, segments of one end coil.
    pub end_segments: usize,
    /// N_a, active segments.
    pub active_segments: usize,
    /// k_s [N/m].
    pub segment_stiffness: f64,
    /// c_s [N s/m].
    pub segment_damping: f64,
    /// m [kg] of a free lump.
    pub node_mass: f64,
    /// Contact pairs (i, i + M) with at least one free node.
    pub pairs: Vec<(usize, usize)>,
}

/// Where the retainer's displacement s comes from when the spring is
/// assembled into a [`ContactSystem`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RetainerMotion {
    /// Prescribed by a cam lift (the system's driver with this index).
    Driver(usize),
    /// A degree of freedom of the system (the valve).
    Dof(usize),
}

/// A node position as an affine form: sum coeff q + constant + drive s_d.
struct NodeForm {
    dof: Option<(usize, f64)>,
    constant: f64,
    drive: Option<(usize, f64)>,
}

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// On the seat (bottom end coil).
    Seat,
    /// Free lump k (0-based DOF index).
    Free(usize),
    /// With the retainer (top end coil).
    Retainer,
}

impl Spring {
    /// Validates the data and builds the geometry.
    pub fn new(params: SpringParams) -> Result<Self, String> {
        let p = &params;
        let m = p.masses_per_coil;
        let na = p.active_coils * m as f64;
        let nb = p.end_coils / 2.0 * m as f64;
        if (na - na.round()).abs() > 1e-9 || na.round() < 2.0 {
            return Err(format!(
                "active_coils x masses_per_coil = {na} must be a whole number >= 2"
            ));
        }
        if (nb - nb.round()).abs() > 1e-9 {
            return Err(format!(
                "end_coils / 2 x masses_per_coil = {nb} must be a whole number"
            ));
        }
        let (na, nb) = (na.round() as usize, nb.round() as usize);
        let gbar = p.mean_gap();
        if gbar * (1.0 - p.progressivity) <= 0.0 {
            return Err(format!(
                "the free length {} m leaves a gap gbar (1 - a) = {:e} m <= 0 between the coils (solid length {} m)",
                p.free_length,
                gbar * (1.0 - p.progressivity),
                p.solid_length()
            ));
        }
        let d = p.wire_diameter;
        let n = 2 * nb + na;
        let mut z = vec![d / 2.0];
        for j in 0..n {
            let pitch = if j < nb || j >= nb + na {
                d
            } else {
                let u = (j - nb) as f64 / na as f64 + 0.5 / na as f64;
                d + gbar * (1.0 + p.progressivity * (2.0 * u - 1.0))
            };
            z.push(z[j] + pitch / m as f64);
        }
        let ks = p.rate() * na as f64;
        let mass = p.coil_mass() / m as f64;
        let w1 = 2.0 * (ks / mass).sqrt() * (PI / (2.0 * na as f64)).sin();
        let mut spring = Self {
            segment_stiffness: ks,
            segment_damping: 2.0 * p.damping_ratio * ks / w1,
            node_mass: mass,
            free_positions: z,
            end_segments: nb,
            active_segments: na,
            pairs: Vec::new(),
            params,
        };
        spring.pairs = (0..=n - m)
            .map(|i| (i, i + m))
            .filter(|&(i, j)| spring.free_index(i).is_some() || spring.free_index(j).is_some())
            .collect();
        Ok(spring)
    }

    /// N, the last node's index.
    pub fn last_node(&self) -> usize {
        2 * self.end_segments + self.active_segments
    }

    /// Number of free lumps N_a - 1.
    pub fn dofs(&self) -> usize {
        self.active_segments - 1
    }

    /// What node i is.
    pub fn node(&self, i: usize) -> Node {
        let nb = self.end_segments;
        if i <= nb {
            Node::Seat
        } else if i >= nb + self.active_segments {
            Node::Retainer
        } else {
            Node::Free(i - nb - 1)
        }
    }

    /// The DOF index of node i if it is a free lump.
    pub fn free_index(&self, i: usize) -> Option<usize> {
        match self.node(i) {
            Node::Free(k) => Some(k),
            _ => None,
        }
    }

    /// The position of node i given the free DOFs and the retainer's
    /// displacement below its installed position s = h(t) (so z = z0 -
    /// (L0 - L_inst) - s for the retainer's nodes).
    pub fn position(&self, i: usize, z: &[f64], retainer: f64) -> f64 {
        match self.node(i) {
            Node::Seat => self.free_positions[i],
            Node::Free(k) => z[k],
            Node::Retainer => {
                self.free_positions[i]
                    - (self.params.free_length - self.params.installed_length)
                    - retainer
            }
        }
    }

    /// The velocity of node i (retainer velocity s').
    pub fn velocity(&self, i: usize, v: &[f64], retainer_velocity: f64) -> f64 {
        match self.node(i) {
            Node::Seat => 0.0,
            Node::Free(k) => v[k],
            Node::Retainer => -retainer_velocity,
        }
    }

    /// The static equilibrium at the installed length without contact:
    /// the active coils compressed uniformly.
    pub fn installed_state(&self) -> Vec<f64> {
        let nb = self.end_segments;
        let c = self.params.free_length - self.params.installed_length;
        (0..self.dofs())
            .map(|k| {
                let i = nb + 1 + k;
                self.free_positions[i] - c * (i - nb) as f64 / self.active_segments as f64
            })
            .collect()
    }

    /// Tension of active segment j (nodes j, j + 1) [N].
    pub fn segment_tension(&self, j: usize, z: &[f64], v: &[f64], s: (f64, f64)) -> f64 {
        let l0 = self.free_positions[j + 1] - self.free_positions[j];
        let dz = self.position(j + 1, z, s.0) - self.position(j, z, s.0);
        let dv = self.velocity(j + 1, v, s.1) - self.velocity(j, v, s.1);
        self.segment_stiffness * (dz - l0) + self.segment_damping * dv
    }

    /// The contact force above which a coil pair counts as closed,
    /// 1e-9 k_s d [N] (the force of a segment compressed by 1e-9 of the
    /// wire diameter): far above the round-off left in an open pair's
    /// force (an inactive NCP contact's lambda, about 1e-14 N; Lemke's
    /// basic variables at zero gap and zero force, round-off of the
    /// Delassus matrix's entries), far below any force that changes the
    /// spring's response.
    pub fn closed_force_threshold(&self) -> f64 {
        1e-9 * self.segment_stiffness * self.params.wire_diameter
    }

    /// Whether a contact force lambda [N] counts as closing its pair:
    /// lambda > [`Spring::closed_force_threshold`]. The static table's and
    /// the dynamic series' `closed_pairs` both count with it.
    pub fn carries_force(&self, lambda: f64) -> bool {
        lambda > self.closed_force_threshold()
    }

    /// Gap of contact pair p [m].
    pub fn gap(&self, p: usize, z: &[f64], retainer: f64) -> f64 {
        let (i, j) = self.pairs[p];
        self.position(j, z, retainer) - self.position(i, z, retainer) - self.params.wire_diameter
    }

    /// Gap rate of contact pair p [m/s].
    pub fn gap_rate(&self, p: usize, v: &[f64], retainer_velocity: f64) -> f64 {
        let (i, j) = self.pairs[p];
        self.velocity(j, v, retainer_velocity) - self.velocity(i, v, retainer_velocity)
    }

    /// The spring's internal forces on the free lumps (segment tensions,
    /// without contact) into `f`.
    pub fn internal_forces(&self, z: &[f64], v: &[f64], s: (f64, f64), f: &mut [f64]) {
        f.iter_mut().for_each(|x| *x = 0.0);
        let nb = self.end_segments;
        for j in nb..nb + self.active_segments {
            let t = self.segment_tension(j, z, v, s);
            if let Some(k) = self.free_index(j) {
                f[k] += t;
            }
            if let Some(k) = self.free_index(j + 1) {
                f[k] -= t;
            }
        }
    }

    /// Adds the contact force lambda of pair p to the free lumps.
    pub fn add_contact(&self, p: usize, lambda: f64, f: &mut [f64]) {
        let (i, j) = self.pairs[p];
        if let Some(k) = self.free_index(i) {
            f[k] -= lambda;
        }
        if let Some(k) = self.free_index(j) {
            f[k] += lambda;
        }
    }

    /// The force the spring presses on the seat (positive in compression):
    /// minus the first active segment's tension plus the contact forces on
    /// seat nodes.
    pub fn seat_force(&self, z: &[f64], v: &[f64], s: (f64, f64), lambda: &[f64]) -> f64 {
        let nb = self.end_segments;
        let mut f = -self.segment_tension(nb, z, v, s);
        for (p, &(i, _)) in self.pairs.iter().enumerate() {
            if matches!(self.node(i), Node::Seat) {
                f += lambda[p];
            }
        }
        f
    }

    /// The node's position as an affine form of the system's DOFs and
    /// drivers (the free lumps are DOFs 0..n).
    fn node_form(&self, i: usize, retainer: RetainerMotion) -> NodeForm {
        match self.node(i) {
            Node::Seat => NodeForm {
                dof: None,
                constant: self.free_positions[i],
                drive: None,
            },
            Node::Free(k) => NodeForm {
                dof: Some((k, 1.0)),
                constant: 0.0,
                drive: None,
            },
            Node::Retainer => {
                let constant = self.free_positions[i]
                    - (self.params.free_length - self.params.installed_length);
                match retainer {
                    RetainerMotion::Driver(d) => NodeForm {
                        dof: None,
                        constant,
                        drive: Some((d, -1.0)),
                    },
                    RetainerMotion::Dof(r) => NodeForm {
                        dof: Some((r, -1.0)),
                        constant,
                        drive: None,
                    },
                }
            }
        }
    }

    /// The difference of two nodes' forms, x_j - x_i, as (DOF coefficients,
    /// constant, drive coefficients).
    #[allow(clippy::type_complexity)]
    fn difference(
        &self,
        i: usize,
        j: usize,
        retainer: RetainerMotion,
    ) -> (Vec<(usize, f64)>, f64, Vec<(usize, f64)>) {
        let (a, b) = (self.node_form(i, retainer), self.node_form(j, retainer));
        let mut coeffs = Vec::new();
        if let Some((k, c)) = b.dof {
            coeffs.push((k, c));
        }
        if let Some((k, c)) = a.dof {
            match coeffs.iter_mut().find(|(x, _)| *x == k) {
                Some(e) => e.1 -= c,
                None => coeffs.push((k, -c)),
            }
        }
        coeffs.retain(|&(_, c)| c != 0.0);
        let mut drives = Vec::new();
        if let Some((d, c)) = b.drive {
            drives.push((d, c));
        }
        if let Some((d, c)) = a.drive {
            match drives.iter_mut().find(|(x, _)| *x == d) {
                Some(e) => e.1 -= c,
                None => drives.push((d, -c)),
            }
        }
        drives.retain(|&(_, c)| c != 0.0);
        (coeffs, b.constant - a.constant, drives)
    }

    /// Adds the spring to `system`: the free lumps' masses on DOFs 0..n
    /// (the system must have at least n DOFs), the active segments as
    /// spring-dampers (a segment's tension k_s (e - l0) + c_s e', e the
    /// nodes' distance, acts with -de/dq on the DOFs), and every coil pair
    /// as a contact row g = x_j - x_i - d (`with_contact`). The retainer's
    /// displacement is a driver or a DOF (`retainer`). Returns the index
    /// of the first contact row added.
    pub fn assemble(
        &self,
        system: &mut ContactSystem,
        retainer: RetainerMotion,
        with_contact: bool,
    ) -> usize {
        let (ks, cs) = (self.segment_stiffness, self.segment_damping);
        for k in 0..self.dofs() {
            system.mass[k] += self.node_mass;
        }
        let nb = self.end_segments;
        for j in nb..nb + self.active_segments {
            let l0 = self.free_positions[j + 1] - self.free_positions[j];
            let (a, e0, drives) = self.difference(j, j + 1, retainer);
            for &(x, cx) in &a {
                for &(y, cy) in &a {
                    *system.stiffness.entry((x, y)).or_insert(0.0) += ks * cx * cy;
                    *system.damping.entry((x, y)).or_insert(0.0) += cs * cx * cy;
                }
                system.load[x] -= cx * ks * (e0 - l0);
                for &(d, cd) in &drives {
                    system.load_drives[d].push((x, -cx * ks * cd, -cx * cs * cd));
                }
            }
        }
        let first = system.gaps.len();
        if with_contact {
            for &(i, j) in &self.pairs {
                let (coeffs, e0, drives) = self.difference(i, j, retainer);
                system.gaps.push(GapRow {
                    coeffs,
                    constant: e0 - self.params.wire_diameter,
                    drives,
                });
            }
        }
        first
    }

    /// The spring alone under a prescribed retainer lift (the valve-spring
    /// study): DOFs = the free lumps, driver 0 = the cam, one contact row
    /// per coil pair (in the order of `pairs`).
    pub fn prescribed_system(&self, cam: CamLift) -> ContactSystem {
        let mut system = ContactSystem::new(vec![0.0; self.dofs()]);
        let d = system.add_driver(cam);
        self.assemble(&mut system, RetainerMotion::Driver(d), true);
        system.stiffness_scale = self.segment_stiffness;
        system.length_scale = self.params.wire_diameter;
        system.extent = self.params.free_length;
        system
    }

    /// The force the spring presses on the retainer (positive in
    /// compression): minus the last active segment's tension plus the
    /// contact forces on retainer nodes.
    pub fn retainer_force(&self, z: &[f64], v: &[f64], s: (f64, f64), lambda: &[f64]) -> f64 {
        let top = self.end_segments + self.active_segments - 1;
        let mut f = -self.segment_tension(top, z, v, s);
        for (p, &(_, j)) in self.pairs.iter().enumerate() {
            if matches!(self.node(j), Node::Retainer) {
                f += lambda[p];
            }
        }
        f
    }

    /// The discrete chain's natural frequencies without contact, both ends
    /// fixed: w_j = 2 sqrt(k_s / m) sin(j pi / (2 N_a)) / (2 pi) [Hz].
    pub fn chain_frequencies(&self) -> Vec<f64> {
        let na = self.active_segments as f64;
        (1..self.active_segments)
            .map(|j| {
                2.0 * (self.segment_stiffness / self.node_mass).sqrt()
                    * (j as f64 * PI / (2.0 * na)).sin()
                    / (2.0 * PI)
            })
            .collect()
    }
}

/// The repository's valve spring: TU Delft ME46060 `springparams1.m` (free
/// length 41 mm, installed 39 mm, 4.5 active plus 2 end coils, G = 81.5
/// GPa, rho = 7850 kg/m^3), d = 4 mm and D = 24 mm chosen within its ranges
/// (d 2-5 mm, D 20-40 mm): solid length 30 mm below installed minus lift
/// (31 mm), f1 = 559 Hz above 13 x the cam frequency at 40 rev/s (520 Hz).
pub fn tu_delft() -> SpringParams {
    SpringParams {
        wire_diameter: 4.0e-3,
        mean_diameter: 24.0e-3,
        active_coils: 4.5,
        end_coils: 2.0,
        shear_modulus: 81.5e9,
        density: 7850.0,
        masses_per_coil: 8,
        free_length: 41.0e-3,
        installed_length: 39.0e-3,
        progressivity: 0.5,
        damping_ratio: 0.02,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers the module doc and the spec comments state.
    #[test]
    fn the_repository_spring_meets_its_design_constraints() {
        let p = tu_delft();
        let k = p.rate();
        assert!((k - 41_920.0).abs() < 10.0, "{k}");
        assert!(
            (p.surge_frequency() - 559.3).abs() < 0.5,
            "{}",
            p.surge_frequency()
        );
        assert!(p.solid_length() < p.installed_length - 8e-3);
        assert!(p.surge_frequency() > 13.0 * 40.0);
        let s = Spring::new(p).expect("spring");
        assert_eq!(s.dofs(), 35);
        // The free length is reproduced: last centreline + d/2.
        let top = s.free_positions[s.last_node()] + 2e-3;
        assert!((top - 41e-3).abs() < 1e-15, "{top}");
    }

    /// The installed state is an equilibrium: no internal force on a free
    /// lump; the seat carries k (L0 - L_inst).
    #[test]
    fn the_installed_state_is_an_equilibrium() {
        let s = Spring::new(tu_delft()).expect("spring");
        let z = s.installed_state();
        let v = vec![0.0; s.dofs()];
        let mut f = vec![0.0; s.dofs()];
        s.internal_forces(&z, &v, (0.0, 0.0), &mut f);
        assert!(f.iter().all(|x| x.abs() < 1e-9), "{f:?}");
        let seat = s.seat_force(&z, &v, (0.0, 0.0), &vec![0.0; s.pairs.len()]);
        assert!((seat - s.params.rate() * 2e-3).abs() < 1e-9, "{seat}");
        assert!((0..s.pairs.len()).all(|p| s.gap(p, &z, 0.0) > 0.0));
    }

    /// With a dwell: H held over [beta, beta + delta], the return mirrors
    /// the rise, the lift repeats every revolution, and the profile in the
    /// cam angle does not depend on the speed.
    #[test]
    fn the_dwell_holds_full_lift_and_the_lift_repeats() {
        let c = CamLift {
            lift: 8e-3,
            rise_angle: PI / 3.0,
            dwell_angle: PI / 9.0,
            cam_speed: 40.0,
        };
        let w = 2.0 * PI * 40.0;
        let at = |theta: f64| c.at(theta / w);
        assert_eq!(at(PI / 3.0 + PI / 18.0), (8e-3, 0.0, 0.0));
        for u in [0.1, 0.37, 0.8] {
            let rise = at(u * PI / 3.0);
            let ret = at(2.0 * PI / 3.0 + PI / 9.0 - u * PI / 3.0);
            assert!((rise.0 - ret.0).abs() < 1e-15 && (rise.1 + ret.1).abs() < 1e-12);
            let next = c.at(u * PI / 3.0 / w + 1.0 / 40.0);
            assert!((next.0 - rise.0).abs() < 1e-12);
        }
        assert!((c.event_duration() - (2.0 * PI / 3.0 + PI / 9.0) / w).abs() < 1e-15);
        let slow = CamLift {
            cam_speed: 5.0,
            ..c
        };
        let (a, b) = (c.profile(0.4), slow.profile(0.4));
        assert!((a.0 - b.0).abs() < 1e-15 && (a.1 - b.1).abs() < 1e-12 && (a.2 - b.2).abs() < 1e-9);
        assert!(
            (a.2 - 8e-3 * 2.0 * PI * (2.0 * PI * 0.4 / (PI / 3.0)).sin() / (PI / 3.0).powi(2))
                .abs()
                < 1e-12
        );
    }

    /// The assembled system reproduces the spring's own forces and gaps:
    /// with the retainer prescribed (driver) and with the retainer a DOF,
    /// where the generalised force on that DOF is minus the retainer force.
    #[test]
    #[allow(clippy::needless_range_loop)]
    fn the_assembled_system_reproduces_the_spring() {
        let s = Spring::new(tu_delft()).expect("spring");
        let n = s.dofs();
        let cam = CamLift {
            lift: 8e-3,
            rise_angle: PI / 3.0,
            dwell_angle: 0.0,
            cam_speed: 40.0,
        };
        let t = 2.1e-3;
        let (h, hd, _) = cam.at(t);
        let z: Vec<f64> = s
            .installed_state()
            .iter()
            .enumerate()
            .map(|(k, x)| x - 1e-4 * ((k as f64) * 0.7).sin())
            .collect();
        let v: Vec<f64> = (0..n).map(|k| 0.3 * (k as f64 * 1.3).cos()).collect();
        let lambda: Vec<f64> = (0..s.pairs.len()).map(|p| (p % 3) as f64 * 10.0).collect();
        let mut expected = vec![0.0; n];
        s.internal_forces(&z, &v, (h, hd), &mut expected);
        for p in 0..s.pairs.len() {
            s.add_contact(p, lambda[p], &mut expected);
        }
        // Prescribed retainer.
        let sys = s.prescribed_system(cam);
        let drives = sys.drives(t);
        let mut f = vec![0.0; n];
        let mut kq = vec![0.0; n];
        sys.load_at(&drives, &mut f);
        sys.linear_forces(&z, &v, &mut kq);
        for p in 0..s.pairs.len() {
            sys.add_contact(p, lambda[p], &mut f);
            assert!((sys.gap(p, &z, &drives) - s.gap(p, &z, h)).abs() < 1e-15);
            assert!((sys.gap_rate(p, &v, &drives) - s.gap_rate(p, &v, hd)).abs() < 1e-12);
        }
        let scale = s.segment_stiffness * 1e-3;
        for k in 0..n {
            assert!((f[k] - kq[k] - expected[k]).abs() < 1e-9 * scale, "{k}");
        }
        // Retainer as DOF n.
        let mut sys = ContactSystem::new(vec![0.0; n + 1]);
        s.assemble(&mut sys, RetainerMotion::Dof(n), true);
        let mut q = z.clone();
        q.push(h);
        let mut w = v.clone();
        w.push(hd);
        let mut f = vec![0.0; n + 1];
        let mut kq = vec![0.0; n + 1];
        sys.load_at(&[], &mut f);
        sys.linear_forces(&q, &w, &mut kq);
        for p in 0..s.pairs.len() {
            sys.add_contact(p, lambda[p], &mut f);
            assert!((sys.gap(p, &q, &[]) - s.gap(p, &z, h)).abs() < 1e-15);
        }
        for k in 0..n {
            assert!((f[k] - kq[k] - expected[k]).abs() < 1e-9 * scale, "{k}");
        }
        let on_valve = f[n] - kq[n];
        let retainer = s.retainer_force(&z, &v, (h, hd), &lambda);
        assert!(
            (on_valve + retainer).abs() < 1e-9 * scale,
            "{on_valve} {retainer}"
        );
    }

    /// The cycloidal lift: continuous, H at beta, velocity by differences.
    #[test]
    fn the_cycloidal_lift_is_smooth() {
        let c = CamLift {
            lift: 8e-3,
            rise_angle: PI / 3.0,
            dwell_angle: 0.0,
            cam_speed: 40.0,
        };
        let te = c.event_duration();
        assert!((c.at(te / 2.0).0 - 8e-3).abs() < 1e-15);
        assert_eq!(c.at(te * 1.01).0, 0.0);
        for t in [0.0, te / 2.0, te] {
            assert!(
                c.at(t - 1e-9).2.abs() < 1.0 && c.at(t + 1e-9).2.abs() < 1.0,
                "{t}"
            );
        }
        let h = 1e-7;
        for k in 1..100 {
            let t = te * k as f64 / 100.0;
            let d = (c.at(t + h).0 - c.at(t - h).0) / (2.0 * h);
            assert!((d - c.at(t).1).abs() < 1e-6, "{t}");
            // At the top (k = 50) rise and return meet with a kink in the
            // acceleration (the jerk flips sign); the acceleration itself is
            // continuous (0 on both sides), checked below.
            if k != 50 {
                let a = (c.at(t + h).1 - c.at(t - h).1) / (2.0 * h);
                assert!(
                    (a - c.at(t).2).abs() < 1e-2 * c.at(t).2.abs().max(1.0),
                    "{t}"
                );
            }
        }
    }
}
