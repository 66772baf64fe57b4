//! How long a step may be: no body may pass through the thickness of another solid
//! within one unseen. Chapter 11's planar world asks the same of its polygons.

use pbm_collision::polyhedron::ConvexPolyhedron;

// ANCHOR: step_limit
/// The longest step, at most `h`, over which no body can pass through another
/// solid's thickness unseen. Looking for contact only at the ends of its steps, a
/// world misses a solid that a body crosses within one (chapter 7's tunnelling).
/// To pass through a solid unseen a body must close on it by more than that
/// solid's narrowest width (and its own): so no body may close on any other by more
/// than the narrowest width among the others, `widths` for the bodies and
/// `fixture_width` for the fixed solids. A body's points move at most `speeds[i]`
/// (|v| + |ω| r), and it closes on another at most that plus the fastest other's
/// speed. A fast body can still clip a corner between two steps, where the chord
/// is as short as you like; only a continuous test sees that.
pub fn step_limit(h: f64, speeds: &[f64], widths: &[f64], fixture_width: f64) -> f64 {
    // The two largest (or smallest) of `values`: "the others" of any body.
    let best_two = |values: &[f64], better: fn(f64, f64) -> bool| {
        let mut best: [Option<usize>; 2] = [None, None];
        for (i, &v) in values.iter().enumerate() {
            if best[0].is_none_or(|b| better(v, values[b])) {
                best = [Some(i), best[0]];
            } else if best[1].is_none_or(|b| better(v, values[b])) {
                best[1] = Some(i);
            }
        }
        best
    };
    let other = |best: [Option<usize>; 2], i: usize| {
        if best[0] == Some(i) { best[1] } else { best[0] }
    };
    let (fastest, thinnest) =
        (best_two(speeds, |a, b| a > b), best_two(widths, |a, b| a < b));
    let mut limit = h;
    for (i, &speed) in speeds.iter().enumerate() {
        let closing = speed + other(fastest, i).map_or(0.0, |j| speeds[j]);
        let width = other(thinnest, i)
            .map_or(fixture_width, |j| widths[j].min(fixture_width));
        if closing * limit > width {
            limit = width / closing;
        }
    }
    limit
}
// ANCHOR_END: step_limit

/// A convex polyhedron's narrowest width: over its faces, the largest distance of a
/// vertex behind the face's plane, the least of those.
pub fn width(solid: &ConvexPolyhedron) -> f64 {
    let v = solid.vertices();
    (0..solid.faces().len())
        .map(|f| {
            let (n, o) = (solid.normal(f), v[solid.faces()[f][0]]);
            v.iter().map(|p| n.dot(&(o - p))).fold(0.0, f64::max)
        })
        .fold(f64::INFINITY, f64::min)
}
