//! Practice for chapter 7: the reader writes the cubic Hermite curve the
//! collision-time search runs on, and the separation of two convex polygons. The
//! curve is checked at its ends, by the slopes it leaves and arrives with (central
//! differences), on a cubic motion it must reproduce exactly, and by the order of
//! its error on the chapter's falling box; the separation on rectangles with a
//! closed form and on random pairs against brute force: vertices inside, edges
//! crossing, and the gap along directions all round the circle. Two more tasks
//! come from the broad phase and the collision-time search: the coherent sweep's
//! insertion sort, checked against brute force (the ends out of order, the pairs
//! whose begin and end passed, the overlap table), and Baraff's secant search,
//! checked by its trials: the first one on a gap closing at a constant rate, every
//! one inside the bracket, and how many it takes where the secant alone would creep.

use crate::polygon::ConvexPolygon;
use crate::toi::FallingBox;
use nalgebra::Vector2;
use pbm_prelim::PbmError;
use pbm_prelim::practice::{
    Listing, Report, Task, number, numbers, observed_order, sequence,
};
use std::collections::BTreeSet;

/// A cubic Hermite curve the reader writes (the signature of
/// [`crate::toi::hermite`]).
pub type HermiteFn = fn(&[f64], &[f64], &[f64], &[f64], f64, f64) -> Vec<f64>;

/// A separation of two convex polygons the reader writes.
pub type SeparationFn = fn(&ConvexPolygon, &ConvexPolygon) -> f64;

/// A re-sort of one axis's interval ends the reader writes: the exchanges made and
/// the pairs met.
pub type ResortFn = fn(&mut [(u32, bool, f64)]) -> (usize, Vec<(u32, u32)>);

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
        solution: Listing {
            source: include_str!("practice/hermite_solution.rs"),
            anchor: "hermite",
        },
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
    Task {
        id: "collision/sweep",
        title: "the coherent sweep's insertion sort",
        section: "Bounding boxes and the coherent sweep",
        page: "07-collision/broad-phase.md",
        equation: "interval-overlap",
        difficulty: 2,
        file: "sweep.rs",
        stub: include_str!("practice/sweep.rs"),
        check: "pbm_collision::practice::check_sweep(reader::resort)",
        hints: &[
            "For k from 1 to the end, move ends[k] back one place at a time while the \
             end before it belongs after it; count each swap.",
            "p belongs after q when p.2 > q.2, or when they are equal and p is an end \
             and q a begin (p.1 false, q.1 true). Never swap two equal ends of the same \
             kind.",
            "At each swap of a begin with an end of a different box, note the pair \
             (min, max) if it is not noted yet: that pair's overlap may have changed.",
        ],
        solution: Listing {
            source: include_str!("practice/sweep_solution.rs"),
            anchor: "resort",
        },
    },
    Task {
        id: "collision/collision-time",
        title: "Baraff's secant search for the time of collision",
        section: "The time of collision, and tunnelling",
        page: "07-collision/collision-time.md",
        equation: "secant-collision-time",
        difficulty: 2,
        file: "secant.rs",
        stub: include_str!("practice/secant.rs"),
        check: "pbm_collision::practice::check_collision_time(reader::collision_time)",
        hints: &[
            "Measure gap(t0) and gap(t1) first and return the error unless the first \
             is above ε and the second below −ε. Keep (t_lo, d_lo) and (t_hi, d_hi).",
            "The secant estimate is t_lo + (t_hi − t_lo) d_lo/(d_lo − d_hi). If it is \
             within a tenth of the width of either end, take the midpoint instead.",
            "Measure d at the trial; if |d| ≤ ε return the trial's time, else replace \
             (t_lo, d_lo) when d > 0 and (t_hi, d_hi) when d < 0, and try again.",
        ],
        solution: Listing {
            source: include_str!("practice/secant_solution.rs"),
            anchor: "collision_time",
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
                "your curve at s = {s} is {}: not a finite number",
                numbers(&x)
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
        let why = identify_separation_slip(f).unwrap_or(
            "it is the largest of the gaps along the four directions of the \
             rectangles' sides, each from A's farthest vertex to B's nearest",
        );
        let (state, amount) =
            if want > 0.0 { ("apart by", want) } else { ("overlapping by", -want) };
        return Err(format!(
            "A, 2 × 1 at the origin, and B, 0.8 × 1.5 at {} in A's frame (both \
             turned by 0.7 rad), are {state} {}, the largest of the gaps {} along \
             ±x, ±y; your separation is {}: {why}.",
            numbers(centre.as_slice()),
            number(amount),
            numbers(&gaps),
            number(got)
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
                "your separation is {} (and {} with the polygons swapped) for {pair}",
                number(ab),
                number(ba)
            ));
        }
        let mut problems = Vec::new();
        if (ab - ba).abs() > 1e-9 * (1.0 + ab.abs()) {
            problems.push(format!(
                "your separation is {} with A first and {} with B first, for {pair}: \
                 it must not depend on the order. The candidates are the edge normals \
                 of both polygons: along an edge of B, the gap is how far A's nearest \
                 vertex lies beyond that edge.",
                number(ab),
                number(ba)
            ));
        }
        match overlaps {
            None if ab <= 0.0 => problems.push(format!(
                "{pair} are apart: no vertex of either is inside the other and no \
                 edges cross, and along some direction they are {} apart. Your \
                 separation is {}, which says they touch or overlap: some edge normal \
                 of one of them separates them, and the separation is the largest gap \
                 over all the candidates.",
                number(best),
                number(ab)
            )),
            Some(why) if ab > 0.0 => problems.push(format!(
                "{pair} overlap ({why}), and your separation is {}, which says they \
                 are apart. No axis can show a gap between overlapping shapes: along n \
                 the gap runs from A's farthest vertex (the largest n·p) to B's \
                 nearest (the smallest n·q).",
                number(ab)
            )),
            _ => {}
        }
        if ab > best + 1e-7 {
            problems.push(format!(
                "your separation of {pair} is {}, but no direction at all shows a gap \
                 larger than {} (trying directions all round the circle): along a unit \
                 normal n the gap is min_B n·q − max_A n·p. Is your normal a unit \
                 vector, and do you measure to the nearest vertex?",
                number(ab),
                number(best)
            ));
        } else if best < 0.0 && ab < best - 1e-7 {
            problems.push(format!(
                "{pair} overlap, and the least overlap over every direction is {}: \
                 that is their depth, and an edge normal of one of them attains it. \
                 Your separation says {}: take the largest gap over every candidate, \
                 the edges of A and the edges of B.",
                number(-best),
                number(-ab)
            ));
        }
        if !problems.is_empty() {
            if let Some(why) = identify_separation_slip(f) {
                problems.insert(0, format!("What your separation does: {why}."));
            }
            return Report::fail_all(problems);
        }
        if best < 0.0 {
            overlapping += 1;
            worst_depth = worst_depth.max((ab - best).abs());
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

/// The gap min over `to` of n·q minus max over `from` of n·p.
fn projected_gap(n: &Vector2<f64>, from: &ConvexPolygon, to: &ConvexPolygon) -> f64 {
    let far =
        from.vertices().iter().map(|p| n.dot(p)).fold(f64::NEG_INFINITY, f64::max);
    let near = to.vertices().iter().map(|q| n.dot(q)).fold(f64::INFINITY, f64::min);
    near - far
}

/// The gaps along the inward edge normals of both polygons, measured as the stub's
/// formula measures them (min over the other minus max over the edge's own).
fn inward_gaps(a: &ConvexPolygon, b: &ConvexPolygon) -> Vec<f64> {
    let mut gaps = Vec::new();
    for (p, q) in [(a, b), (b, a)] {
        gaps.extend(
            (0..p.vertices().len()).map(|i| projected_gap(&-p.normal(i), p, q)),
        );
    }
    gaps
}

/// A slip in a separation, told by the value it gives for a pair: whether `got` is
/// what the slip gives for (a, b).
type SlipTest = fn(&ConvexPolygon, &ConvexPolygon, f64) -> bool;

fn near_value(got: f64, x: f64) -> bool {
    (got - x).abs() <= 1e-9 * (1.0 + x.abs())
}

/// The slips a separation is tested for, the most specific first, each with what the
/// reader is told.
fn separation_slips() -> Vec<(SlipTest, &'static str)> {
    vec![
        (
            |a, b, got| near_value(got, -largest(&all_gaps(a, b, false, true))),
            "the sign is reversed: a positive separation means apart, a negative one \
             is a depth",
        ),
        (
            |a, b, got| {
                let negated: Vec<f64> =
                    all_gaps(a, b, true, true).iter().map(|g| -g).collect();
                near_value(got, largest(&negated))
                    || near_value(got, largest(&inward_gaps(a, b)))
            },
            "your normals point into the polygon: for a counter-clockwise polygon the \
             outward normal of the edge e = v₁ − v₀ is (e_y, −e_x)/|e|, or `normal(i)`; \
             (−e_y, e_x) points inwards",
        ),
        (
            |a, b, got| near_value(got, smallest(&all_gaps(a, b, false, true))),
            "that is the smallest gap over the normals. One axis with a gap is enough to \
             prove them apart, so the separation is the largest gap over the candidates",
        ),
        (
            |a, b, got| near_value(got, largest(&all_gaps(a, b, true, true))),
            "you measured to the other polygon's farthest vertex; the gap along n is to \
             its nearest: the least of n·(v − corner) over its vertices",
        ),
        (
            |a, b, got| near_value(got, largest(&all_gaps(a, b, false, false))),
            "your gaps are scaled by the edges' lengths: (e_y, −e_x) is as long as the \
             edge, and a gap is a distance only along a unit normal",
        ),
        (
            |a, b, got| {
                near_value(got, largest(&edge_gaps(a, b, false, true)))
                    || near_value(got, largest(&edge_gaps(b, a, false, true)))
            },
            "you tried the edge normals of one polygon only; an edge of either can be \
             the one that separates, so try the edges of A against B and the edges of B \
             against A",
        ),
        (
            |a, b, got| {
                let gaps = all_gaps(a, b, false, true);
                near_value(got, largest(&gaps))
                    || gaps.iter().any(|&g| g > 0.0 && near_value(got, g))
            },
            "your answer is the gap along one candidate, but a larger gap exists: \
             stopping at the first axis with a positive gap proves the polygons apart, \
             but the separation is the largest gap over all the candidates, whatever \
             order you try them in",
        ),
    ]
}

/// Which slip the reader's separation makes: the first whose value matches the
/// reader's on every one of a few random pairs, apart and overlapping, on which the
/// reader is wrong at least once.
fn identify_separation_slip(f: SeparationFn) -> Option<&'static str> {
    let mut next = sequence(0x51_1b5);
    let mut pairs = Vec::new();
    for _ in 0..40 {
        if pairs.len() >= 8 {
            break;
        }
        let a = random_polygon(&mut next, Vector2::zeros(), 1.0);
        let direction = std::f64::consts::PI * next();
        let reach = 1.3 + 1.3 * next();
        let radius = 0.85 + 0.35 * next();
        let centre = Vector2::new(direction.cos(), direction.sin()) * reach;
        let b = random_polygon(&mut next, centre, radius);
        if let (Some(a), Some(b)) = (a, b) {
            pairs.push((a, b));
        }
    }
    let got: Vec<(f64, f64)> =
        pairs.iter().map(|(a, b)| (f(a, b), f(b, a))).collect();
    let wrong = pairs.iter().zip(&got).any(|((a, b), &(ab, ba))| {
        let want = largest(&all_gaps(a, b, false, true));
        !near_value(ab, want) || !near_value(ba, want)
    });
    if !wrong {
        return None;
    }
    separation_slips().into_iter().find_map(|(test, why)| {
        pairs
            .iter()
            .zip(&got)
            .all(|((a, b), &(ab, ba))| test(a, b, ab) && test(b, a, ba))
            .then_some(why)
    })
}

/// One interval end as the sweep task writes it: (box, begin, x).
type End = (u32, bool, f64);

/// Whether end p belongs after end q: a larger x, or an end after a begin at equal x.
fn belongs_after(p: &End, q: &End) -> bool {
    p.2 > q.2 || (p.2 == q.2 && !p.1 && q.1)
}

/// An end for a message: "the begin of box 3 (x = 1.5)".
fn end_name(e: &End) -> String {
    let kind = if e.1 { "begin" } else { "end" };
    format!("the {kind} of box {} (x = {})", e.0, number(e.2))
}

fn pair_list(pairs: &[(u32, u32)]) -> String {
    let shown: Vec<String> =
        pairs.iter().map(|(i, j)| format!("({i}, {j})")).collect();
    shown.join(", ")
}

/// What an insertion sort must do to one list: the list sorted (stably, as an
/// insertion sort leaves it), the pairs of ends out of order, and of those the
/// begin/end pairs of two boxes that start overlapping (an end moving back past a
/// begin) and that stop (a begin moving back past an end… the end passing it), and
/// the same-kind pairs that pass each other.
struct Resorted {
    sorted: Vec<End>,
    inversions: usize,
    moved: usize,
    started: BTreeSet<(u32, u32)>,
    ended: BTreeSet<(u32, u32)>,
    same_kind: BTreeSet<(u32, u32)>,
}

fn resorted(before: &[End]) -> Resorted {
    let mut sorted = before.to_vec();
    // A stable sort by the same order: ties of the same kind keep their places.
    sorted.sort_by(|p, q| {
        if belongs_after(p, q) {
            std::cmp::Ordering::Greater
        } else if belongs_after(q, p) {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Equal
        }
    });
    let mut r = Resorted {
        sorted,
        inversions: 0,
        moved: 0,
        started: BTreeSet::new(),
        ended: BTreeSet::new(),
        same_kind: BTreeSet::new(),
    };
    for (k, q) in before.iter().enumerate() {
        let mut passed = 0;
        for p in &before[..k] {
            if !belongs_after(p, q) {
                continue;
            }
            passed += 1;
            let pair = (p.0.min(q.0), p.0.max(q.0));
            if p.0 == q.0 {
                continue;
            }
            match (p.1, q.1) {
                (false, true) => r.started.insert(pair),
                (true, false) => r.ended.insert(pair),
                _ => r.same_kind.insert(pair),
            };
        }
        r.inversions += passed;
        r.moved += usize::from(passed > 0);
    }
    r
}

/// Whether two boxes' intervals overlap (closed) in a list of ends.
fn overlapping_pairs(ends: &[End]) -> BTreeSet<(u32, u32)> {
    let n = ends.len() / 2;
    let mut lo = vec![0.0; n];
    let mut hi = vec![0.0; n];
    for e in ends {
        if e.1 { lo[e.0 as usize] = e.2 } else { hi[e.0 as usize] = e.2 }
    }
    let mut pairs = BTreeSet::new();
    for i in 0..n {
        for j in i + 1..n {
            if lo[i] <= hi[j] && lo[j] <= hi[i] {
                pairs.insert((i as u32, j as u32));
            }
        }
    }
    pairs
}

/// Runs the reader's re-sort on `before` (last step's order, new coordinates): what
/// is wrong with what it did, the most telling first, and the pairs it met.
fn sweep_problems(
    f: ResortFn,
    before: &[End],
    what: &str,
) -> (Vec<String>, BTreeSet<(u32, u32)>) {
    let want = resorted(before);
    let mut list = before.to_vec();
    pbm_prelim::practice::case(what.to_string());
    let (count, pairs) = f(&mut list);
    let mut problems = Vec::new();
    let as_set = |l: &[End]| {
        let mut keys: Vec<(u32, bool, u64)> =
            l.iter().map(|e| (e.0, e.1, e.2.to_bits())).collect();
        keys.sort_unstable();
        keys
    };
    if as_set(&list) != as_set(before) {
        problems.push(format!(
            "for {what}, your list no longer holds the same ends: a re-sort only \
             exchanges neighbours, so every (box, begin, x) stays, each once"
        ));
        return (problems, BTreeSet::new());
    }
    if let Some(k) = (1..list.len()).find(|&k| belongs_after(&list[k - 1], &list[k]))
    {
        let (p, q) = (list[k - 1], list[k]);
        let why = if p.2 == q.2 {
            "at equal x a begin goes before an end, so that touching intervals \
             count as overlapping"
        } else {
            "every end must move back past all the ends larger than it"
        };
        problems.push(format!(
            "for {what}, your list is not sorted: {} comes before {}: {why}",
            end_name(&p),
            end_name(&q)
        ));
    } else if list != want.sorted {
        problems.push(format!(
            "for {what}, your list is sorted but two ends with equal x of the same \
             kind changed places: they are in order already, and exchanging them \
             costs exchanges for nothing (compare with `>`, not `>=`)"
        ));
    }
    if count != want.inversions {
        let why = if count == want.moved && want.moved != want.inversions {
            "you counted one for each end that moved; count every exchange of two \
             neighbours, however far an end moves"
                .to_string()
        } else if count > want.inversions {
            "an insertion sort exchanges two ends only when the earlier belongs after \
             the later, so it makes exactly one exchange for each pair out of order"
                .to_string()
        } else {
            "an insertion sort makes exactly one exchange for each pair of ends out \
             of order, and your count is short: add one at every swap"
                .to_string()
        };
        let out_of_order = match want.inversions {
            1 => "1 pair of ends was".to_string(),
            k => format!("{k} pairs of ends were"),
        };
        problems.push(format!(
            "for {what}, you counted {count} exchanges where {out_of_order} out of \
             order: {why}"
        ));
    }
    let mut seen = BTreeSet::new();
    let (mut twice, mut own, mut reversed) = (None, None, None);
    for &(i, j) in &pairs {
        if i == j {
            own = Some(i);
        } else if i > j {
            reversed = Some((i, j));
        }
        if !seen.insert((i.min(j), i.max(j))) {
            twice = Some((i.min(j), i.max(j)));
        }
    }
    if let Some(i) = own {
        problems.push(format!(
            "for {what}, you list the pair ({i}, {i}): a box's own begin and end never \
             pass each other, and a box does not overlap itself"
        ));
    }
    if let Some((i, j)) = reversed {
        problems.push(format!(
            "for {what}, you list the pair ({i}, {j}): write each pair with the \
             smaller index first, ({j}, {i})"
        ));
    }
    if let Some((i, j)) = twice {
        problems.push(format!(
            "for {what}, you list the pair ({i}, {j}) twice: a box can pass both ends \
             of another in one update, but the pair is tested once, so list it once"
        ));
    }
    let expected: BTreeSet<(u32, u32)> =
        want.started.union(&want.ended).copied().collect();
    let extra: Vec<(u32, u32)> =
        seen.difference(&expected).copied().filter(|(i, j)| i != j).collect();
    let missing: Vec<(u32, u32)> = expected.difference(&seen).copied().collect();
    if !extra.is_empty() {
        let why = if extra.iter().all(|p| want.same_kind.contains(p)) {
            "they only passed begin by begin or end by end, and two begins (or two \
             ends) passing each other change no overlap: only a begin exchanged with \
             an end can"
        } else {
            "no begin of one and end of the other were exchanged, so their overlap \
             cannot have changed: list only the pairs met in an exchange"
        };
        problems
            .push(format!("for {what}, you list {} where {why}", pair_list(&extra)));
    }
    if !missing.is_empty() {
        let why = if missing.iter().all(|p| want.ended.contains(p)) {
            "an end moving back past a begin of another box ends their overlap, and \
             must be listed as well as a begin passing an end"
        } else if missing.iter().all(|p| want.started.contains(p)) {
            "a begin moving back past an end of another box starts their overlap, and \
             must be listed as well as an end passing a begin"
        } else {
            "a begin of one and an end of the other passed each other, and that is \
             where their overlap can change"
        };
        problems.push(format!(
            "for {what}, your pairs lack {}: {why}",
            pair_list(&missing)
        ));
    }
    (problems, seen)
}

/// The ends of boxes `[lo, hi]`, in last step's order `order` (box, begin), at the
/// boxes' new coordinates.
fn ends_at(order: &[(u32, bool)], boxes: &[(f64, f64)]) -> Vec<End> {
    order
        .iter()
        .map(|&(i, begin)| {
            let (lo, hi) = boxes[i as usize];
            (i, begin, if begin { lo } else { hi })
        })
        .collect()
}

/// The ends of `boxes` sorted, as (box, begin).
fn sorted_order(boxes: &[(f64, f64)]) -> Vec<(u32, bool)> {
    let ends: Vec<End> = boxes
        .iter()
        .enumerate()
        .flat_map(|(i, &(lo, hi))| [(i as u32, true, lo), (i as u32, false, hi)])
        .collect();
    resorted(&ends).sorted.iter().map(|e| (e.0, e.1)).collect()
}

/// Checks a re-sort: four small moves with an answer by hand (touching ends, an
/// overlap that ends, a box that jumps clean over another), then 40 steps of 60
/// boxes moving on a line, their ends on a grid so that ties happen. Each against
/// brute force: the list sorted, one exchange per pair of ends out of order, the
/// pairs met exactly those whose begin and end passed, and the overlap table kept
/// from them equal to every pair tested.
pub fn check_sweep(f: ResortFn) -> Report {
    type Move = (&'static str, Vec<(f64, f64)>, Vec<(f64, f64)>);
    let small: [Move; 4] = [
        (
            "two boxes that come to touch, [0, 1] and [1.5, 2.5] → [1, 2]",
            vec![(0.0, 1.0), (1.5, 2.5)],
            vec![(0.0, 1.0), (1.0, 2.0)],
        ),
        (
            "box 3 moving left into box 2, as in the page's figure",
            vec![(0.0, 1.0), (0.5, 1.6), (2.0, 3.0), (3.4, 4.0)],
            vec![(0.0, 1.0), (0.5, 1.6), (2.0, 3.0), (2.6, 3.2)],
        ),
        (
            "an overlap that ends, [0, 1] and [0.8, 2] → [1.2, 2.4]",
            vec![(0.0, 1.0), (0.8, 2.0)],
            vec![(0.0, 1.0), (1.2, 2.4)],
        ),
        (
            "box 0 jumping clean over box 1, [0, 1] → [2, 3] past [1.5, 1.8]",
            vec![(0.0, 1.0), (1.5, 1.8)],
            vec![(2.0, 3.0), (1.5, 1.8)],
        ),
    ];
    for (what, old, new) in &small {
        let (problems, _) =
            sweep_problems(f, &ends_at(&sorted_order(old), new), what);
        if !problems.is_empty() {
            return Report::fail_all(problems);
        }
    }
    // Boxes on a line, 0.05 to 0.4 long, moving up to 0.03 a step, every coordinate
    // on a grid of 0.01 so that ends meet exactly.
    let mut next = sequence(0x5ee9_0007);
    let grid = |x: f64| (x * 100.0).round() / 100.0;
    let n = 60;
    let mut boxes: Vec<(f64, f64)> = (0..n)
        .map(|_| {
            let lo = grid(8.0 * next());
            (lo, grid(lo + 0.225 + 0.175 * next()))
        })
        .collect();
    let speeds: Vec<f64> = (0..n).map(|_| 0.03 * next()).collect();
    let mut order = sorted_order(&boxes);
    let mut table = overlapping_pairs(&ends_at(&order, &boxes));
    let (steps, mut exchanges, mut changes) = (40, 0, 0);
    for step in 1..=steps {
        for (b, v) in boxes.iter_mut().zip(&speeds) {
            let shift = grid(v * (1.0 + 0.5 * next()));
            *b = (grid(b.0 + shift), grid(b.1 + shift));
        }
        let before = ends_at(&order, &boxes);
        let what = format!("step {step} of {n} moving boxes");
        let (mut problems, met) = sweep_problems(f, &before, &what);
        let truth = overlapping_pairs(&before);
        for &(i, j) in met.iter().filter(|(i, j)| i < j && (*j as usize) < n) {
            let (a, b) = (boxes[i as usize], boxes[j as usize]);
            if a.0 <= b.1 && b.0 <= a.1 {
                table.insert((i, j));
            } else {
                table.remove(&(i, j));
            }
        }
        if table != truth {
            let lost: Vec<(u32, u32)> =
                truth.symmetric_difference(&table).copied().collect();
            problems.push(format!(
                "at {what}, an overlap table kept by testing only the pairs you met \
                 is wrong for {}: their overlap changed and your sweep never met them",
                pair_list(&lost)
            ));
        }
        if !problems.is_empty() {
            return Report::fail_all(problems);
        }
        let want = resorted(&before);
        exchanges += want.inversions;
        changes += want.started.len() + want.ended.len();
        order = want.sorted.iter().map(|e| (e.0, e.1)).collect();
    }
    Report::pass(vec![
        "four moves by hand: touching ends overlap, an overlap that ends is met, a \
         box jumping over another is listed once"
            .to_string(),
        format!(
            "{steps} steps of {n} boxes moving a little: sorted, {} exchanges a step \
             on average, one for each pair of ends out of order, beside the {} ends \
             walked",
            number(exchanges as f64 / steps as f64),
            2 * n
        ),
        format!(
            "the pairs met are exactly those whose begin and end passed ({changes} in \
             all), and the overlap table kept from them equals brute force at every \
             step"
        ),
    ])
}

/// A collision-time search the reader writes.
pub type CollisionTimeFn =
    fn(&mut dyn FnMut(f64) -> f64, (f64, f64), f64) -> Result<f64, PbmError>;

/// One search: the trials the reader's code asked for, in order, and its answer.
struct Search {
    trials: Vec<(f64, f64)>,
    answer: Result<f64, PbmError>,
}

/// Runs the reader's search on `gap` over `bracket`, recording every gap it asks
/// for. A search that asks for more than 10 000 is stopped with a panic that says so.
fn search(
    f: CollisionTimeFn,
    gap: fn(f64) -> f64,
    bracket: (f64, f64),
    epsilon: f64,
    what: &str,
) -> Search {
    pbm_prelim::practice::case(what.to_string());
    let mut trials = Vec::new();
    let mut counted = |t: f64| {
        assert!(
            trials.len() < 10_000,
            "your search asked for 10 000 gaps on {what} without stopping"
        );
        let d = gap(t);
        trials.push((t, d));
        d
    };
    let answer = f(&mut counted, bracket, epsilon);
    Search { trials, answer }
}

/// The gaps the search is tried on: (what, gap, bracket, ε).
type GapCase = (&'static str, fn(f64) -> f64, (f64, f64), f64);

const GAP_CASES: [GapCase; 4] = [
    (
        "a gap closing at a constant rate, d = 0.3 − 2t on [0, 0.4]",
        |t| 0.3 - 2.0 * t,
        (0.0, 0.4),
        1e-6,
    ),
    (
        "a cubic gap, as the Hermite curve gives, d = 0.4 − 0.5t − 3t² − 2t³ on \
         [0.1, 0.5]",
        |t| 0.4 - t * (0.5 + t * (3.0 + 2.0 * t)),
        (0.1, 0.5),
        1e-8,
    ),
    (
        "a gap that bends hard, d = e^(−20t) − 0.01 on [0, 1]",
        |t| (-20.0 * t).exp() - 0.01,
        (0.0, 1.0),
        1e-9,
    ),
    (
        "a gap that wobbles, d = 0.25 − t + 0.1 sin 30t on [0.05, 0.6]",
        |t| 0.25 - t + 0.1 * (30.0 * t).sin(),
        (0.05, 0.6),
        1e-7,
    ),
];

/// What is wrong with one search, the most telling first, and the trial count.
fn search_problems(
    f: CollisionTimeFn,
    (what, gap, (t0, t1), epsilon): GapCase,
) -> (Vec<String>, usize) {
    let run = search(f, gap, (t0, t1), epsilon, what);
    let mut problems = Vec::new();
    // The bracket the rule keeps, followed along the reader's own trials.
    let (mut lo, mut hi) = ((t0, gap(t0)), (t1, gap(t1)));
    let inner: Vec<(f64, f64)> =
        run.trials.iter().copied().filter(|&(t, _)| t != t0 && t != t1).collect();
    for (k, &(t, d)) in inner.iter().enumerate() {
        if !(t > lo.0 && t < hi.0) {
            problems.push(format!(
                "on {what}, trial {} at t = {} lies outside the bracket [{}, {}] the \
                 earlier trials left: a trial with a positive gap replaces t_lo, one \
                 with a negative gap replaces t_hi, so the bracket keeps an end apart \
                 and an end interpenetrating",
                k + 1,
                number(t),
                number(lo.0),
                number(hi.0)
            ));
            break;
        }
        if d.abs() <= epsilon {
            break;
        }
        if d > 0.0 { lo = (t, d) } else { hi = (t, d) }
    }
    match &run.answer {
        Err(e) => problems.push(format!(
            "on {what}, your search returned an error after {} trials: {e}",
            inner.len()
        )),
        Ok(t) if !t.is_finite() || *t < t0 || *t > t1 => problems.push(format!(
            "on {what}, your time {} lies outside the step [{}, {}]",
            number(*t),
            number(t0),
            number(t1)
        )),
        Ok(t) if gap(*t).abs() > epsilon => problems.push(format!(
            "on {what}, the gap at your time {} is {}, outside ±ε = ±{}: stop only \
             at a trial with |d| ≤ ε, and return that trial's time",
            number(*t),
            number(gap(*t)),
            number(epsilon)
        )),
        Ok(_) => {}
    }
    (problems, inner.len())
}

/// Checks a collision-time search: the secant's first trial on a gap closing at a
/// constant rate, then on four gaps, every trial inside the bracket the rule keeps,
/// an answer within ε, few trials where the secant alone would creep, and errors for
/// a bracket that does not straddle the band.
pub fn check_collision_time(f: CollisionTimeFn) -> Report {
    let mut problems = Vec::new();
    let (name, gap, (t0, t1), epsilon) = GAP_CASES[0];
    let run = search(f, gap, (t0, t1), epsilon, name);
    let first = run.trials.iter().map(|&(t, _)| t).find(|&t| t != t0 && t != t1);
    let secant = t0 + (t1 - t0) * gap(t0) / (gap(t0) - gap(t1));
    match first {
        Some(t) if (t - secant).abs() <= 1e-12 => {}
        Some(t) => {
            let why = if (t - 0.5 * (t0 + t1)).abs() <= 1e-12 {
                "that is the midpoint, so either you bisect or your secant estimate \
                 fell in the outer tenth of the bracket and the guard bisected. The \
                 secant estimate t_lo + (t_hi − t_lo) d_lo/(d_lo − d_hi) lands on the \
                 root at once"
            } else if (t - (t1 - (secant - t0))).abs() <= 1e-12 {
                "the secant's point measured from the wrong end: t_lo + (t_hi − t_lo) \
                 d_lo/(d_lo − d_hi), with the gap at t_lo on top"
            } else {
                "the secant through (t_lo, d_lo) and (t_hi, d_hi) crosses zero at \
                 t_lo + (t_hi − t_lo) d_lo/(d_lo − d_hi), exactly where a gap that \
                 closes at a constant rate does"
            };
            problems.push(format!(
                "on {name}, your first trial was t = {}, where the secant estimate is \
                 {}: {why}",
                number(t),
                number(secant)
            ));
        }
        None => {}
    }
    let mut counts = Vec::new();
    for case in GAP_CASES {
        let (mut found, trials) = search_problems(f, case);
        counts.push(trials);
        // The secant alone creeps on a bending gap; the guard bisects instead.
        if trials > 60 {
            found.insert(0, format!(
                "on {}, your search took {trials} trials: on a gap that bends, the \
                 secant estimate keeps landing just beside the same end and the bracket \
                 shrinks slowly. Bisect when the estimate lands in the outer tenth of \
                 the bracket",
                case.0
            ));
        }
        problems.extend(found);
    }
    if problems.is_empty() {
        let touching =
            search(f, |t| 0.5e-6 - t, (0.0, 1.0), 1e-6, "a gap within ε at t0");
        let apart =
            search(f, |t| 1.0 - t, (0.0, 0.5), 1e-6, "a gap still apart at t1");
        for (run, which) in
            [(touching, "already within ε at t0"), (apart, "still apart at t1")]
        {
            if let Ok(t) = run.answer {
                problems.push(format!(
                    "with the bodies {which}, your search returned t = {}: the bracket \
                     must have a gap above ε at t0 and a depth below −ε at t1, and \
                     otherwise the answer is PbmError::invalid",
                    number(t)
                ));
            }
        }
    }
    if !problems.is_empty() {
        return Report::fail_all(problems);
    }
    Report::pass(vec![
        format!(
            "on a gap closing at a constant rate the first trial is the root, {}",
            number(secant)
        ),
        format!(
            "on a cubic, a bending and a wobbling gap every trial stays in the bracket \
             and the time is within ε; trials: {}",
            counts.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
        ),
        "a bracket that does not straddle ±ε is an error".to_string(),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polygon::separation;
    use crate::toi::{hermite, quadratic};

    pbm_prelim::answers!(
        separation => check_separation(separation::separation),
        hermite => check_hermite(hermite::hermite),
        sweep => check_sweep(sweep::resort),
        secant => check_collision_time(secant::collision_time),
    );

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

    #[test]
    fn separation_slips_the_review_found_are_named() {
        // Inward normals (−e_y, e_x), with the stub's formula.
        check_separation(|a, b| largest(&inward_gaps(a, b)))
            .assert_fails_with("point into the polygon");
        // The first positive gap, in the order A's edges then B's.
        let first_positive = |a: &ConvexPolygon, b: &ConvexPolygon| {
            let gaps = all_gaps(a, b, false, true);
            gaps.iter().copied().find(|&g| g > 0.0).unwrap_or_else(|| largest(&gaps))
        };
        check_separation(first_positive).assert_fails_with("whatever order");
        // Only A's edges: named as well as caught.
        check_separation(|a, b| separation_like(a, b, false, true, true, largest))
            .assert_fails_with("one polygon only");
    }

    /// An insertion sort of the ends with `after` as its order, counting exchanges
    /// (one per end moved when `per_end`) and noting the pairs `note` accepts.
    fn resort_like(
        ends: &mut [End],
        after: fn(&End, &End) -> bool,
        per_end: bool,
        note: fn(&End, &End) -> bool,
    ) -> (usize, Vec<(u32, u32)>) {
        let (mut count, mut pairs) = (0, Vec::new());
        for k in 1..ends.len() {
            let mut m = k;
            while m > 0 && after(&ends[m - 1], &ends[m]) {
                let (a, b) = (ends[m - 1], ends[m]);
                ends.swap(m - 1, m);
                m -= 1;
                count += usize::from(!per_end);
                let pair = (a.0.min(b.0), a.0.max(b.0));
                if a.0 != b.0 && note(&a, &b) && !pairs.contains(&pair) {
                    pairs.push(pair);
                }
            }
            count += usize::from(per_end && m < k);
        }
        (count, pairs)
    }

    #[test]
    fn sweep_mutants_fail_with_the_diagnosis_meant_for_them() {
        check_sweep(|e| resort_like(e, belongs_after, false, |a, b| a.1 != b.1))
            .assert_passed();
        // A correct alternative: bubble sort, passes until nothing moves.
        check_sweep(|e| {
            let (mut count, mut pairs) = (0, Vec::new());
            let mut swapped = true;
            while swapped {
                swapped = false;
                for k in 1..e.len() {
                    if belongs_after(&e[k - 1], &e[k]) {
                        let (a, b) = (e[k - 1], e[k]);
                        e.swap(k - 1, k);
                        (count, swapped) = (count + 1, true);
                        let pair = (a.0.min(b.0), a.0.max(b.0));
                        if a.1 != b.1 && !pairs.contains(&pair) {
                            pairs.push(pair);
                        }
                    }
                }
            }
            (count, pairs)
        })
        .assert_passed();
        let failing =
            |f: ResortFn, expect: &str| check_sweep(f).assert_fails_with(expect);
        // Ends before begins at equal x.
        failing(
            |e| {
                resort_like(
                    e,
                    |p, q| p.2 > q.2 || (p.2 == q.2 && p.1 && !q.1),
                    false,
                    |a, b| a.1 != b.1,
                )
            },
            "a begin goes before an end",
        );
        // `>=`: equal ends exchanged.
        failing(
            |e| {
                resort_like(
                    e,
                    |p, q| p.2 >= q.2 && !(p.2 == q.2 && p.1 && !q.1),
                    false,
                    |a, b| a.1 != b.1,
                )
            },
            "`>`, not `>=`",
        );
        // One count per end moved.
        failing(
            |e| resort_like(e, belongs_after, true, |a, b| a.1 != b.1),
            "one for each end that moved",
        );
        // Every exchange noted, begin with begin too.
        failing(|e| resort_like(e, belongs_after, false, |_, _| true), "two begins");
        // Only a begin moving back past an end (overlaps that start).
        failing(
            |e| resort_like(e, belongs_after, false, |a, b| !a.1 && b.1),
            "ends their overlap",
        );
        // Every pair met, as often as met.
        failing(
            |e| {
                let (count, _) =
                    resort_like(&mut e.to_vec(), belongs_after, false, |_, _| false);
                let mut pairs = Vec::new();
                let mut list = e.to_vec();
                for k in 1..list.len() {
                    let mut m = k;
                    while m > 0 && belongs_after(&list[m - 1], &list[m]) {
                        let (a, b) = (list[m - 1], list[m]);
                        list.swap(m - 1, m);
                        m -= 1;
                        if a.1 != b.1 && a.0 != b.0 {
                            pairs.push((a.0.min(b.0), a.0.max(b.0)));
                        }
                    }
                }
                e.copy_from_slice(&list);
                (count, pairs)
            },
            "twice",
        );
    }

    /// A bracket search with the trial `pick(lo, hi)`, replacing the wrong end when
    /// `swap_ends`, and refusing bad brackets unless `lenient`.
    fn search_like(
        gap: &mut dyn FnMut(f64) -> f64,
        (t0, t1): (f64, f64),
        epsilon: f64,
        pick: fn((f64, f64), (f64, f64)) -> f64,
        swap_ends: bool,
        lenient: bool,
    ) -> Result<f64, PbmError> {
        let (mut lo, mut hi) = ((t0, gap(t0)), (t1, gap(t1)));
        let straddles = lo.1 > epsilon && hi.1 < -epsilon;
        if !lenient && !straddles {
            return Err(PbmError::invalid("t", "bracket"));
        }
        for _ in 0..200 {
            let t = pick(lo, hi);
            let d = gap(t);
            if d.abs() <= epsilon {
                return Ok(t);
            }
            if (d > 0.0) != swap_ends { lo = (t, d) } else { hi = (t, d) }
        }
        Err(PbmError::degenerate("t", "no time"))
    }

    fn guarded(lo: (f64, f64), hi: (f64, f64)) -> f64 {
        let w = hi.0 - lo.0;
        let t = lo.0 + w * lo.1 / (lo.1 - hi.1);
        if (t - lo.0).min(hi.0 - t) > 0.1 * w { t } else { 0.5 * (lo.0 + hi.0) }
    }

    #[test]
    fn collision_time_mutants_fail_with_the_diagnosis_meant_for_them() {
        check_collision_time(|g, b, e| search_like(g, b, e, guarded, false, false))
            .assert_passed();
        // A correct alternative: the Illinois variant of false position, which halves
        // the kept end's gap instead of bisecting.
        check_collision_time(|gap, (t0, t1), epsilon| {
            let (mut lo, mut hi) = ((t0, gap(t0)), (t1, gap(t1)));
            if !(lo.1 > epsilon && hi.1 < -epsilon) {
                return Err(PbmError::invalid("t", "bracket"));
            }
            let mut side = 0;
            for _ in 0..200 {
                let t = lo.0 + (hi.0 - lo.0) * lo.1 / (lo.1 - hi.1);
                let d = gap(t);
                if d.abs() <= epsilon {
                    return Ok(t);
                }
                if d > 0.0 {
                    lo = (t, d);
                    if side == 1 {
                        hi.1 *= 0.5
                    }
                    side = 1;
                } else {
                    hi = (t, d);
                    if side == -1 {
                        lo.1 *= 0.5
                    }
                    side = -1;
                }
            }
            Err(PbmError::degenerate("t", "no time"))
        })
        .assert_passed();
        let failing = |f: CollisionTimeFn, expect: &str| {
            check_collision_time(f).assert_fails_with(expect)
        };
        // Bisection only.
        failing(
            |g, b, e| {
                search_like(g, b, e, |lo, hi| 0.5 * (lo.0 + hi.0), false, false)
            },
            "you bisect",
        );
        // The secant alone, no guard: creeps on the bending gap.
        failing(
            |g, b, e| {
                search_like(
                    g,
                    b,
                    e,
                    |lo, hi| lo.0 + (hi.0 - lo.0) * lo.1 / (lo.1 - hi.1),
                    false,
                    false,
                )
            },
            "outer tenth",
        );
        // The secant measured from the wrong end, caught by the guard elsewhere.
        failing(
            |g, b, e| {
                search_like(
                    g,
                    b,
                    e,
                    |lo, hi| {
                        let w = hi.0 - lo.0;
                        let t = hi.0 - w * lo.1 / (lo.1 - hi.1);
                        if (t - lo.0).min(hi.0 - t) > 0.1 * w {
                            t
                        } else {
                            0.5 * (lo.0 + hi.0)
                        }
                    },
                    false,
                    false,
                )
            },
            "wrong end",
        );
        // The trial replaces the end with the other sign.
        failing(
            |g, b, e| search_like(g, b, e, guarded, true, false),
            "outside the bracket",
        );
        // No check of the bracket.
        failing(
            |g, b, e| search_like(g, b, e, guarded, false, true),
            "PbmError::invalid",
        );
        // Returns the last trial's time even when it is outside the band.
        failing(
            |g, b, e| search_like(g, b, e * 1e4, guarded, false, false),
            "outside ±ε",
        );
    }
}
