//! Stage 1: which pairs touch, and where: chapter 7's sweep for the pairs worth
//! testing, its polygons for their contacts, and the corners chapter 7 leaves out.

use super::*;

impl World {
    pub(super) fn objects(&self) -> usize {
        self.bodies.len() + self.fixtures.len()
    }

    pub(super) fn world_index(&self) -> usize {
        self.objects()
    }

    pub(super) fn frame(&self, k: usize) -> Frame {
        match self.bodies.get(k) {
            Some(b) => Frame { x: b.position(), theta: b.angle() },
            None => Frame { x: V2::zeros(), theta: 0.0 },
        }
    }

    pub(super) fn layer(&self, k: usize) -> u32 {
        let n = self.bodies.len();
        if k < n { self.layers[k] } else { self.fixtures[k - n].layer }
    }

    pub(super) fn parts(&self, k: usize) -> Vec<ConvexPolygon> {
        let n = self.bodies.len();
        if k < n { self.placed(k) } else { self.fixtures[k - n].parts.clone() }
    }

    /// Every object's bounds, grown by 2ε so that touching pairs overlap, and pairs
    /// the tolerance correction must watch (within 2ε) too; with sequential
    /// impulses, by as much as a pair may close within the step if that is more.
    pub(super) fn bounds(&self) -> Result<Vec<Aabb<2>>, PbmError> {
        let eps =
            (2.0 * self.settings.epsilon).max(self.settings.epsilon + self.margin);
        (0..self.objects())
            .map(|k| {
                let parts = self.parts(k);
                let points = parts.iter().flat_map(|p| p.vertices().iter());
                let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
                for v in points {
                    for d in 0..2 {
                        lo[d] = lo[d].min(v[d] - eps);
                        hi[d] = hi[d].max(v[d] + eps);
                    }
                }
                Aabb::new(lo, hi)
            })
            .collect()
    }

    /// The pairs the broad phase passes: bounds overlapping, same layer, not both
    /// fixed.
    pub(super) fn pairs(&mut self) -> Result<Vec<(usize, usize)>, PbmError> {
        let boxes = self.bounds()?;
        match &mut self.sweep {
            Some(sweep) => {
                sweep.update(&boxes)?;
            }
            None => self.sweep = Some(CoherentSweep::new(&boxes)?),
        }
        let n = self.bodies.len();
        let pairs = self.sweep.as_ref().map(|s| s.pairs()).unwrap_or_default();
        Ok(pairs
            .into_iter()
            .map(|(i, j)| (i as usize, j as usize))
            .filter(|&(i, j)| i < n && self.layer(i) == self.layer(j))
            .collect())
    }

    // ANCHOR: depth
    /// How far pair (i, j) interpenetrates: the largest depth over their parts'
    /// pairs (m; negative when apart).
    pub(super) fn depth(&self, i: usize, j: usize) -> f64 {
        let (pi, pj) = (self.parts(i), self.parts(j));
        let mut depth = f64::NEG_INFINITY;
        for a in &pi {
            for b in &pj {
                depth = depth.max(-separation(a, b).0);
            }
        }
        depth
    }
    // ANCHOR_END: depth

    // ANCHOR: deepest
    /// The deepest pair and its depth (0 and None if nothing interpenetrates).
    pub(super) fn deepest(
        &mut self,
    ) -> Result<(f64, Option<(usize, usize)>), PbmError> {
        let mut worst = (0.0, None);
        for (i, j) in self.pairs()? {
            // Only pairs whose parts overlap can be deepest: a pair the cached
            // witnesses still separate is skipped without the full search.
            let (parts_i, parts_j) = (self.parts(i), self.parts(j));
            let mut d = f64::NEG_INFINITY;
            for (ki, pi) in parts_i.iter().enumerate() {
                for (kj, pj) in parts_j.iter().enumerate() {
                    if self.apart(i, ki, j, kj, pi, pj, 0.0) {
                        continue;
                    }
                    d = d.max(-separation(pi, pj).0);
                }
            }
            if d > worst.0 {
                worst = (d, Some((i, j)));
            }
        }
        Ok(worst)
    }
    // ANCHOR_END: deepest

    /// Whether parts `pi` (part ki of object i) and `pj` (part kj of j) are farther
    /// apart than `eps`, by chapter 7's cached witness when it still separates them,
    /// else by the full separation (which becomes the new witness).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn apart(
        &mut self,
        i: usize,
        ki: usize,
        j: usize,
        kj: usize,
        pi: &ConvexPolygon,
        pj: &ConvexPolygon,
        eps: f64,
    ) -> bool {
        let cache = self.witnesses.entry((i, ki, j, kj)).or_default();
        let (reused, searched) = (cache.reused, cache.searched);
        let disjoint = cache.test(pi, pj, eps) == Status::Disjoint;
        self.stats.witness_reused += cache.reused - reused;
        self.stats.witness_searched += cache.searched - searched;
        disjoint
    }

    /// The contacts within ε.
    pub(super) fn detect(&mut self) -> Result<Vec<Found>, PbmError> {
        self.detect_within(self.settings.epsilon)
    }

    // ANCHOR: detect
    /// The contacts within `eps` (ε for the loop, 2ε for the tolerance correction):
    /// for each pair of parts closer than `eps`, the vertices of one within `eps` of
    /// an edge of the other (chapter 7), as a vertex of `a` on an edge of `b` with
    /// the edge's outward normal (out of b, towards a); then any corner of either
    /// that chapter 7 left out (see `other_corners`).
    pub(super) fn detect_within(&mut self, eps: f64) -> Result<Vec<Found>, PbmError> {
        let mut found = Vec::new();
        for (i, j) in self.pairs()? {
            let (parts_i, parts_j) = (self.parts(i), self.parts(j));
            for (ki, pa) in parts_i.iter().enumerate() {
                for (kj, pb) in parts_j.iter().enumerate() {
                    if !self.apart(i, ki, j, kj, pa, pb, eps) {
                        self.detect_parts((i, pa), (j, pb), eps, &mut found);
                    }
                }
            }
        }
        Ok(found)
    }
    // ANCHOR_END: detect

    // ANCHOR: detect_parts
    /// The contacts of part `pa` of object i and part `pb` of object j, added to
    /// `found`: chapter 7's, then the corners it left out.
    fn detect_parts(
        &self,
        (i, pa): (usize, &ConvexPolygon),
        (j, pb): (usize, &ConvexPolygon),
        eps: f64,
        found: &mut Vec<Found>,
    ) {
        let mut points = Vec::new();
        for c in contacts(pa, pb, eps) {
            // Chapter 7's normal points from the first polygon (i) to the second (j).
            let (a, b, n, edge_poly) = if c.vertex_of_b {
                (j, i, c.normal, pa)
            } else {
                (i, j, -c.normal, pb)
            };
            let gap = n.dot(&(c.point - edge_poly.vertices()[c.edge]));
            found.push(Found { held: self.held_at(a, b, c.point, n), gap });
            points.push(c.point);
        }
        for (a, b, corners, edges) in [(i, j, pa, pb), (j, i, pb, pa)] {
            for (point, n, gap) in other_corners(corners, edges, eps, &points) {
                found.push(Found { held: self.held_at(a, b, point, n), gap });
            }
        }
    }

    /// A vertex of `a` at world `point` on an edge of `b` with world `normal`, in
    /// the frames of the two.
    fn held_at(&self, a: usize, b: usize, point: V2, normal: V2) -> Held {
        let (fa, fb) = (self.frame(a), self.frame(b));
        Held {
            a,
            b,
            point: rotation2(-fa.theta) * (point - fa.x),
            normal: rotation2(-fb.theta) * normal,
        }
    }
    // ANCHOR_END: detect_parts

    /// Object k as the errors name it: "body 3", "fixture 0".
    pub(super) fn name(&self, k: usize) -> String {
        let n = self.bodies.len();
        if k < n { format!("body {k}") } else { format!("fixture {}", k - n) }
    }
}

// ANCHOR: other_corners
/// The corners of `corners` within `eps` of an edge of the polygon `edges`, and over
/// its length, that are not within `eps` of a contact already found (`points`):
/// each with the edge it is least deep behind (the one it is furthest out of), that
/// edge's outward normal and the gap. Chapter 7 takes the corners on
/// the face along the separating axis, and those of the face opposite when it is
/// parallel; when two faces meet at a small angle, a corner of the other one can be
/// the deepest point of the pair and go unseen: with no contact there, nothing holds
/// it, and in the feeder two blocks meeting so sank into each other a little further
/// every step.
pub(super) fn other_corners(
    corners: &ConvexPolygon,
    edges: &ConvexPolygon,
    eps: f64,
    points: &[V2],
) -> Vec<(V2, V2, f64)> {
    let e = edges.vertices();
    corners
        .vertices()
        .iter()
        .filter(|v| points.iter().all(|p| (*p - **v).norm() > eps))
        .filter_map(|&v| {
            let (gap, k) = (0..e.len())
                .map(|k| (edges.normal(k).dot(&(v - e[k])), k))
                .fold(
                    (f64::NEG_INFINITY, 0),
                    |best, x| if x.0 > best.0 { x } else { best },
                );
            // On the edge itself, not off its end: a corner off the end of an edge is
            // nearest to the edge's end, a meeting of corners chapter 7 handles.
            let (a, b) = (e[k], e[(k + 1) % e.len()]);
            let s = (b - a).dot(&(v - a)) / (b - a).norm_squared();
            (gap <= eps && (0.0..=1.0).contains(&s)).then_some((
                v,
                edges.normal(k),
                gap,
            ))
        })
        .collect()
}
// ANCHOR_END: other_corners
