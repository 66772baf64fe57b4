//! Stage 1: which pairs touch, and where. Chapter 7's coherent sweep keeps the
//! boxes' bounds sorted from step to step and names the pairs whose bounds overlap;
//! chapter 7's contact finding turns each such pair into vertex/face and edge/edge
//! contacts, which are held in the bodies' own frames so that they move with them
//! through the step's stages.

use super::{
    Attached, Found, Frame, Held, PARALLEL, Shape, Solver, V3, World, frames_of,
};
use crate::impulse::Contact;
use nalgebra::{Rotation3, UnitQuaternion};
use pbm_collision::aabb::Aabb;
use pbm_collision::polyhedron::{
    ConvexPolyhedron, Feature, PlaneWitness, clipped_contacts, closest_parameters,
    contacts_on, separation, separation_over, witness_gap,
};
use pbm_collision::sweep::CoherentSweep;
use pbm_prelim::PbmError;

/// Two tangents across the normal n, in the frame of b (which carries them).
fn tangents(n: V3, fb: &Frame) -> (V3, V3) {
    let t1 = n.cross(&if n.x.abs() < 0.9 { V3::x() } else { V3::y() }).normalize();
    (fb.r.transpose() * t1, fb.r.transpose() * n.cross(&t1))
}

impl World {
    /// Body or fixture k (bodies first, then fixtures) as a polyhedron in world
    /// coordinates (`None` for a ball, or past the last fixture).
    pub fn placed(&self, k: usize) -> Option<ConvexPolyhedron> {
        let n = self.shapes.len();
        if k >= n {
            return self.fixtures.get(k - n).map(|f| f.solid.clone());
        }
        let Shape::Polyhedron(solid) = &self.shapes[k] else { return None };
        let body = &self.system.bodies[k];
        let rotation = Rotation3::from_matrix_unchecked(body.rotation());
        Some(
            solid.placed(
                body.position(),
                UnitQuaternion::from_rotation_matrix(&rotation),
            ),
        )
    }

    /// The bodies moved: the depths measured and the solids placed before are not
    /// theirs.
    pub(super) fn moved(&mut self) {
        self.depths.clear();
        self.solids.clear();
    }

    /// Places every body's polyhedron where the body is, unless that was done since
    /// the bodies last moved.
    fn place_all(&mut self) {
        if self.solids.len() != self.shapes.len() {
            self.solids = (0..self.shapes.len()).map(|k| self.placed(k)).collect();
        }
    }

    /// Body or fixture k as placed by [`World::place_all`] (`None` for a ball, or
    /// past the last fixture).
    fn solid(&self, k: usize) -> Option<&ConvexPolyhedron> {
        match k.checked_sub(self.shapes.len()) {
            Some(f) => self.fixtures.get(f).map(|f| &f.solid),
            None => self.solids.get(k)?.as_ref(),
        }
    }

    /// The distance (m) from body k's centre of mass to its farthest point.
    pub(super) fn radius(&self, k: usize) -> f64 {
        match &self.shapes[k] {
            Shape::Polyhedron(s) => {
                s.vertices().iter().map(|v| v.norm()).fold(0.0, f64::max)
            }
            Shape::Ball(r) => *r,
        }
    }

    /// The bounds of every body and then every fixture, grown by the tolerance so
    /// that two solids within it of touching have overlapping bounds.
    fn bounds(&mut self) -> Result<Vec<Aabb<3>>, PbmError> {
        self.place_all();
        let grow = |lo: V3, hi: V3| {
            let eps = V3::repeat(0.5 * self.reach);
            Aabb::new((lo - eps).into(), (hi + eps).into())
        };
        let of_solid = |s: &ConvexPolyhedron| {
            let v = s.vertices();
            let lo = v.iter().fold(V3::repeat(f64::INFINITY), |m, p| m.inf(p));
            let hi = v.iter().fold(V3::repeat(f64::NEG_INFINITY), |m, p| m.sup(p));
            grow(lo, hi)
        };
        let bodies = (0..self.shapes.len()).map(|k| match self.solid(k) {
            Some(solid) => of_solid(solid),
            None => {
                let (c, r) = (self.system.bodies[k].position(), self.radius(k));
                grow(c - V3::repeat(r), c + V3::repeat(r))
            }
        });
        bodies.chain(self.fixtures.iter().map(|f| of_solid(&f.solid))).collect()
    }

    // ANCHOR: pairs
    /// The pairs worth testing, (body, body) or (body, fixture), in order: those
    /// whose bounds overlap, by chapter 7's coherent sweep, which re-sorts last
    /// step's lists (a few exchanges when little moved). A ball touches only the
    /// fixtures.
    pub(super) fn pairs(&mut self) -> Result<Vec<(usize, usize)>, PbmError> {
        let bounds = self.bounds()?;
        let sweep = match self.sweep.take() {
            Some(mut sweep) => {
                sweep.update(&bounds)?;
                sweep
            }
            None => CoherentSweep::new(&bounds)?,
        };
        let (n, ball) = (self.shapes.len(), |k: usize| {
            matches!(self.shapes.get(k), Some(Shape::Ball(_)))
        });
        let pairs = sweep
            .pairs()
            .into_iter()
            .map(|(i, j)| (i as usize, j as usize))
            .filter(|&(i, j)| i < n && (j >= n || !(ball(i) || ball(j))))
            .collect();
        self.sweep = Some(sweep);
        Ok(pairs)
    }
    // ANCHOR_END: pairs

    /// Ball k over `solid`: the gap (m) to the face the centre is farthest outside
    /// of, and that face's outward normal.
    fn ball_gap(&self, k: usize, solid: &ConvexPolyhedron) -> (f64, V3) {
        let c = self.system.bodies[k].position();
        let (mut gap, mut normal) = (f64::NEG_INFINITY, V3::y());
        for (f, face) in solid.faces().iter().enumerate() {
            let n = solid.normal(f);
            let d = n.dot(&(c - solid.vertices()[face[0]]));
            if d > gap {
                (gap, normal) = (d, n);
            }
        }
        (gap - self.radius(k), normal)
    }

    // ANCHOR: depth
    /// How far pair (i, j) interpenetrates (m; negative when apart), and for two
    /// polyhedra the witness of chapter 7's search when it ran. A pair that the
    /// witness kept from its last search still shows apart by more than ε needs no
    /// search: its separation is at least that gap, and it touches nothing.
    pub(super) fn depth(
        &mut self,
        i: usize,
        j: usize,
    ) -> (f64, Option<PlaneWitness>) {
        if let Some(&known) = self.depths.get(&(i, j)) {
            return known; // measured already, and nothing has moved since
        }
        self.place_all();
        let (Some(pi), Some(pj)) = (self.solid(i), self.solid(j)) else {
            return match self.solid(j) {
                Some(pj) => (-self.ball_gap(i, pj).0, None),
                _ => (f64::NEG_INFINITY, None),
            };
        };
        let kept = self.witnesses.get(&(i, j)).and_then(|&w| witness_gap(pi, pj, w));
        if let Some(gap) = kept
            && gap > self.reach
        {
            self.stats.witness_reused += 1;
            return (-gap, None);
        }
        let clock = super::Stopwatch::start();
        let (gap, w) = match self.settings.solver {
            Solver::Exact => separation(pi, pj),
            // Bodies may interpenetrate deeply; nearly parallel edges mislead.
            Solver::SequentialImpulses { .. } | Solver::TimeStepping => {
                separation_over(pi, pj, PARALLEL)
            }
        };
        self.note_search((i, j), w, clock.seconds());
        self.witnesses.insert((i, j), w);
        self.depths.insert((i, j), (-gap, Some(w)));
        (-gap, Some(w))
    }
    // ANCHOR_END: depth

    /// Counts a full search of pair `pair` that found witness `w` in `seconds`, and
    /// whether it found the plane kept from before again.
    fn note_search(&mut self, pair: (usize, usize), w: PlaneWitness, seconds: f64) {
        self.stats.search_seconds += seconds;
        self.stats.separations += 1;
        if let Some(&kept) = self.witnesses.get(&pair) {
            self.stats.searches_after_witness += 1;
            self.stats.witness_found_again += usize::from(kept == w);
        }
    }

    /// The deepest interpenetration of any pair (m, 0 if none).
    pub(super) fn deepest(&mut self) -> Result<f64, PbmError> {
        let pairs = self.pairs()?;
        Ok(pairs.into_iter().map(|(i, j)| self.depth(i, j).0).fold(0.0, f64::max))
    }

    // ANCHOR: detect
    /// The contacts within the tolerance, each with its gap, in the convention of
    /// this chapter (normal out of b, towards a) and held in the bodies' frames.
    pub(super) fn detect(&mut self) -> Result<Vec<Found>, PbmError> {
        let eps = self.reach;
        let frames = frames_of(&self.system.bodies, &self.spins);
        let mut found = Vec::new();
        for (i, j) in self.pairs()? {
            let (depth, witness) = self.depth(i, j);
            if depth < -eps {
                continue;
            }
            let (Some(pi), Some(pj)) = (self.solid(i), self.solid(j)) else {
                found.extend(self.ball_contact(i, j, &frames));
                continue;
            };
            // The search that measured the depth found the plane to read them off;
            // a pair interpenetrating by d has features down to d below it.
            let w = witness.unwrap_or_else(|| separation(pi, pj).1);
            let mut contacts = match self.settings.solver {
                Solver::SequentialImpulses { .. } | Solver::TimeStepping => {
                    clipped_contacts(pi, pj, w, eps)
                }
                Solver::Exact => Vec::new(),
            };
            if contacts.is_empty() {
                contacts = contacts_on(pi, pj, w, eps + depth.max(0.0));
            }
            for c in contacts {
                found.push(held_contact(pi, pj, (i, j), &c, &frames));
            }
        }
        Ok(found)
    }
    // ANCHOR_END: detect

    /// Ball i's contact with fixture j, if it is within the tolerance.
    fn ball_contact(&self, i: usize, j: usize, frames: &[Frame]) -> Option<Found> {
        let solid = self.solid(j)?;
        let (gap, n) = self.ball_gap(i, solid);
        let radius = self.radius(i);
        let fb = &frames[j];
        let attached = Attached::Ball(fb.r.transpose() * n, radius);
        let p = frames[i].x - n * radius;
        let held = Held {
            a: i,
            b: j,
            point: V3::zeros(),
            attached,
            tangents: tangents(n, fb),
        };
        let contact = Contact { a: i, b: j, p, n };
        (gap <= self.reach).then_some(Found { held, contact, gap })
    }
}

/// Chapter 7's contact `c` between solids `pi` and `pj` (bodies i and j), whose
/// normal points from i to j, in this chapter's convention (normal out of b,
/// towards a), with its gap, and held in the bodies' frames.
fn held_contact(
    pi: &ConvexPolyhedron,
    pj: &ConvexPolyhedron,
    (i, j): (usize, usize),
    c: &pbm_collision::polyhedron::Contact,
    frames: &[Frame],
) -> Found {
    let (a, b, n, gap, edges) = match c.feature {
        Feature::VertexFace { vertex_of_b: true, face, .. }
        | Feature::FacePoint { of_b: true, face } => {
            let o = pi.vertices()[pi.faces()[face][0]];
            (j, i, c.normal, c.normal.dot(&(c.point - o)), None)
        }
        Feature::VertexFace { face, .. } | Feature::FacePoint { face, .. } => {
            let o = pj.vertices()[pj.faces()[face][0]];
            (i, j, -c.normal, c.normal.dot(&(o - c.point)), None)
        }
        Feature::EdgeEdge { edge_a, edge_b, dir_a, dir_b } => {
            let ([u0, u1], [w0, w1]) = (pi.edges()[edge_a], pj.edges()[edge_b]);
            let (u0, u1) = (pi.vertices()[u0], pi.vertices()[u1]);
            let (w0, w1) = (pj.vertices()[w0], pj.vertices()[w1]);
            let (s, t) = closest_parameters(u0, u1, w0, w1);
            let gap = c.normal.dot(&(w0 + (w1 - w0) * t - u0 - (u1 - u0) * s));
            // a = j (its edge dir_b), b = i (dir_a).
            let sign = dir_b.cross(&dir_a).dot(&c.normal).signum();
            (j, i, c.normal, gap, Some((dir_b, dir_a, sign)))
        }
    };
    let (fa, fb) = (&frames[a], &frames[b]);
    let attached = match edges {
        None => Attached::Face(fb.r.transpose() * n),
        Some((ea, eb, sign)) => {
            Attached::Edges(fa.r.transpose() * ea, fb.r.transpose() * eb, sign)
        }
    };
    let point = fa.r.transpose() * (c.point - fa.x);
    let held = Held { a, b, point, attached, tangents: tangents(n, fb) };
    Found { held, contact: Contact { a, b, p: c.point, n }, gap }
}
