//! A net of particles hanging in the plane from two corners, held together by
//! XPBD distance constraints: the chapter's live demo that the pointer can drag,
//! and the exercise `pbd/net` whose numbers the demo shows.

use crate::particles::PbdSystem;
use crate::projection::Stiffness;
use crate::scenes::FRAME;
use nalgebra::Vector2;
use pbm_particles::condition::Distance;
use pbm_particles::forces::{G, Gravity};
use pbm_particles::particle::{Motion, Particle};
use pbm_prelim::PbmError;

/// A square net of n × n particles, 1 m a side and 1 kg in all, hanging from its
/// top corners.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Net {
    /// Particles along a side.
    pub n: usize,
    /// Every edge's compliance α (m/N): the inverse of its stiffness.
    pub compliance: f64,
}

impl Net {
    /// The net's side (m).
    pub const SIDE: f64 = 1.0;

    /// The distance between neighbours (m).
    pub fn spacing(&self) -> f64 {
        Self::SIDE / (self.n - 1) as f64
    }

    /// Particle (row i from the top, column j)'s index.
    pub fn id(&self, i: usize, j: usize) -> usize {
        i * self.n + j
    }

    // ANCHOR: net
    /// The net at rest and unstretched, top row at y = 0, its top corners nailed:
    /// an edge between each pair of neighbours in a row or a column, and one
    /// diagonal per cell, alternating, to keep the cells from shearing flat.
    pub fn build(&self) -> Result<PbdSystem<2>, PbmError> {
        if !(2..=40).contains(&self.n) {
            let why = format!("n = {}; a net needs 2 to 40 particles a side", self.n);
            return Err(PbmError::invalid("net", why));
        }
        let (n, s) = (self.n, self.spacing());
        let mut system = PbdSystem::new(self.particles()?);
        system.add_force(Gravity { g: Vector2::new(0.0, -G) })?;
        let stiffness = Stiffness::xpbd(self.compliance)?;
        let mut edge = |a: usize, b: usize, rest: f64| {
            system.add_constraint(Distance::new(a, b, rest)?, stiffness)
        };
        for i in 0..n {
            for j in 0..n {
                if j + 1 < n {
                    edge(self.id(i, j), self.id(i, j + 1), s)?;
                }
                if i + 1 < n {
                    edge(self.id(i, j), self.id(i + 1, j), s)?;
                }
                if i + 1 < n && j + 1 < n {
                    let (a, b) = if (i + j) % 2 == 0 {
                        (self.id(i, j), self.id(i + 1, j + 1))
                    } else {
                        (self.id(i, j + 1), self.id(i + 1, j))
                    };
                    edge(a, b, s * std::f64::consts::SQRT_2)?;
                }
            }
        }
        Ok(system)
    }
    // ANCHOR_END: net

    // ANCHOR: net_particles
    /// The net's particles, row by row from the top, 1 kg shared equally, the top
    /// row's two corners nailed.
    fn particles(&self) -> Result<Vec<Particle<2>>, PbmError> {
        let (n, s) = (self.n, self.spacing());
        let mass = 1.0 / (n * n) as f64;
        let mut particles = Vec::with_capacity(n * n);
        for i in 0..n {
            for j in 0..n {
                let at = Vector2::new(j as f64 * s, -(i as f64) * s);
                let p = Particle::new(mass, at, Vector2::zeros())?;
                let nailed = i == 0 && (j == 0 || j == n - 1);
                particles.push(if nailed { p.with_motion(Motion::Fixed) } else { p });
            }
        }
        Ok(particles)
    }
    // ANCHOR_END: net_particles
}

/// The largest stretch of any edge, as a fraction of the spacing.
pub fn largest_stretch(system: &PbdSystem<2>, net: &Net) -> Result<f64, PbmError> {
    Ok(system.max_abs_c()? / net.spacing())
}

/// The lowest particle's height (m).
pub fn lowest(system: &PbdSystem<2>) -> f64 {
    system.particles.particles.iter().map(|p| p.x.y).fold(f64::INFINITY, f64::min)
}

/// Runs the net for `frames` frames of [`FRAME`], `substeps` steps of one pass
/// each: what the demo does while no one drags.
pub fn hang(
    net: &Net,
    substeps: usize,
    frames: usize,
) -> Result<PbdSystem<2>, PbmError> {
    let mut system = net.build()?;
    for _ in 0..frames {
        system.frame(FRAME, substeps, 1)?;
    }
    Ok(system)
}
