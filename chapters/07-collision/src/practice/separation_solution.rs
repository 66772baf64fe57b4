// The book's answer to `collision/separating-axis`, as `pbm practice solution
// collision/separating-axis` prints it. The chapter's own `separation` also returns
// the edge that attains it, the witness the next step tries first.

use pbm_collision::polygon::ConvexPolygon;

// ANCHOR: separation
/// The largest gap g(n) = min_B n·q − max_A n·p over the outward edge normals of
/// both polygons. An edge's own vertex attains the max over its polygon, so the gap
/// along it is the least distance of the other's vertices beyond the edge's line.
pub fn separation(a: &ConvexPolygon, b: &ConvexPolygon) -> f64 {
    let mut best = f64::NEG_INFINITY;
    for (p, q) in [(a, b), (b, a)] {
        for edge in 0..p.vertices().len() {
            let (n, corner) = (p.normal(edge), p.vertices()[edge]);
            let gap = q
                .vertices()
                .iter()
                .map(|v| n.dot(&(v - corner)))
                .fold(f64::INFINITY, f64::min);
            best = best.max(gap);
        }
    }
    best
}
// ANCHOR_END: separation
