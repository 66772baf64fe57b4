//! A cloth of distance constraints (for timing against chapter 9), and the same
//! sheet hung straight down, by Gauss–Seidel or Jacobi passes.

use super::shared::FRAME;
use crate::particles::PbdSystem;
use crate::projection::{Scratch, Stiffness, project};
use nalgebra::Vector3;
use pbm_particles::condition::Distance;
use pbm_particles::forces::{G, Gravity};
use pbm_particles::particle::{Motion, Particle};
use pbm_prelim::PbmError;
use std::collections::{BTreeMap, BTreeSet};

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
    let mut system = PbdSystem::new(sheet_particles(n, &pattern)?);
    system.add_force(Gravity { g: Vector3::new(0.0, 0.0, -G) })?;
    let rest = |a: usize, b: usize| {
        let (p, q) = (pattern[a], pattern[b]);
        (p[0] - q[0]).hypot(p[1] - q[1])
    };
    let (stretch, bend) = (Stiffness::xpbd(stretch)?, Stiffness::xpbd(bend)?);
    let (edges, across) = sheet_pairs(&triangles);
    for (a, b) in edges {
        system.add_constraint(Distance::new(a, b, rest(a, b))?, stretch)?;
    }
    for (c, d) in across {
        system.add_constraint(Distance::new(c, d, rest(c, d))?, bend)?;
    }
    Ok(system)
}
// ANCHOR_END: xpbd_cloth

/// The sheet's particles at their pattern places in z = 0, each of an equal share
/// of its mass, the first row (y = 0) fixed.
fn sheet_particles(
    n: usize,
    pattern: &[[f64; 2]],
) -> Result<Vec<Particle<3>>, PbmError> {
    let mass = SHEET_DENSITY / (n * n) as f64;
    pattern
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
        .collect()
}

/// Pairs of particle indices.
pub type Pairs = Vec<(usize, usize)>;

// ANCHOR: xpbd_cloth_parts
/// The sheet's two kinds of pair: every triangle edge once, and, across every
/// interior edge, the two corners facing it.
pub fn sheet_pairs(triangles: &[[usize; 3]]) -> (Pairs, Pairs) {
    let mut across = BTreeSet::new();
    let mut edges = Vec::new();
    for (&(a, b), corners) in &facing_corners(triangles) {
        edges.push((a, b));
        if let [c, d] = corners[..] {
            across.insert((c.min(d), c.max(d)));
        }
    }
    (edges, across.into_iter().collect())
}

/// Each edge of the triangles once, (low, high), with the corners facing it (one
/// on the border, two inside).
fn facing_corners(triangles: &[[usize; 3]]) -> BTreeMap<(usize, usize), Vec<usize>> {
    let mut facing: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for t in triangles {
        for k in 0..3 {
            let (a, b, c) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
            facing.entry((a.min(b), a.max(b))).or_default().push(c);
        }
    }
    facing
}
// ANCHOR_END: xpbd_cloth_parts

/// Area density of chapter 9's cotton (kg/m²), which [`xpbd_cloth`]
/// uses too.
pub const SHEET_DENSITY: f64 = 0.2;
/// Chapter 9's cotton, k = 1000 N/m, as a compliance per edge: α = 1/k (m/N).
pub const SHEET_COMPLIANCE: f64 = 1e-3;

/// How a sheet hung straight down settled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SheetSag {
    /// The free edge's mean extension below the sheet's rest length (m), averaged
    /// over the second half of the run.
    pub extension: f64,
    /// The smallest and largest of that mean over the second half (m).
    pub range: (f64, f64),
    /// Height difference between the highest and the lowest particle of the free
    /// edge at the end (m): zero for a sheet that hangs flat, decimetres for one
    /// that has crumpled.
    pub edge_spread: f64,
    /// Distance constraints of the sheet, stretch and bending.
    pub constraints: usize,
}

/// How a pass visits the constraints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sweep {
    /// One after another, each seeing the corrections made before it: the chapter's
    /// loop, [`PbdSystem::step`].
    GaussSeidel,
    /// All from the same positions, each particle then moved by the mean of the
    /// corrections it received: [`jacobi_pass`].
    Jacobi,
}

// ANCHOR: jacobi_pass
/// One Jacobi pass over the constraints of `system` at the positions `x`. Every
/// constraint computes its Δλ from the same `x`, so they could all run at once,
/// and takes the share `relax` of it, in its multiplier and in its moves alike.
/// Unscaled, a particle in six constraints would take six full corrections at
/// once and overshoot; 1/(most constraints on one particle) is always safe.
pub fn jacobi_pass(
    system: &PbdSystem<3>,
    x: &mut [Vector3<f64>],
    lambdas: &mut [Vec<f64>],
    (h, relax): (f64, f64),
) -> Result<(), PbmError> {
    let w = system.inverse_masses();
    let (mut trial, mut scratch) = (x.to_vec(), Scratch::default());
    let (mut moves, mut before) = (vec![Vector3::zeros(); x.len()], Vec::new());
    for (c, lambda) in system.constraints.iter().zip(lambdas) {
        let condition = c.condition.as_ref();
        before.clear();
        before.extend_from_slice(lambda);
        project(condition, c.stiffness, lambda, w, &mut trial, h, &mut scratch)?;
        for (l, l0) in lambda.iter_mut().zip(&before) {
            *l = l0 + relax * (*l - l0);
        }
        for &i in condition.particles() {
            moves[i] += (trial[i] - x[i]) * relax;
            trial[i] = x[i];
        }
    }
    for (x, m) in x.iter_mut().zip(moves) {
        *x += m;
    }
    Ok(())
}
// ANCHOR_END: jacobi_pass

/// One step of [`PbdSystem::step`]'s loop with Jacobi passes in place of its
/// Gauss–Seidel ones, for the hanging sheet: the prediction under gravity (the
/// sheet's only force), `iterations` passes of [`jacobi_pass`] with the safe
/// share, v = (x − p)/h.
pub fn jacobi_step(
    system: &mut PbdSystem<3>,
    h: f64,
    iterations: usize,
) -> Result<(), PbmError> {
    let g = Vector3::new(0.0, 0.0, -G);
    let particles = &mut system.particles.particles;
    let previous: Vec<Vector3<f64>> = particles.iter().map(|p| p.x).collect();
    for p in particles.iter_mut().filter(|p| matches!(p.motion, Motion::Free)) {
        p.v += g * h;
        p.x += p.v * h;
    }
    let mut x: Vec<Vector3<f64>> = particles.iter().map(|p| p.x).collect();
    let mut lambdas: Vec<Vec<f64>> =
        system.constraints.iter().map(|c| vec![0.0; c.condition.rows()]).collect();
    let mut on_particle = vec![0.0_f64; x.len()];
    for c in &system.constraints {
        for &i in c.condition.particles() {
            on_particle[i] += 1.0;
        }
    }
    let relax = 1.0 / on_particle.iter().fold(1.0, |a: f64, &b| a.max(b));
    for _ in 0..iterations {
        jacobi_pass(system, &mut x, &mut lambdas, (h, relax))?;
    }
    for (k, p) in system.particles.particles.iter_mut().enumerate() {
        if matches!(p.motion, Motion::Free) {
            p.x = x[k];
            p.v = (x[k] - previous[k]) / h;
        }
    }
    system.particles.t += h;
    Ok(())
}

/// The farthest an intact hanging sheet reaches from the middle of its rail (m).
const APART: f64 = 1.118_033_988_749_895; // √(0.5² + 1²)

// ANCHOR: sheet_sag
/// A 1 m square sheet of k = 1/α (N/m) stretching stiffness hangs under its own
/// weight from its top edge; the tension at depth y is ρ g (L − y) per metre of
/// width, so the free edge sinks by ∫ ρ g (L − y)/k dy = ρ g L²/(2k).
pub fn sheet_sag_closed_form(compliance: f64) -> f64 {
    SHEET_DENSITY * G * compliance / 2.0
}
// ANCHOR_END: sheet_sag

// ANCHOR: hanging_sheet
/// [`xpbd_cloth`] with `n` × `n` particles, stretch compliance α and
/// limp bending (α = 1 m/N), turned to hang straight down at rest from its held
/// edge, run for `seconds` at `substeps` steps per 60 Hz frame of `iterations`
/// passes, each a `sweep`.
pub fn hanging_sheet(
    n: usize,
    compliance: f64,
    (substeps, iterations, sweep): (usize, usize, Sweep),
    t_end: f64,
) -> Result<SheetSag, PbmError> {
    let mut sheet = xpbd_cloth(n, compliance, 1.0)?;
    // The pattern lies in z = 0 with the held edge at y = 0: turn y into −z.
    for p in &mut sheet.particles.particles {
        p.x = nalgebra::Vector3::new(p.x.x, 0.0, -p.x.y);
    }
    let free_edge = n * (n - 1)..n * n;
    let frames = (t_end / FRAME).round() as usize;
    if frames < 2 {
        return Err(PbmError::invalid("hanging sheet", "run at least two frames"));
    }
    let (mut sum, mut range) = (0.0, (f64::INFINITY, f64::NEG_INFINITY));
    for frame in 1..=frames {
        sheet_frame(&mut sheet, (substeps, iterations, sweep))?;
        check_intact(&sheet, frame * substeps)?; // the Jacobi steps count too
        if 2 * frame > frames {
            let p = &sheet.particles.particles[free_edge.clone()];
            let depth = -p.iter().map(|p| p.x.z).sum::<f64>() / n as f64;
            let extension = depth - 1.0;
            sum += extension;
            range = (range.0.min(extension), range.1.max(extension));
        }
    }
    let z = sheet.particles.particles[free_edge].iter().map(|p| p.x.z);
    let edge_spread =
        z.clone().fold(f64::NEG_INFINITY, f64::max) - z.fold(f64::INFINITY, f64::min);
    let extension = sum / (frames - frames / 2) as f64;
    let constraints = sheet.constraints.len();
    Ok(SheetSag { extension, range, edge_spread, constraints })
}
// ANCHOR_END: hanging_sheet

// ANCHOR: sheet_frame
/// One 60 Hz frame of the sheet: `substeps` steps of `iterations` passes, each a
/// `sweep`.
fn sheet_frame(
    sheet: &mut PbdSystem<3>,
    (substeps, iterations, sweep): (usize, usize, Sweep),
) -> Result<(), PbmError> {
    match sweep {
        Sweep::GaussSeidel => sheet.frame(FRAME, substeps, iterations)?,
        Sweep::Jacobi => {
            for _ in 0..substeps {
                jacobi_step(sheet, FRAME / substeps as f64, iterations)?;
            }
        }
    }
    Ok(())
}

/// An error if the sheet, after `steps` steps, has come apart. Held at the rail's
/// midpoint ± 0.5 m, an intact 1 m sheet stays within √(0.5² + 1²) ≈ 1.12 m of
/// it; twice that means its edges have torn apart. A position that is no longer
/// finite counts as infinitely far.
fn check_intact(sheet: &PbdSystem<3>, steps: usize) -> Result<(), PbmError> {
    let distance = |p: &Particle<3>| p.x.norm();
    let far = sheet
        .particles
        .particles
        .iter()
        .map(distance)
        .fold(0.0, |a, d| if d.is_nan() { f64::INFINITY } else { a.max(d) });
    if far > 2.0 * APART {
        let why = format!("it came apart: a particle is {far:.3e} m from the rail");
        return Err(PbmError::Degenerate { what: "hanging sheet", why }
            .at_step(steps, sheet.particles.t));
    }
    Ok(())
}
// ANCHOR_END: sheet_frame
