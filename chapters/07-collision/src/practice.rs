//! Practice for chapter 7: the reader writes the cubic Hermite curve the
//! collision-time search runs on, and the separation of two convex polygons. The
//! curve is checked at its ends, by the slopes it leaves and arrives with (central
//! differences), on a cubic motion it must reproduce exactly, and by the order of
//! its error on the chapter's falling box; the separation on rectangles with a
//! closed form and on random pairs against brute force: vertices inside, edges
//! crossing, and the gap along directions all round the circle.

use crate::polygon::ConvexPolygon;
use crate::toi::FallingBox;
use nalgebra::Vector2;
use pbm_prelim::practice::{
    Listing, Report, Task, numbers, observed_order, sequence,
};

/// A cubic Hermite curve the reader writes (the signature of
/// [`crate::toi::hermite`]).
pub type HermiteFn = fn(&[f64], &[f64], &[f64], &[f64], f64, f64) -> Vec<f64>;

/// A separation of two convex polygons the reader writes.
pub type SeparationFn = fn(&ConvexPolygon, &ConvexPolygon) -> f64;

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
        id: "collision/hermite",
        title: "the cubic Hermite curve through a step",
        section: "The time of collision, and tunnelling",
        page: "07-collision/collision-time.md",
        equation: "hermite-interpolation",
        difficulty: 1,
        file: "hermite.rs",
        stub: include_str!("practice/hermite.rs"),
        check: "pbm_collision::practice::check_hermite(reader::hermite)",
        hints: &[
            "Compute the four basis polynomials of s once, then combine the slices \
             component by component: (0..x0.len()).map(|i| …).collect().",
            "f₀ and f₁ are derivatives per unit time; s runs from 0 to 1 over a step \
             of length h, so along s the slopes are h f₀ and h f₁.",
            "At s = 0 only 2s³ − 3s² + 1 is non-zero and only s³ − 2s² + s has a \
             slope; at s = 1 the same holds for −2s³ + 3s² and s³ − s².",
        ],
        solution: Listing { source: include_str!("toi.rs"), anchor: "hermite" },
    },
    Task {
        id: "collision/separating-axis",
        title: "the separation of two convex polygons",
        section: "Separating planes and contacts",
        page: "07-collision/narrow-phase.md",
        equation: "axis-gap",
        difficulty: 2,
        file: "separation.rs",
        stub: include_str!("practice/separation.rs"),
        check: "pbm_collision::practice::check_separation(reader::separation)",
        hints: &[
            "Loop over the edges of A and measure B against each, then the edges of \
             B and measure A against each; keep the largest gap.",
            "An edge's own vertex is A's farthest point along its outward normal n, \
             so the gap is the least of n·(v − corner) over the other polygon's \
             vertices v.",
            "Start from f64::NEG_INFINITY and take the max of the gaps; each gap is \
             a min over vertices, starting from f64::INFINITY.",
        ],
        solution: Listing {
            source: include_str!("practice/separation_solution.rs"),
            anchor: "separation",
        },
    },
];

/// A polygon for a message: its vertices, counter-clockwise.
fn polygon(p: &ConvexPolygon) -> String {
    let vertices: Vec<String> =
        p.vertices().iter().map(|v| numbers(v.as_slice())).collect();
    format!("[{}]", vertices.join(", "))
}

/// The largest difference between two states of the same length.
fn distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

fn scaled(v: &[f64], k: f64) -> Vec<f64> {
    v.iter().map(|x| x * k).collect()
}

/// One step's data: x₀, f₀, x₁, f₁ and h.
struct Step {
    x0: Vec<f64>,
    f0: Vec<f64>,
    x1: Vec<f64>,
    f1: Vec<f64>,
    h: f64,
}

impl Step {
    /// The reader's curve at s, or what is wrong with what it returned.
    fn at(&self, f: HermiteFn, s: f64) -> Result<Vec<f64>, String> {
        let x = f(&self.x0, &self.f0, &self.x1, &self.f1, self.h, s);
        if x.len() != self.x0.len() {
            return Err(format!(
                "your curve returned {} numbers for states of {}: one per component",
                x.len(),
                self.x0.len()
            ));
        }
        if !x.iter().all(|v| v.is_finite()) {
            return Err(format!(
                "your curve at s = {s} is {x:?}: not a finite number"
            ));
        }
        Ok(x)
    }

    /// dx/ds at an end, s = 0 or 1, by a one-sided difference that stays inside
    /// [0, 1] (a reader's curve may refuse s outside it): (−3x(s) + 4x(s ± d) −
    /// x(s ± 2d))/(±2d), off by d²/3 times x‴ for a cubic.
    fn slope(&self, f: HermiteFn, s: f64) -> Result<Vec<f64>, String> {
        let d = if s < 0.5 { 1e-4 } else { -1e-4 };
        let (here, one, two) =
            (self.at(f, s)?, self.at(f, s + d)?, self.at(f, s + 2.0 * d)?);
        Ok((0..here.len())
            .map(|i| (-3.0 * here[i] + 4.0 * one[i] - two[i]) / (2.0 * d))
            .collect())
    }
}

/// A cubic motion, three components, x(t) = a + b t + c t² + d t³ each.
const CUBIC: [[f64; 4]; 3] =
    [[0.4, -1.2, 0.8, 2.5], [-0.3, 0.7, -2.0, -1.1], [1.5, 0.0, 0.6, 0.9]];

fn cubic_at(t: f64) -> Vec<f64> {
    CUBIC.iter().map(|[a, b, c, d]| a + t * (b + t * (c + t * d))).collect()
}

fn cubic_rate(t: f64) -> Vec<f64> {
    CUBIC.iter().map(|[_, b, c, d]| b + t * (2.0 * c + 3.0 * t * d)).collect()
}

/// The curve's error at mid-step on the chapter's falling box (drag 2/s, spin
/// 5 rad/s), from the exact states and derivatives at t = 0.2 and 0.2 + h.
fn falling_box_error(f: HermiteFn, h: f64) -> Result<f64, String> {
    let body = FallingBox::new(5.0, 2.0).map_err(|e| e.to_string())?;
    let t0 = 0.2;
    let (x0, x1) = (body.exact(t0).to_vec(), body.exact(t0 + h).to_vec());
    let (mut f0, mut f1) = (vec![0.0; 6], vec![0.0; 6]);
    body.derivative(&x0, &mut f0);
    body.derivative(&x1, &mut f1);
    let mid = Step { x0, f0, x1, f1, h }.at(f, 0.5)?;
    Ok(distance(&mid, &body.exact(t0 + 0.5 * h)))
}

/// Checks a cubic Hermite curve: its ends, its end slopes by central differences,
/// exactness on a cubic motion, and the order of its error on the falling box.
pub fn check_hermite(f: HermiteFn) -> Report {
    match hermite_findings(f) {
        Ok(lines) => Report::pass(lines),
        Err(why) => Report::fail(why),
    }
}

fn hermite_findings(f: HermiteFn) -> Result<Vec<String>, String> {
    let (t0, h) = (0.3, 0.4);
    let step = Step {
        x0: cubic_at(t0),
        f0: cubic_rate(t0),
        x1: cubic_at(t0 + h),
        f1: cubic_rate(t0 + h),
        h,
    };
    let close = |a: &[f64], b: &[f64], tolerance: f64| distance(a, b) <= tolerance;
    for (s, end, name, basis) in [
        (
            0.0,
            &step.x0,
            "x₀",
            "2s³ − 3s² + 1, the basis of x₀, is 1 there and the other three are 0",
        ),
        (
            1.0,
            &step.x1,
            "x₁",
            "−2s³ + 3s², the basis of x₁, is 1 there and the other three are 0",
        ),
    ] {
        let x = step.at(f, s)?;
        if !close(&x, end, 1e-12) {
            return Err(format!(
                "at s = {s} your curve is {}, not {name} = {}: the curve passes \
                 through the step's ends, since at s = {s} {basis}",
                numbers(&x),
                numbers(end)
            ));
        }
    }
    let (h_f0, h_f1) = (scaled(&step.f0, h), scaled(&step.f1, h));
    let tolerance = 1e-6;
    let per_time = "f₀ and f₁ are rates per unit time and s runs over a step of \
                    length h, so along s the slopes are h f₀ and h f₁: multiply them \
                    by h";
    let slope = step.slope(f, 0.0)?;
    if !close(&slope, &h_f0, tolerance) {
        let why = if close(&slope, &step.f0, tolerance) {
            per_time.to_string()
        } else if close(&slope, &h_f1, tolerance) {
            "it leaves with the end slope h f₁: h f₀ goes with s³ − 2s² + s, whose \
             slope is 1 at s = 0, and h f₁ with s³ − s², whose slope is 0 there"
                .to_string()
        } else {
            "only s³ − 2s² + s, the basis of h f₀, has a slope at s = 0 (it is 1)"
                .to_string()
        };
        return Err(format!(
            "your curve leaves s = 0 with slope dx/ds = {}, not h f₀ = {}: {why}",
            numbers(&slope),
            numbers(&h_f0)
        ));
    }
    let slope = step.slope(f, 1.0)?;
    if !close(&slope, &h_f1, tolerance) {
        let why = if close(&slope, &step.f1, tolerance) {
            per_time.to_string()
        } else if close(&slope, &h_f0, tolerance) {
            "it arrives with the start slope h f₀: h f₁ goes with s³ − s², whose \
             slope is 1 at s = 1"
                .to_string()
        } else if close(&slope, &scaled(&h_f1, -1.0), tolerance) {
            "it arrives with −h f₁: look at the sign of s³ − s², whose slope at s = \
             1 is 3 − 2 = +1"
                .to_string()
        } else {
            "only s³ − s², the basis of h f₁, has a slope at s = 1 (it is 1); a \
             curve that ignores f₁, like Baraff's quadratic, arrives with the wrong \
             slope"
                .to_string()
        };
        return Err(format!(
            "your curve arrives at s = 1 with slope dx/ds = {}, not h f₁ = {}: {why}",
            numbers(&slope),
            numbers(&h_f1)
        ));
    }
    let mut worst = 0.0_f64;
    for s in [0.2, 0.5, 0.7] {
        let (x, exact) = (step.at(f, s)?, cubic_at(t0 + s * h));
        worst = worst.max(distance(&x, &exact));
        if !close(&x, &exact, 1e-10) {
            return Err(format!(
                "your curve has the right ends and end slopes but misses a cubic \
                 motion at s = {s}: {} where the motion is at {}. Two points and two \
                 slopes fix exactly one cubic, so between the ends look at the four \
                 basis polynomials: 2s³ − 3s² + 1, s³ − 2s² + s, −2s³ + 3s², s³ − s²",
                numbers(&x),
                numbers(&exact)
            ));
        }
    }
    let e = [
        falling_box_error(f, 0.2)?,
        falling_box_error(f, 0.1)?,
        falling_box_error(f, 0.05)?,
    ];
    let order = observed_order(e[1], e[2]);
    if !(3.6..=4.4).contains(&order) {
        return Err(format!(
            "on the falling box with drag your curve's error at mid-step falls at \
             order {order:.2} as the step halves (errors {:.1e}, {:.1e}, {:.1e} at h \
             = 0.2, 0.1, 0.05), where the cubic Hermite curve's is 4",
            e[0], e[1], e[2]
        ));
    }
    Ok(vec![
        "passes through x₀ and x₁ with slopes h f₀ and h f₁ (central differences)"
            .to_string(),
        format!("reproduces a cubic motion to {worst:.1e}"),
        format!(
            "on the falling box with drag: mid-step error {:.1e} at h = 0.05, order \
             {order:.2} (cubic Hermite: 4)",
            e[2]
        ),
    ])
}

/// The gaps along each outward edge normal of `p`: how far `q`'s nearest vertex
/// (`farthest`: its farthest) lies beyond the edge's line, the normal scaled by the
/// edge's length when `unit` is false. For diagnoses only.
fn edge_gaps(
    p: &ConvexPolygon,
    q: &ConvexPolygon,
    farthest: bool,
    unit: bool,
) -> Vec<f64> {
    let n = p.vertices().len();
    (0..n)
        .map(|i| {
            let (a, b) = (p.vertices()[i], p.vertices()[(i + 1) % n]);
            let length = if unit { 1.0 } else { (b - a).norm() };
            let normal = p.normal(i) * length;
            let along = q.vertices().iter().map(|v| normal.dot(&(v - a)));
            if farthest {
                along.fold(f64::NEG_INFINITY, f64::max)
            } else {
                along.fold(f64::INFINITY, f64::min)
            }
        })
        .collect()
}

/// The gaps of a pair along the edge normals of both, as `edge_gaps` measures them.
fn all_gaps(
    a: &ConvexPolygon,
    b: &ConvexPolygon,
    farthest: bool,
    unit: bool,
) -> Vec<f64> {
    let mut gaps = edge_gaps(a, b, farthest, unit);
    gaps.extend(edge_gaps(b, a, farthest, unit));
    gaps
}

fn largest(values: &[f64]) -> f64 {
    values.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

fn smallest(values: &[f64]) -> f64 {
    values.iter().copied().fold(f64::INFINITY, f64::min)
}

/// Rectangles in a closed form: A of half sizes (1, 0.5) at the origin, B of half
/// sizes (0.4, 0.75) at `centre`, both turned by 0.7 rad about the origin. Their
/// separation is the largest of the four gaps along ±x and ±y of the unturned frame.
fn check_rectangles(f: SeparationFn) -> Result<(), String> {
    let (half_a, half_b) = (Vector2::new(1.0, 0.5), Vector2::new(0.4, 0.75));
    let angle = 0.7;
    for centre in [
        Vector2::new(2.0, 0.3),
        Vector2::new(-0.5, -1.6),
        Vector2::new(1.2, 0.4),
        Vector2::new(1.7, 1.5),
    ] {
        let rectangle = |c: Vector2<f64>, half: Vector2<f64>| {
            ConvexPolygon::rectangle(c, half)
                .map(|r| r.placed(Vector2::zeros(), angle))
                .map_err(|e| e.to_string())
        };
        let (a, b) =
            (rectangle(Vector2::zeros(), half_a)?, rectangle(centre, half_b)?);
        let gaps = [
            centre.x - half_b.x - half_a.x,
            -centre.x - half_b.x - half_a.x,
            centre.y - half_b.y - half_a.y,
            -centre.y - half_b.y - half_a.y,
        ];
        let want = largest(&gaps);
        let got = f(&a, &b);
        if !got.is_finite() {
            return Err(format!("your separation of two rectangles is {got}"));
        }
        if (got - want).abs() <= 1e-12 {
            continue;
        }
        let near = |x: f64| (got - x).abs() <= 1e-9;
        let why = if near(-want) {
            "the sign is reversed: a positive separation means apart, a negative one \
             is a depth"
        } else if near(smallest(&all_gaps(&a, &b, false, true))) {
            "that is the smallest gap over the normals. One axis with a gap is \
             enough to prove them apart, so the separation is the largest gap over \
             the candidates"
        } else if near(largest(&all_gaps(&a, &b, true, true))) {
            "you measured to the other polygon's farthest vertex; the gap along n is \
             to its nearest: the least of n·(v − corner) over its vertices"
        } else if near(largest(&all_gaps(&a, &b, false, false))) {
            "your gaps are scaled by the edges' lengths: (e_y, −e_x) is as long as \
             the edge, and a gap is a distance only along a unit normal"
        } else {
            "it is the largest of the gaps along the four directions of the \
             rectangles' sides, each from A's farthest vertex to B's nearest"
        };
        let (state, amount) =
            if want > 0.0 { ("apart by", want) } else { ("overlapping by", -want) };
        return Err(format!(
            "A, 2 × 1 at the origin, and B, 0.8 × 1.5 at {} in A's frame (both \
             turned by 0.7 rad), are {state} {amount:.4}, the largest of the gaps {} \
             along ±x, ±y; your separation is {got:.4}: {why}.",
            numbers(centre.as_slice()),
            numbers(&gaps)
        ));
    }
    Ok(())
}

fn cross(a: &Vector2<f64>, b: &Vector2<f64>) -> f64 {
    a.x * b.y - a.y * b.x
}

/// Whether `x` lies in the convex polygon `p` (boundary included).
fn inside(p: &ConvexPolygon, x: &Vector2<f64>) -> bool {
    let v = p.vertices();
    (0..v.len()).all(|i| cross(&(v[(i + 1) % v.len()] - v[i]), &(x - v[i])) >= 0.0)
}

/// Whether an edge of `a` crosses an edge of `b`.
fn edges_cross(a: &ConvexPolygon, b: &ConvexPolygon) -> bool {
    let (va, vb) = (a.vertices(), b.vertices());
    (0..va.len()).any(|i| {
        let (p0, p1) = (va[i], va[(i + 1) % va.len()]);
        (0..vb.len()).any(|j| {
            let (q0, q1) = (vb[j], vb[(j + 1) % vb.len()]);
            cross(&(p1 - p0), &(q0 - p0)) * cross(&(p1 - p0), &(q1 - p0)) <= 0.0
                && cross(&(q1 - q0), &(p0 - q0)) * cross(&(q1 - q0), &(p1 - q0))
                    <= 0.0
        })
    })
}

/// Brute force: why the polygons overlap (a vertex inside the other, or edges
/// crossing), or None when they are apart.
fn overlap(a: &ConvexPolygon, b: &ConvexPolygon) -> Option<String> {
    if let Some(k) = b.vertices().iter().position(|v| inside(a, v)) {
        return Some(format!("vertex {k} of B lies inside A"));
    }
    if let Some(k) = a.vertices().iter().position(|v| inside(b, v)) {
        return Some(format!("vertex {k} of A lies inside B"));
    }
    edges_cross(a, b).then(|| "an edge of A crosses an edge of B".to_string())
}

/// The gap (axis-gap) along the direction at angle θ: min over B − max over A.
fn gap_along(a: &ConvexPolygon, b: &ConvexPolygon, theta: f64) -> f64 {
    let n = Vector2::new(theta.cos(), theta.sin());
    let far_a =
        a.vertices().iter().map(|p| n.dot(p)).fold(f64::NEG_INFINITY, f64::max);
    let near_b = b.vertices().iter().map(|q| n.dot(q)).fold(f64::INFINITY, f64::min);
    near_b - far_a
}

/// The largest gap over every direction, by trying 2048 directions round the circle
/// and refining each local best by a ternary search between its neighbours: the
/// distance between polygons apart, minus the least overlap (the depth) of polygons
/// that interpenetrate.
fn best_gap_over_directions(a: &ConvexPolygon, b: &ConvexPolygon) -> f64 {
    let samples = 2048;
    let step = std::f64::consts::TAU / samples as f64;
    let g: Vec<f64> =
        (0..samples).map(|i| gap_along(a, b, i as f64 * step)).collect();
    let mut best = f64::NEG_INFINITY;
    for i in 0..samples {
        let (before, after) = (g[(i + samples - 1) % samples], g[(i + 1) % samples]);
        if g[i] < before || g[i] < after {
            continue;
        }
        let (mut lo, mut hi) = ((i as f64 - 1.0) * step, (i as f64 + 1.0) * step);
        for _ in 0..80 {
            let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if gap_along(a, b, m1) < gap_along(a, b, m2) { lo = m1 } else { hi = m2 }
        }
        best = best.max(gap_along(a, b, 0.5 * (lo + hi))).max(g[i]);
    }
    best
}

/// A random convex polygon: 3 to 7 vertices on an ellipse of radii up to `radius`,
/// counter-clockwise at random angles, turned and placed at `centre`.
fn random_polygon(
    next: &mut impl FnMut() -> f64,
    centre: Vector2<f64>,
    radius: f64,
) -> Option<ConvexPolygon> {
    let count = 3 + ((next() + 1.0) * 2.5).floor() as usize;
    let steps: Vec<f64> = (0..count).map(|_| 1.0 + 0.5 * next()).collect();
    let total: f64 = steps.iter().sum();
    let (rx, ry) = (radius * (0.8 + 0.2 * next()), radius * (0.6 + 0.2 * next()));
    let (turn, mut angle) = (3.0 * next(), 0.0_f64);
    let (s, c) = turn.sin_cos();
    let mut vertices = Vec::with_capacity(count);
    for step in steps {
        let p = Vector2::new(rx * angle.cos(), ry * angle.sin());
        vertices.push(centre + Vector2::new(c * p.x - s * p.y, s * p.x + c * p.y));
        angle += std::f64::consts::TAU * step / total;
    }
    ConvexPolygon::new(vertices).ok()
}

/// Checks a separation: rectangles against their closed form, then random pairs of
/// convex polygons against brute force (vertices inside, edges crossing) and against
/// the largest gap over every direction, and in both orders.
pub fn check_separation(f: SeparationFn) -> Report {
    if let Err(why) = check_rectangles(f) {
        return Report::fail(why);
    }
    let mut next = sequence(0x5a7_0007_u64);
    let (mut apart, mut overlapping, mut worst_depth) = (0, 0, 0.0_f64);
    for _ in 0..400 {
        if apart + overlapping >= 200 {
            break;
        }
        let a = random_polygon(&mut next, Vector2::zeros(), 1.0);
        let direction = std::f64::consts::PI * next();
        let reach = 1.3 + 1.3 * next();
        let centre = Vector2::new(direction.cos(), direction.sin()) * reach;
        let radius = 0.85 + 0.35 * next();
        let b = random_polygon(&mut next, centre, radius);
        let (Some(a), Some(b)) = (a, b) else { continue };
        let best = best_gap_over_directions(&a, &b);
        let overlaps = overlap(&a, &b);
        // Too near touching for a verdict, or the brute-force tests disagree.
        if best.abs() < 1e-3 || overlaps.is_some() != (best < 0.0) {
            continue;
        }
        let (ab, ba) = (f(&a, &b), f(&b, &a));
        let pair = format!("A = {}, B = {}", polygon(&a), polygon(&b));
        if !(ab.is_finite() && ba.is_finite()) {
            return Report::fail(format!(
                "your separation is {ab} (and {ba} with the polygons swapped) for {pair}"
            ));
        }
        if (ab - ba).abs() > 1e-9 * (1.0 + ab.abs()) {
            return Report::fail(format!(
                "your separation is {ab:.4} with A first and {ba:.4} with B first, \
                 for {pair}: it must not depend on the order. The candidates are the \
                 edge normals of both polygons: along an edge of B, the gap is how \
                 far A's nearest vertex lies beyond that edge."
            ));
        }
        match overlaps {
            None if ab <= 0.0 => {
                return Report::fail(format!(
                    "{pair} are apart: no vertex of either is inside the other and \
                     no edges cross, and along some direction they are {best:.4} \
                     apart. Your separation is {ab:.4}, which says they touch or \
                     overlap: some edge normal of one of them separates them, and \
                     the separation is the largest gap over all the candidates."
                ));
            }
            Some(why) if ab > 0.0 => {
                return Report::fail(format!(
                    "{pair} overlap ({why}), and your separation is {ab:.4}, which \
                     says they are apart. No axis can show a gap between overlapping \
                     shapes: along n the gap runs from A's farthest vertex (the \
                     largest n·p) to B's nearest (the smallest n·q)."
                ));
            }
            _ => {}
        }
        if ab > best + 1e-7 {
            return Report::fail(format!(
                "your separation of {pair} is {ab:.6}, but no direction at all shows \
                 a gap larger than {best:.6} (trying directions all round the \
                 circle): along a unit normal n the gap is min_B n·q − max_A n·p. Is \
                 your normal a unit vector, and do you measure to the nearest \
                 vertex?"
            ));
        }
        if best < 0.0 {
            overlapping += 1;
            worst_depth = worst_depth.max((ab - best).abs());
            if ab < best - 1e-7 {
                return Report::fail(format!(
                    "{pair} overlap, and the least overlap over every direction is \
                     {:.6}: that is their depth, and an edge normal of one of them \
                     attains it. Your separation says {:.6}: take the largest gap \
                     over every candidate, the edges of A and the edges of B.",
                    -best, -ab
                ));
            }
        } else {
            apart += 1;
        }
    }
    if apart < 40 || overlapping < 40 {
        return Report::fail(format!(
            "the check found only {apart} pairs apart and {overlapping} overlapping \
             to try your separation on"
        ));
    }
    Report::pass(vec![
        "four pairs of turned rectangles: the gap or the depth, as the closed form gives"
            .to_string(),
        format!(
            "{apart} random pairs apart and {overlapping} overlapping, as vertices \
             inside and edges crossing say; the same in both orders"
        ),
        format!(
            "never more than the largest gap over all directions; the depth of each \
             overlap to {worst_depth:.1e}"
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polygon::separation;
    use crate::toi::{hermite, quadratic};

    pbm_prelim::answers!(separation => check_separation(separation::separation));

    #[test]
    fn the_books_functions_pass_their_checks() {
        check_hermite(hermite).assert_passed();
        check_separation(|a, b| separation(a, b).0).assert_passed();
    }

    /// A Hermite curve with the weights (k₀, k₁) on f₀ and f₁ (right: h, h), f₀ and
    /// f₁ exchanged when `swap`, and `h11_sign` on the basis s³ − s².
    fn hermite_like(
        (x0, f0, x1, f1): (&[f64], &[f64], &[f64], &[f64]),
        s: f64,
        (k0, k1): (f64, f64),
        swap: bool,
        h11_sign: f64,
    ) -> Vec<f64> {
        let (s2, s3) = (s * s, s * s * s);
        let (h00, h10, h01, h11) = (
            2.0 * s3 - 3.0 * s2 + 1.0,
            s3 - 2.0 * s2 + s,
            -2.0 * s3 + 3.0 * s2,
            h11_sign * (s3 - s2),
        );
        let (g0, g1) = if swap { (f1, f0) } else { (f0, f1) };
        (0..x0.len())
            .map(|i| h00 * x0[i] + h10 * k0 * g0[i] + h01 * x1[i] + h11 * k1 * g1[i])
            .collect()
    }

    #[test]
    fn hermite_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing =
            |f: HermiteFn, expect: &str| check_hermite(f).assert_fails_with(expect);
        let right = check_hermite(|x0, f0, x1, f1, h, s| {
            hermite_like((x0, f0, x1, f1), s, (h, h), false, 1.0)
        });
        right.assert_passed();
        // The slopes not scaled by h.
        failing(
            |x0, f0, x1, f1, _, s| {
                hermite_like((x0, f0, x1, f1), s, (1.0, 1.0), false, 1.0)
            },
            "multiply them by h",
        );
        // f₀ and f₁ exchanged.
        failing(
            |x0, f0, x1, f1, h, s| {
                hermite_like((x0, f0, x1, f1), s, (h, h), true, 1.0)
            },
            "end slope h f₁",
        );
        // The sign of s³ − s² reversed.
        failing(
            |x0, f0, x1, f1, h, s| {
                hermite_like((x0, f0, x1, f1), s, (h, h), false, -1.0)
            },
            "sign of s³ − s²",
        );
        // Baraff's quadratic in its place: it ignores f₁.
        failing(|x0, f0, x1, _, h, s| quadratic(x0, f0, x1, h, s), "ignores f₁");
        // Ending at x₀.
        failing(|x0, _, _, _, _, _| x0.to_vec(), "not x₁");
        // One number short.
        failing(|x0, _, _, _, _, _| x0[1..].to_vec(), "one per component");
    }

    /// A separation measured with the gaps of `all_gaps`, reduced by `pick`, over the
    /// edges of A only when `only_a`.
    fn separation_like(
        a: &ConvexPolygon,
        b: &ConvexPolygon,
        farthest: bool,
        unit: bool,
        only_a: bool,
        pick: fn(&[f64]) -> f64,
    ) -> f64 {
        if only_a {
            pick(&edge_gaps(a, b, farthest, unit))
        } else {
            pick(&all_gaps(a, b, farthest, unit))
        }
    }

    #[test]
    fn separation_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: SeparationFn, expect: &str| {
            check_separation(f).assert_fails_with(expect)
        };
        let right = check_separation(|a, b| {
            separation_like(a, b, false, true, false, largest)
        });
        right.assert_passed();
        failing(|a, b| -separation(a, b).0, "sign is reversed");
        failing(
            |a, b| separation_like(a, b, false, true, false, smallest),
            "largest gap",
        );
        failing(|a, b| separation_like(a, b, true, true, false, largest), "nearest");
        failing(
            |a, b| separation_like(a, b, false, false, false, largest),
            "unit normal",
        );
        // Only A's edge normals: right on rectangles, wrong when B's edge separates.
        failing(
            |a, b| separation_like(a, b, false, true, true, largest),
            "must not depend on the order",
        );
        failing(|_, _| f64::NAN, "your separation of two rectangles is NaN");
    }
}
