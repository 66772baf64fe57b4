//! Contact manifolds of two convex polygons, as game engines find them: the axis of
//! least penetration (separating axes), a reference edge on it, and the edge of the
//! other polygon facing it clipped to the reference edge's sides. Unlike chapter 7's
//! contacts within a tolerance, this finds points however deep the overlap (a bench
//! starts boxes 25 % overlapped) and keeps points up to a *speculative* distance
//! apart, so that a solver can stop a body before it arrives.

use crate::body::V2;
use pbm_collision::polygon::ConvexPolygon;

/// One point of a manifold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ManifoldPoint {
    /// Where it is: halfway between the incident vertex and the reference edge (m).
    pub point: V2,
    /// Gap along the normal: positive apart, negative overlapping (m).
    pub separation: f64,
    /// Which features made it (reference edge, incident edge, and which of its ends),
    /// the same from step to step while the same features touch: the key that warm
    /// starting matches impulses by.
    pub id: u32,
}

/// The contact of two polygons: a normal from A towards B and one or two points.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifold {
    /// Unit normal, pointing from A towards B.
    pub normal: V2,
    /// The points.
    pub points: Vec<ManifoldPoint>,
}

/// The largest over `p`'s edges of the least signed distance of `q`'s vertices from
/// the edge's line: the separation along `p`'s best axis, and that edge.
fn max_separation(p: &ConvexPolygon, q: &ConvexPolygon) -> (f64, usize) {
    let mut best = (f64::NEG_INFINITY, 0);
    for (i, a) in p.vertices().iter().enumerate() {
        let n = p.normal(i);
        let least = q
            .vertices()
            .iter()
            .map(|v| n.dot(&(v - a)))
            .fold(f64::INFINITY, f64::min);
        if least > best.0 {
            best = (least, i);
        }
    }
    best
}

// ANCHOR: collide
/// The manifold of `a` and `b` when they are closer than `speculative` (m), else
/// None. The reference edge is A's unless B's axis separates them clearly more
/// (`bias`, m), so that the choice does not flicker between equal axes.
pub fn collide(
    a: &ConvexPolygon,
    b: &ConvexPolygon,
    speculative: f64,
    bias: f64,
) -> Option<Manifold> {
    let (sep_a, edge_a) = max_separation(a, b);
    let (sep_b, edge_b) = max_separation(b, a);
    if sep_a.max(sep_b) > speculative {
        return None;
    }
    let flip = sep_b > sep_a + bias;
    let (reference, incident, edge) =
        if flip { (b, a, edge_b) } else { (a, b, edge_a) };
    let n = reference.normal(edge);
    let points = clipped_points(reference, edge, incident, speculative, flip);
    Some(Manifold { normal: if flip { -n } else { n }, points })
}
// ANCHOR_END: collide

// ANCHOR: clipped_points
/// The points where `incident` meets the reference edge `edge` of `reference`: the
/// incident edge (the one most against the reference normal) clipped to the
/// reference edge's ends, each point kept if within `speculative` of the edge.
fn clipped_points(
    reference: &ConvexPolygon,
    edge: usize,
    incident: &ConvexPolygon,
    speculative: f64,
    flip: bool,
) -> Vec<ManifoldPoint> {
    let n = reference.normal(edge);
    let (r, m) = (reference.vertices(), reference.vertices().len());
    let (v1, v2) = (r[edge], r[(edge + 1) % m]);
    let inc = incident.vertices();
    let against = |i: usize| incident.normal(i).dot(&n);
    let k = (0..inc.len())
        .min_by(|&i, &j| against(i).total_cmp(&against(j)))
        .unwrap_or(0);
    let ends = [(inc[k], 0), (inc[(k + 1) % inc.len()], 1)];
    let t = (v2 - v1).normalize();
    let clipped = clip(&clip(&ends, &-t, -t.dot(&v1)), &t, t.dot(&v2));
    let side = u32::from(flip) << 24 | (edge as u32) << 16 | (k as u32) << 8;
    clipped
        .iter()
        .filter_map(|&(p, end)| {
            let separation = n.dot(&(p - v1));
            (separation <= speculative).then(|| ManifoldPoint {
                point: p - n * (0.5 * separation),
                separation,
                id: side | end,
            })
        })
        .collect()
}
// ANCHOR_END: clipped_points

/// The part of the segment `points` where `dir · p ≤ offset`, each end keeping its
/// tag (a cut end takes the tag 2 or 3, for the side it was cut at).
fn clip(points: &[(V2, u32)], dir: &V2, offset: f64) -> Vec<(V2, u32)> {
    let [(p, ip), (q, iq)] = match points {
        [a, b] => [*a, *b],
        _ => return Vec::new(),
    };
    let (dp, dq) = (dir.dot(&p) - offset, dir.dot(&q) - offset);
    let mut out = Vec::with_capacity(2);
    if dp <= 0.0 {
        out.push((p, ip));
    }
    if dq <= 0.0 {
        out.push((q, iq));
    }
    if dp * dq < 0.0 {
        let cut = p + (q - p) * (dp / (dp - dq));
        out.push((cut, if dp > 0.0 { 2 } else { 3 }));
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message
    use super::*;

    fn square(centre: V2, half: f64, angle: f64) -> ConvexPolygon {
        ConvexPolygon::rectangle(V2::zeros(), V2::new(half, half))
            .unwrap()
            .placed(centre, angle)
    }

    #[test]
    fn a_box_resting_on_another_touches_at_its_two_lower_corners() {
        let ground =
            ConvexPolygon::rectangle(V2::new(0.0, -1.0), V2::new(10.0, 1.0)).unwrap();
        let sunk = square(V2::new(0.3, 0.49), 0.5, 0.0);
        let m = collide(&ground, &sunk, 0.02, 0.0005).unwrap();
        assert!((m.normal - V2::new(0.0, 1.0)).norm() < 1e-12);
        assert_eq!(m.points.len(), 2);
        for p in &m.points {
            assert!((p.separation + 0.01).abs() < 1e-12, "{p:?}");
            assert!((p.point.x - 0.3).abs() - 0.5 < 1e-12);
        }
        // Apart by more than the speculative distance: nothing; within it: points.
        assert!(
            collide(&ground, &square(V2::new(0.0, 0.53), 0.5, 0.0), 0.02, 0.0)
                .is_none()
        );
        let near = collide(&ground, &square(V2::new(0.0, 0.51), 0.5, 0.0), 0.02, 0.0)
            .unwrap();
        assert!(near.points.iter().all(|p| (p.separation - 0.01).abs() < 1e-12));
    }

    #[test]
    fn a_deep_overlap_still_has_points_and_the_normal_from_a_to_b() {
        let a = square(V2::zeros(), 0.5, 0.0);
        let b = square(V2::new(0.75, 0.1), 0.5, 0.0);
        let m = collide(&a, &b, 0.02, 0.0005).unwrap();
        assert!((m.normal - V2::new(1.0, 0.0)).norm() < 1e-12);
        assert_eq!(m.points.len(), 2);
        assert!(m.points.iter().all(|p| (p.separation + 0.25).abs() < 1e-12));
        // Swapped, the normal turns round and the points stay.
        let swapped = collide(&b, &a, 0.02, 0.0005).unwrap();
        assert!((swapped.normal + m.normal).norm() < 1e-12);
    }

    #[test]
    fn a_corner_down_box_touches_at_one_point() {
        let ground =
            ConvexPolygon::rectangle(V2::new(0.0, -1.0), V2::new(10.0, 1.0)).unwrap();
        let corner = square(
            V2::new(0.0, 0.5_f64.hypot(0.5) - 0.005),
            0.5,
            0.25 * std::f64::consts::PI,
        );
        let m = collide(&ground, &corner, 0.02, 0.0005).unwrap();
        assert_eq!(m.points.len(), 1, "{m:?}");
        assert!((m.points[0].separation + 0.005).abs() < 1e-12);
    }
}
