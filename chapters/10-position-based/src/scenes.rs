//! The chapter's scenes: a mass hanging from a compliant constraint, chapter 4's
//! chain held by projection, the slides' chain of boxes with its scripted mouse, and
//! a cloth of distance constraints for timing against chapter 9.

use crate::joint::{Anchor, BodySystem, Joint};
use crate::particles::PbdSystem;
use crate::projection::Stiffness;
use crate::rigid::Body;
use nalgebra::{Vector2, Vector3};
use pbm_constraints::constraint::{Nail, Rod};
use pbm_constraints::scenes::Chain;
use pbm_particles::condition::Distance;
use pbm_particles::forces::{G, Gravity};
use pbm_particles::particle::{Motion, Particle};
use pbm_prelim::PbmError;
use pbm_rigid::mass::MassProperties;
use pbm_rigid::rotation::{Quat, quat_from_axis_angle};
use std::collections::BTreeSet;

// ANCHOR: hanging_mass
/// A particle of `mass` hanging under gravity from a fixed point by a distance
/// constraint of length `rest`, released at rest with the constraint unstretched.
pub fn hanging_mass(
    mass: f64,
    rest: f64,
    stiffness: Stiffness,
) -> Result<PbdSystem<2>, PbmError> {
    let anchor = Particle::new(1.0, Vector2::zeros(), Vector2::zeros())?;
    let bob = Particle::new(mass, Vector2::new(0.0, -rest), Vector2::zeros())?;
    let mut system = PbdSystem::new(vec![anchor.with_motion(Motion::Fixed), bob]);
    system.add_force(Gravity { g: Vector2::new(0.0, -G) })?;
    system.add_constraint(Distance::new(0, 1, rest)?, stiffness)?;
    Ok(system)
}
// ANCHOR_END: hanging_mass

// ANCHOR: projected_chain
/// Chapter 4's chain (its particles, its nail, its rods, its gravity), held by
/// projection instead of by constraint forces.
pub fn projected_chain(
    chain: Chain,
    stiffness: Stiffness,
) -> Result<PbdSystem<2>, PbmError> {
    let mut system = PbdSystem::new(chain.particles()?);
    system.add_force(Gravity { g: Vector2::new(0.0, -G) })?;
    system.add_constraint(Nail::new(0, Vector2::zeros())?, stiffness)?;
    for i in 0..chain.links {
        system.add_constraint(Rod::new(i, i + 1, chain.length)?, stiffness)?;
    }
    Ok(system)
}
// ANCHOR_END: projected_chain

/// Gravity in the slides' demos (m/s²).
pub const SLIDES_G: f64 = 10.0;

/// The slides' chain of boxes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxChain {
    /// Number of boxes.
    pub links: usize,
    /// Box size: width, length (along the chain), depth (m).
    pub size: [f64; 3],
    /// Mass of one box (kg).
    pub mass: f64,
    /// Angle of the chain below the horizontal at release (rad); π/2 hangs straight
    /// down.
    pub release_angle: f64,
}

impl BoxChain {
    /// The book's chain: ten 1 kg boxes 5 × 20 × 5 cm, released straight out to the
    /// side.
    pub const BOOK: BoxChain = BoxChain {
        links: 10,
        size: [0.05, 0.2, 0.05],
        mass: 1.0,
        release_angle: 0.0,
    };

    // ANCHOR: box_chain
    /// The chain as bodies and ball joints: the top centre of box 0 is joined to the
    /// world origin, the top centre of every later box to the bottom centre of the
    /// box before it. Gravity is the slides' 10 m/s² along −y.
    pub fn build(&self) -> Result<BodySystem, PbmError> {
        if self.links == 0 {
            return Err(PbmError::invalid("box chain", "it needs at least one box"));
        }
        let [w, l, d] = self.size;
        let props = MassProperties::block(Vector3::new(w, l, d), self.mass)?;
        // Box-local +y points up the chain: turn it to point back towards the origin.
        let angle = self.release_angle;
        let down = Vector3::new(angle.cos(), -angle.sin(), 0.0);
        let q =
            quat_from_axis_angle(&Vector3::z(), std::f64::consts::FRAC_PI_2 - angle);
        let bodies = (0..self.links)
            .map(|i| Body::new(&props, down * (l * (i as f64 + 0.5)), q))
            .collect::<Result<Vec<_>, _>>()?;
        let mut system = BodySystem::new(bodies, Vector3::new(0.0, -SLIDES_G, 0.0));
        let (top, bottom) =
            (Vector3::new(0.0, 0.5 * l, 0.0), Vector3::new(0.0, -0.5 * l, 0.0));
        for i in 0..self.links {
            let above = if i == 0 {
                Anchor::World(Vector3::zeros())
            } else {
                Anchor::Body { body: i - 1, local: bottom }
            };
            system.add_joint(Joint::new(
                above,
                Anchor::Body { body: i, local: top },
                0.0,
                0.0,
            )?)?;
        }
        Ok(system)
    }
    // ANCHOR_END: box_chain

    /// The point of the last box the mouse grabs: its bottom centre, in its own
    /// coordinates.
    pub fn handle(&self) -> Vector3<f64> {
        Vector3::new(0.0, -0.5 * self.size[1], 0.0)
    }
}

/// An unrotated orientation.
pub const UNROTATED: Quat = Quat::new(1.0, 0.0, 0.0, 0.0);

// ANCHOR: drag_path
/// The scripted mouse: from the grabbed point `start`, 0.5 m right and 0.4 m up
/// in the first second, then once round a circle of radius 0.25 m (counter-
/// clockwise, starting at its bottom) in the next `loop_time` seconds, then
/// still. For the book's chain hanging 1 m below its pin every point of the path
/// is within reach.
pub fn drag_path(start: &Vector3<f64>, t: f64, loop_time: f64) -> Vector3<f64> {
    let corner = start + Vector3::new(0.5, 0.4, 0.0);
    if t <= 1.0 {
        return start + (corner - start) * t.max(0.0);
    }
    let angle = ((t - 1.0) / loop_time).min(1.0) * std::f64::consts::TAU;
    corner + Vector3::new(0.25 * angle.sin(), 0.25 * (1.0 - angle.cos()), 0.0)
}
// ANCHOR_END: drag_path

// ANCHOR: xpbd_cloth
/// A square cloth of n × n particles over chapter 9's pattern (side 1 m, 0.2 kg/m²),
/// held level by its y = 0 edge (fixed particles) like chapter 9's curtain: a
/// distance constraint along every triangle edge with compliance `stretch`, and
/// one across every interior edge (between the two corners facing it) with
/// compliance `bend`, both in m/N.
pub fn xpbd_cloth(
    n: usize,
    stretch: f64,
    bend: f64,
) -> Result<PbdSystem<3>, PbmError> {
    let (pattern, triangles) = pbm_cloth::scenes::grid(n, 1.0)?;
    let mass = crate::studies::SHEET_DENSITY / (n * n) as f64;
    let particles = pattern
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let particle = Particle::new(
                mass,
                Vector3::new(p[0] - 0.5, p[1], 0.0),
                Vector3::zeros(),
            )?;
            Ok(if k < n { particle.with_motion(Motion::Fixed) } else { particle })
        })
        .collect::<Result<Vec<_>, PbmError>>()?;
    let mut system = PbdSystem::new(particles);
    system.add_force(Gravity { g: Vector3::new(0.0, 0.0, -G) })?;
    let rest = |a: usize, b: usize| {
        let (p, q) = (pattern[a], pattern[b]);
        (p[0] - q[0]).hypot(p[1] - q[1])
    };
    let (stretch, bend) = (Stiffness::xpbd(stretch)?, Stiffness::xpbd(bend)?);
    // Each edge once, with the corners facing it (one on the border, two inside).
    let mut facing: std::collections::BTreeMap<(usize, usize), Vec<usize>> =
        Default::default();
    for t in &triangles {
        for k in 0..3 {
            let (a, b, c) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
            facing.entry((a.min(b), a.max(b))).or_default().push(c);
        }
    }
    let mut across = BTreeSet::new();
    for (&(a, b), corners) in &facing {
        system.add_constraint(Distance::new(a, b, rest(a, b))?, stretch)?;
        if let [c, d] = corners[..] {
            across.insert((c.min(d), c.max(d)));
        }
    }
    for (c, d) in across {
        system.add_constraint(Distance::new(c, d, rest(c, d))?, bend)?;
    }
    Ok(system)
}
// ANCHOR_END: xpbd_cloth
