//! The time of collision: given two polygons apart at the start of a step and
//! interpenetrating at its end, the instant at which they come within ε of touching.
//! The notes find it by bisection, re-taking the step with shorter and shorter
//! lengths; Baraff (1995) interpolates the motion the Runge–Kutta step already
//! computed and searches on that, so finding the time costs no derivative evaluations.

use crate::polygon::{ConvexPolygon, separation};
use nalgebra::Vector2;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::{OdeSystem, VectorField, state_of};
use pbm_ode::tableau::RK4;
use pbm_particles::forces::G;
use pbm_prelim::PbmError;

/// What a collision-time search found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CollisionTime {
    /// The time found: the polygons' separation there lies in [−ε, ε].
    pub t: f64,
    /// Their separation at `t`.
    pub separation: f64,
    /// Times at which the polygons were placed and tested.
    pub evaluations: usize,
}

/// How the next trial time is chosen inside the bracket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Search {
    /// The midpoint, always (the notes, section 6).
    Bisection,
    /// The secant estimate from the separations at the ends, unless it lands in the
    /// outer tenth of the bracket (Baraff's hybrid).
    Secant,
}

impl pbm_prelim::Choice for Search {
    const OPTIONS: &'static [(&'static str, Self)] =
        &[("bisection", Search::Bisection), ("secant", Search::Secant)];
}

/// Refuses a bracket whose ends do not straddle the tolerance band: separated by
/// more than ε at the start, deeper than ε at the end.
fn check_bracket(start: f64, end: f64, epsilon: f64) -> Result<(), PbmError> {
    if start > epsilon && end < -epsilon {
        return Ok(());
    }
    let why = format!(
        "separation {start} at the start and {end} at the end: the search needs a gap \
         above ε = {epsilon} and a depth below −ε"
    );
    Err(PbmError::invalid("collision time", why))
}

// ANCHOR: collision_time
/// Finds a time in [t0, t1] at which the polygons `at(t)` are within ε of touching,
/// when they are apart by more than ε at t0 and interpenetrate by more than ε at
/// t1. The secant estimate is exact for motion along a line at constant speed;
/// bisection halves the bracket each time whatever the motion. Either way the
/// bracket keeps a separated end and an interpenetrating end, so the search cannot
/// leave it.
pub fn collision_time(
    mut at: impl FnMut(f64) -> Result<(ConvexPolygon, ConvexPolygon), PbmError>,
    (t0, t1): (f64, f64),
    epsilon: f64,
    search: Search,
) -> Result<CollisionTime, PbmError> {
    let mut gap = |t: f64| -> Result<f64, PbmError> {
        let (a, b) = at(t)?;
        Ok(separation(&a, &b).0)
    };
    let (mut lo, mut hi) = ((t0, gap(t0)?), (t1, gap(t1)?));
    check_bracket(lo.1, hi.1, epsilon)?;
    for evaluations in 3..=200 {
        let secant = lo.0 + (hi.0 - lo.0) * lo.1 / (lo.1 - hi.1);
        let width = hi.0 - lo.0;
        let t = match search {
            Search::Secant if (secant - lo.0).min(hi.0 - secant) > 0.1 * width => {
                secant
            }
            _ => 0.5 * (lo.0 + hi.0),
        };
        let d = gap(t)?;
        if d.abs() <= epsilon {
            return Ok(CollisionTime { t, separation: d, evaluations });
        }
        if d > 0.0 { lo = (t, d) } else { hi = (t, d) }
    }
    let why =
        format!("no time within ε = {epsilon} found between {} and {}", lo.0, hi.0);
    Err(PbmError::degenerate("collision time", why))
}
// ANCHOR_END: collision_time

// ANCHOR: hermite
/// The cubic through the step's two end states x0, x1 with the step's two end
/// derivatives f0, f1 (cubic Hermite interpolation), at the fraction s ∈ [0, 1] of a
/// step of length h. f0 is the step's first stage; f1 costs one evaluation at the end
/// state, which the step overshot to (it would be the next step's first stage only if
/// the step were kept). Exact for motion cubic in time, off by O(h⁴) otherwise.
pub fn hermite(
    x0: &[f64],
    f0: &[f64],
    x1: &[f64],
    f1: &[f64],
    h: f64,
    s: f64,
) -> Vec<f64> {
    let (s2, s3) = (s * s, s * s * s);
    let (h00, h10) = (2.0 * s3 - 3.0 * s2 + 1.0, s3 - 2.0 * s2 + s);
    let (h01, h11) = (-2.0 * s3 + 3.0 * s2, s3 - s2);
    (0..x0.len())
        .map(|i| h00 * x0[i] + h10 * h * f0[i] + h01 * x1[i] + h11 * h * f1[i])
        .collect()
}
// ANCHOR_END: hermite

// ANCHOR: quadratic
/// Baraff's (1995) interpolant, his equation 5: with k̄ = (x1 − x0)/h the step's
/// mean slope, x(s) = x0 + s h ((1 − s) f0 + s k̄). A quadratic in s that starts at
/// x0 with slope f0 and ends at x1; it ignores the slope at the end, so it is off by
/// O(h³).
pub fn quadratic(x0: &[f64], f0: &[f64], x1: &[f64], h: f64, s: f64) -> Vec<f64> {
    // s h (1 − s) f0 + s h s k̄, and h k̄ = x1 − x0.
    (0..x0.len())
        .map(|i| x0[i] + s * (1.0 - s) * h * f0[i] + s * s * (x1[i] - x0[i]))
        .collect()
}
// ANCHOR_END: quadratic

/// The run the page follows (the figure's, and the exercise `collision/toi`'s
/// defaults): RK4 steps of `h` (s), the tolerance `epsilon` (m), the box's `spin`
/// (rad/s) and drag rate `drag` (1/s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TossSetup {
    /// The RK4 step (s).
    pub h: f64,
    /// The contact tolerance ε (m).
    pub epsilon: f64,
    /// The initial spin (rad/s).
    pub spin: f64,
    /// The drag rate c (1/s).
    pub drag: f64,
}

/// The book's toss.
pub const BOOK_TOSS: TossSetup =
    TossSetup { h: 0.05, epsilon: 1e-4, spin: 3.0, drag: 0.5 };

/// The collision-time experiment: a box (half sizes 0.5 × 0.25 m) thrown sideways
/// and spinning, falling under gravity with linear air drag onto a floor whose top is
/// y = 0. State: x, y, θ, vₓ, v_y, ω.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FallingBox {
    /// Drag rate c (1/s): v̇ = g − c v, ω̇ = −c ω.
    pub drag: f64,
    /// The initial state.
    pub start: [f64; 6],
}

impl FallingBox {
    /// The book's case: dropped from 2 m, thrown at 1 m/s sideways, spinning at
    /// `spin` rad/s, with drag rate `drag`.
    pub fn new(spin: f64, drag: f64) -> Result<Self, PbmError> {
        pbm_prelim::validate::non_negative("drag rate", "drag", drag)?;
        if !spin.is_finite() {
            return Err(PbmError::invalid("spin", format!("{spin} is not finite")));
        }
        Ok(FallingBox { drag, start: [0.0, 2.0, 0.0, 1.0, 0.0, spin] })
    }

    /// The box and the floor for a state.
    pub fn shapes(x: &[f64]) -> Result<(ConvexPolygon, ConvexPolygon), PbmError> {
        let floor = ConvexPolygon::rectangle(
            Vector2::new(0.0, -1.0),
            Vector2::new(50.0, 1.0),
        )?;
        let block =
            ConvexPolygon::rectangle(Vector2::zeros(), Vector2::new(0.5, 0.25))?;
        Ok((floor, block.placed(Vector2::new(x[0], x[1]), x[2])))
    }

    /// ẋ for state x.
    pub fn derivative(&self, x: &[f64], xdot: &mut [f64]) {
        let c = self.drag;
        xdot[..3].copy_from_slice(&x[3..]);
        xdot[3] = -c * x[3];
        xdot[4] = -G - c * x[4];
        xdot[5] = -c * x[5];
    }

    /// The exact state at time t. The equations are linear, so it is exponentials:
    /// with u = c t, each velocity fades by e^{−u}, the distance a velocity carries
    /// is t φ(u), and gravity's pull on y falls short of ½ g t² by the factor
    /// 2 ψ(u) (see [`faded`] and [`dragged`]). Written the usual way, around the
    /// terminal velocity −g/c, a slight drag cancels two huge terms; written this
    /// way, every drag from zero up is accurate.
    pub fn exact(&self, t: f64) -> [f64; 6] {
        let u = self.drag * t;
        let (fade, reach) = ((-u).exp(), t * faded(u));
        let s = &self.start;
        let vy = s[4] * fade - G * reach;
        let y = s[1] + s[4] * reach - G * t * t * dragged(u);
        [s[0] + s[3] * reach, y, s[2] + s[5] * reach, s[3] * fade, vy, s[5] * fade]
    }
}

/// φ(u) = (1 − e^{−u}) / u, how far a velocity fading at rate c carries in time t,
/// over t (u = c t): 1 at u = 0. By `exp_m1`, which keeps e^{−u} − 1 accurate for
/// small u, and by its series below 1e-4.
pub fn faded(u: f64) -> f64 {
    if u < 1e-4 {
        1.0 - u / 2.0 + u * u / 6.0 - u * u * u / 24.0
    } else {
        -(-u).exp_m1() / u
    }
}

/// ψ(u) = (u − 1 + e^{−u}) / u², gravity's fall under drag over g t² (u = c t):
/// ½ at u = 0. Its terms cancel for small u, so there by its series
/// Σ (−u)ᵏ / (k + 2)!.
pub fn dragged(u: f64) -> f64 {
    if u < 0.1 {
        let (mut term, mut sum) = (0.5, 0.0);
        for k in 0..14 {
            sum += term;
            term *= -u / (k as f64 + 3.0);
        }
        sum
    } else {
        (u + (-u).exp_m1()) / (u * u)
    }
}

/// How a method found the impact, and at what cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Impact {
    /// The time found (s).
    pub t: f64,
    /// Derivative evaluations spent finding it, beyond the step that overshot.
    pub derivative_evaluations: usize,
    /// Placements of the shapes tested.
    pub tests: usize,
    /// The separation of the true motion at the time found (m).
    pub true_separation: f64,
}

/// The exact collision time of the falling box: bisection on the exact motion to
/// rounding, between the last time the true motion is clear and `t_hi`.
pub fn exact_impact(body: &FallingBox, t_hi: f64) -> Result<f64, PbmError> {
    let gap = |t: f64| -> Result<f64, PbmError> {
        let (a, b) = FallingBox::shapes(&body.exact(t))?;
        Ok(separation(&a, &b).0)
    };
    // The first sampled time at which the true motion is in contact brackets the
    // first touch (the box cannot pass through the floor between samples this fine).
    let samples = 4096;
    let mut lo = 0.0;
    let mut hi = t_hi;
    for k in 1..=samples {
        let t = t_hi * k as f64 / samples as f64;
        if gap(t)? <= 0.0 {
            hi = t;
            break;
        }
        lo = t;
    }
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if gap(mid)? > 0.0 { lo = mid } else { hi = mid }
    }
    Ok(0.5 * (lo + hi))
}

/// How the collision time is searched for within the overshooting step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refinement {
    /// Re-take the step from its start with trial lengths (the notes): every trial
    /// costs an RK4 step, four derivative evaluations.
    Retake(Search),
    /// Search on Baraff's quadratic through the step's ends: no evaluations.
    Quadratic(Search),
    /// Search on the cubic Hermite curve through the step's ends and slopes: one
    /// evaluation, of the slope at the end.
    Cubic(Search),
}

/// The step in which the falling box first ends within ε of the floor or deeper:
/// its start time, length, and the states and derivatives at its two ends.
#[derive(Debug, Clone, PartialEq)]
pub struct LastStep {
    /// The step's start time (s).
    pub t0: f64,
    /// Its length (s).
    pub h: f64,
    /// The state at t0, and its derivative (the step's first stage).
    pub x0: Vec<f64>,
    /// The derivative at t0.
    pub f0: Vec<f64>,
    /// The state at t0 + h.
    pub x1: Vec<f64>,
    /// The derivative at t0 + h (the next step's first stage).
    pub f1: Vec<f64>,
    /// The box's separation from the floor at t0 + h (negative: a depth).
    pub depth: f64,
}

impl LastStep {
    /// The state at time t in the step, on the cubic Hermite curve (`cubic`) or on
    /// Baraff's quadratic.
    pub fn on_curve(&self, cubic: bool, t: f64) -> Vec<f64> {
        let s = (t - self.t0) / self.h;
        if cubic {
            hermite(&self.x0, &self.f0, &self.x1, &self.f1, self.h, s)
        } else {
            quadratic(&self.x0, &self.f0, &self.x1, self.h, s)
        }
    }
}

/// Integrates the falling box with RK4 at step h until a step ends with the box
/// within ε of the floor or deeper, and returns that step.
pub fn last_step(
    body: &FallingBox,
    h: f64,
    epsilon: f64,
) -> Result<LastStep, PbmError> {
    let f = move |_: f64, x: &[f64], d: &mut [f64]| body.derivative(x, d);
    let mut system = VectorField::new(&body.start, 0.0, f)?;
    let mut rk = RungeKutta::new(RK4);
    let max_steps = (10.0 / h).ceil() as usize;
    for _ in 0..max_steps {
        let (t0, x0) = (system.time(), state_of(&system));
        rk.step(&mut system, h)?;
        let x1 = state_of(&system);
        let (a, b) = FallingBox::shapes(&x1)?;
        let depth = separation(&a, &b).0;
        if depth <= epsilon {
            let (mut f0, mut f1) = (vec![0.0; 6], vec![0.0; 6]);
            body.derivative(&x0, &mut f0);
            body.derivative(&x1, &mut f1);
            return Ok(LastStep { t0, h, x0, f0, x1, f1, depth });
        }
    }
    Err(PbmError::degenerate(
        "falling box",
        format!("no impact within {max_steps} steps"),
    ))
}

// ANCHOR: find_impact
/// Integrates the falling box with RK4 at step h until a step ends with the box
/// within ε of the floor or deeper; if deeper than ε, finds the collision time inside
/// that step.
pub fn find_impact(
    body: &FallingBox,
    h: f64,
    epsilon: f64,
    refinement: Refinement,
) -> Result<Impact, PbmError> {
    let step = last_step(body, h, epsilon)?;
    let (found, evaluations) = if step.depth >= -epsilon {
        // The step happened to end within ε of touching: that is the time.
        let t = step.t0 + h;
        (CollisionTime { t, separation: step.depth, evaluations: 1 }, 0)
    } else {
        let bracket = (step.t0, step.t0 + h);
        match refinement {
            Refinement::Retake(search) => retake(body, &step, epsilon, search)?,
            Refinement::Quadratic(search) | Refinement::Cubic(search) => {
                // f0 is the step's first stage, reused; the cubic's f1 is one more
                // evaluation, at the state the step overshot to.
                let cubic = matches!(refinement, Refinement::Cubic(_));
                let at = |t| FallingBox::shapes(&step.on_curve(cubic, t));
                (collision_time(at, bracket, epsilon, search)?, usize::from(cubic))
            }
        }
    };
    let (a, b) = FallingBox::shapes(&body.exact(found.t))?;
    Ok(Impact {
        t: found.t,
        derivative_evaluations: evaluations,
        tests: found.evaluations,
        true_separation: separation(&a, &b).0,
    })
}
// ANCHOR_END: find_impact

// ANCHOR: retake
/// The collision time in `step` by re-taking it from its start, shorter and
/// shorter, and the derivative evaluations that cost.
fn retake(
    body: &FallingBox,
    step: &LastStep,
    epsilon: f64,
    search: Search,
) -> Result<(CollisionTime, usize), PbmError> {
    let (t0, x0) = (step.t0, &step.x0);
    let f = move |_: f64, x: &[f64], d: &mut [f64]| body.derivative(x, d);
    let mut trial = VectorField::new(x0, t0, f)?;
    let mut rk = RungeKutta::new(RK4);
    let at = |t: f64| {
        trial.scatter_state(x0, t0);
        if t > t0 {
            rk.step(&mut trial, t - t0)?;
        }
        FallingBox::shapes(&state_of(&trial))
    };
    let found = collision_time(at, (t0, t0 + step.h), epsilon, search)?;
    // The two ends are already known: the search's first two placements cost nothing.
    Ok((found, rk.evaluations().saturating_sub(4)))
}
// ANCHOR_END: retake

#[cfg(test)]
mod tests {
    use super::*;

    /// The drag-free motion in closed form: x = x₀ + v₀ t, y = y₀ + v_y t − ½ g t².
    fn free(t: f64) -> [f64; 6] {
        let s = FallingBox::new(0.0, 0.0).unwrap().start;
        let y = s[1] + s[4] * t - 0.5 * G * t * t;
        [s[0] + s[3] * t, y, s[2] + s[5] * t, s[3], s[4] - G * t, s[5]]
    }

    #[test]
    fn the_exact_motion_tends_to_the_drag_free_one_as_the_drag_vanishes() {
        // The terminal velocity −g/c is huge for a tiny c: written as
        // −g/c + (v₀ + g/c) e^{−ct}, the motion cancels it away and is lost (at
        // c = 1e-300 the box was found at the floor after 1e-27 s). Every drag from
        // zero, through the subnormals, to 1e-12 must give the drag-free motion to
        // within the drag's own effect, about c t times the motion.
        for c in [0.0, 5e-324, 1e-310, 1e-300, 1e-100, 1e-50, 1e-16, 1e-12] {
            let body = FallingBox { drag: c, ..FallingBox::new(0.0, c).unwrap() };
            for t in [0.0, 0.1, 0.5497, 1.0, 3.0] {
                let (got, want) = (body.exact(t), free(t));
                for k in 0..6 {
                    let tolerance =
                        1e-14 * (1.0 + want[k].abs()) + 10.0 * c * t * 20.0;
                    assert!(
                        (got[k] - want[k]).abs() <= tolerance,
                        "c = {c:e}, t = {t}: component {k} is {} not {}",
                        got[k],
                        want[k]
                    );
                }
            }
        }
    }

    fn rect(cx: f64, cy: f64) -> ConvexPolygon {
        ConvexPolygon::rectangle(Vector2::new(cx, cy), Vector2::new(0.5, 0.5))
            .unwrap()
    }

    #[test]
    fn a_box_falling_at_constant_speed_meets_the_floor_at_gap_over_speed() {
        // Floor top at y = 0; the box's bottom starts 0.3 above it, falling at 2 /s.
        let floor =
            ConvexPolygon::rectangle(Vector2::new(0.0, -1.0), Vector2::new(5.0, 1.0))
                .unwrap();
        let at = |t: f64| Ok((floor.clone(), rect(0.1, 0.8 - 2.0 * t)));
        let found = collision_time(at, (0.0, 0.5), 1e-6, Search::Secant).unwrap();
        assert!((found.t - 0.15).abs() <= 1e-6 / 2.0, "{found:?}");
        // A straight constant-speed approach: the first secant is exact.
        assert_eq!(found.evaluations, 3);
    }

    #[test]
    fn a_spinning_box_is_found_within_epsilon() {
        let floor =
            ConvexPolygon::rectangle(Vector2::new(0.0, -1.0), Vector2::new(5.0, 1.0))
                .unwrap();
        let square = rect(0.0, 0.0);
        let at = |t: f64| {
            (floor.clone(), square.placed(Vector2::new(0.0, 1.0 - t), 3.0 * t))
        };
        let found =
            collision_time(|t| Ok(at(t)), (0.0, 1.0), 1e-4, Search::Secant).unwrap();
        assert!(found.separation.abs() <= 1e-4, "{found:?}");
        // Before the time found, the box was clear of the floor all along.
        for k in 0..100 {
            let t = found.t * k as f64 / 100.0;
            let (a, b) = at(t);
            assert!(separation(&a, &b).0 > -1e-4, "t = {t}");
        }
    }

    #[test]
    fn a_search_without_a_bracket_says_so() {
        let at = |t: f64| Ok((rect(0.0, 0.0), rect(3.0 - t, 0.0)));
        let e = collision_time(at, (0.0, 0.5), 1e-6, Search::Bisection).unwrap_err();
        assert!(e.to_string().contains("needs a gap"), "{e}");
    }

    #[test]
    fn the_exact_motion_solves_the_equations() {
        // Central differences of the exact motion give its derivative, for drags
        // from slight (where −g/c is huge) to strong.
        for drag in [1e-6, 0.01, 0.4, 3.0, 40.0] {
            let body = FallingBox::new(3.0, drag).unwrap();
            let (t, dt) = (0.37, 1e-6);
            let (xm, x, xp) = (body.exact(t - dt), body.exact(t), body.exact(t + dt));
            let mut f = [0.0; 6];
            body.derivative(&x, &mut f);
            for i in 0..6 {
                let numeric = (xp[i] - xm[i]) / (2.0 * dt);
                assert!(
                    (numeric - f[i]).abs() < 1e-7 * (1.0 + f[i].abs()),
                    "drag {drag}, component {i}: {numeric} {}",
                    f[i]
                );
            }
            assert_eq!(body.exact(0.0), body.start);
        }
    }

    #[test]
    fn both_refinements_land_within_epsilon_of_the_true_contact() {
        let eps = 1e-4;
        for (spin, drag) in [(0.0, 0.0), (3.0, 0.0), (3.0, 0.5), (-7.0, 1.0)] {
            let body = FallingBox::new(spin, drag).unwrap();
            let exact = exact_impact(&body, 2.0).unwrap();
            for refinement in [
                Refinement::Retake(Search::Bisection),
                Refinement::Retake(Search::Secant),
                Refinement::Quadratic(Search::Secant),
                Refinement::Cubic(Search::Secant),
            ] {
                let found = find_impact(&body, 0.05, eps, refinement).unwrap();
                // The true motion is within a few ε of touching at the time found.
                assert!(
                    found.true_separation.abs() < 5.0 * eps,
                    "{spin} {drag} {refinement:?} {found:?}"
                );
                assert!((found.t - exact).abs() < 1e-3, "{found:?} vs {exact}");
                match refinement {
                    Refinement::Retake(_) => {
                        assert_eq!(
                            found.derivative_evaluations,
                            4 * (found.tests - 2)
                        );
                    }
                    // The quadratic reuses the step's first stage; the cubic's end
                    // slope is one evaluation at the overshooting state.
                    Refinement::Quadratic(_) => {
                        assert_eq!(found.derivative_evaluations, 0)
                    }
                    Refinement::Cubic(_) => {
                        assert_eq!(found.derivative_evaluations, 1)
                    }
                }
            }
        }
    }

    #[test]
    fn with_drag_the_cubic_is_closer_than_the_quadratic() {
        let body = FallingBox::new(5.0, 2.0).unwrap();
        let (h, x0, x1) = (0.1, body.exact(0.2), body.exact(0.3));
        let (mut f0, mut f1) = ([0.0; 6], [0.0; 6]);
        body.derivative(&x0, &mut f0);
        body.derivative(&x1, &mut f1);
        let truth = body.exact(0.25);
        let err =
            |x: Vec<f64>| (0..3).map(|i| (x[i] - truth[i]).abs()).fold(0.0, f64::max);
        let (cubic, quad) = (
            err(hermite(&x0, &f0, &x1, &f1, h, 0.5)),
            err(quadratic(&x0, &f0, &x1, h, 0.5)),
        );
        assert!(cubic < quad / 10.0, "cubic {cubic:e}, quadratic {quad:e}");
    }

    #[test]
    fn baraffs_newton_estimate_is_the_secant_step() {
        // Errata: Baraff (1995) calls t_c = t0 + Δt d0 / (d0 − d1) "Newton's method";
        // it uses no derivative: it is the secant (false position) step, which is
        // what the search takes first.
        let floor = ConvexPolygon::rectangle(
            nalgebra::Vector2::new(0.0, -1.0),
            nalgebra::Vector2::new(5.0, 1.0),
        )
        .unwrap();
        // Depth is quadratic in t here, so the first estimate is not yet exact.
        let at = |t: f64| Ok((floor.clone(), rect(0.0, 0.9 - 3.0 * t * t)));
        let (d0, d1) = (0.4, 0.9 - 3.0 * 0.25 - 0.5);
        let predicted = 0.5 * d0 / (d0 - d1);
        let found = collision_time(at, (0.0, 0.5), 1e-3, Search::Secant).unwrap();
        assert!(found.evaluations > 3);
        let first = collision_time(at, (0.0, 0.5), 0.3, Search::Secant).unwrap();
        assert_eq!(first.evaluations, 3);
        assert!((first.t - predicted).abs() < 1e-15, "{} {predicted}", first.t);
    }

    #[test]
    fn both_curves_are_exact_for_a_drag_free_fall() {
        let body = FallingBox::new(2.0, 0.0).unwrap();
        let (h, x0, x1) = (0.3, body.exact(0.1), body.exact(0.4));
        let (mut f0, mut f1) = ([0.0; 6], [0.0; 6]);
        body.derivative(&x0, &mut f0);
        body.derivative(&x1, &mut f1);
        let truth = body.exact(0.25);
        for mid in
            [hermite(&x0, &f0, &x1, &f1, h, 0.5), quadratic(&x0, &f0, &x1, h, 0.5)]
        {
            for i in 0..6 {
                assert!(
                    (mid[i] - truth[i]).abs() < 1e-13,
                    "{i}: {} {}",
                    mid[i],
                    truth[i]
                );
            }
        }
    }
}
