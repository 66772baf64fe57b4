// Practice `collision/separating-axis`: the separation of two convex polygons.
//
// Read "Separating planes and contacts" (book/src/07-collision/narrow-phase.md), the
// section "The separating axis". Then fill in the body and run
// `cargo run --release -- practice check collision/separating-axis`.

use pbm_collision::polygon::ConvexPolygon;

/// The separation of two convex polygons: the largest gap over the candidate axes,
/// which in the plane are the outward unit edge normals of both polygons. Along a
/// normal n of an edge of A the gap is how far B's nearest vertex lies beyond A's
/// farthest, g(n) = min_{q ∈ B} n·q − max_{p ∈ A} n·p, and the same with the roles
/// swapped for the edges of B. Positive: apart by at least that much; negative: they
/// interpenetrate, by that depth. `vertices()` lists a polygon's vertices
/// counter-clockwise and `normal(i)` is the outward unit normal of the edge from
/// vertex i to vertex i + 1.
pub fn separation(a: &ConvexPolygon, b: &ConvexPolygon) -> f64 {
    let _ = (a, b);
    todo!("the largest gap over the edge normals of both polygons")
}
