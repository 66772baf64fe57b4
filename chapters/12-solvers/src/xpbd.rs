//! XPBD for rigid bodies (Müller et al. 2020), on the bench's contacts: chapter 10's
//! position-based step, with bodies that turn. Each substep moves the bodies
//! freely, then pushes each overlapping point apart by a change of pose (not of
//! velocity), reads the velocities off the poses, and ends with one velocity pass
//! for sliding friction and restitution.
//!
//! A positional impulse Δλ along a unit direction u at arms r_a, r_b moves the
//! bodies by Δx = ±Δλ u / m and turns them by Δθ = ±(r × Δλ u) / I; the change of
//! the gap is Δλ (w_a + w_b) with the generalized inverse masses
//! w = 1/m + (r × u)²/I. A rigid contact (compliance zero) with gap C < 0 takes
//! Δλ = −C / (w_a + w_b), chapter 10's update with α̃ = 0.

use crate::body::{Body, V2, cross, rotation};
use crate::contact::{Constraint, Point};
use crate::joint::PinRow;
use crate::solvers::{Rows, integrate_positions, integrate_velocities};
use crate::world::{MAX_BIAS_VELOCITY, RESTITUTION_THRESHOLD, Settings};

/// A body's pose: where it is and how far it has turned.
type Pose = (V2, f64);

/// The pair a point joins: body A, body B.
type Pair = (usize, usize);

/// w_a + w_b, with w = 1/m + (r × u)²/I: how far a unit positional impulse along
/// `u` at the arms moves B's point from A's.
fn reach(bodies: &[Body], (a, b): Pair, (ra, rb): (V2, V2), u: &V2) -> f64 {
    let w =
        |body: &Body, r: &V2| body.inv_mass + body.inv_inertia * cross(r, u).powi(2);
    w(&bodies[a], &ra) + w(&bodies[b], &rb)
}

/// Moves and turns the pair by the positional impulse `p` (N s · s): on B at its arm,
/// and the opposite on A at its arm.
fn shift(bodies: &mut [Body], (a, b): Pair, (ra, rb): (V2, V2), p: V2) {
    for (i, r, p) in [(a, ra, -p), (b, rb, p)] {
        let body = &mut bodies[i];
        body.position += p * body.inv_mass;
        body.angle += cross(&r, &p) * body.inv_inertia;
    }
}

/// Point `p`'s arms with the pair at `poses`, and where B's material point is from
/// A's.
fn arms(p: &Point, poses: [Pose; 2]) -> ((V2, V2), V2) {
    let [(xa, ta), (xb, tb)] = poses;
    let (ra, rb) = (rotation(ta) * p.local[0], rotation(tb) * p.local[1]);
    ((ra, rb), xb + rb - xa - ra)
}

/// Applies the impulse `p` (N s) to the pair: on B at its arm, the opposite on A.
fn push(bodies: &mut [Body], (a, b): Pair, (ra, rb): (V2, V2), p: V2) {
    bodies[a].apply_impulse(&ra, &-p);
    bodies[b].apply_impulse(&rb, &p);
}

/// The pair's poses.
fn poses(bodies: &[Body], (a, b): Pair) -> [Pose; 2] {
    [a, b].map(|i| (bodies[i].position, bodies[i].angle))
}

/// One position pass over the pins: each pin's gap closed by a positional impulse
/// along it, Δλ = −|C| / (w_a + w_b). The pins' impulses hold the λ (N s²) until the
/// substep ends.
fn project_pins(bodies: &mut [Body], pins: &mut [PinRow]) {
    for pin in pins.iter_mut() {
        let pair = (pin.a, pin.b);
        let c = crate::joint::error(bodies, pin.a, pin.b, &pin.local);
        let length = c.norm();
        if length < 1e-12 {
            continue;
        }
        let u = c / length;
        let [(_, ta), (_, tb)] = poses(bodies, pair);
        let r = (rotation(ta) * pin.local[0], rotation(tb) * pin.local[1]);
        let dl = -length / reach(bodies, pair, r, &u);
        pin.impulse += u * dl;
        shift(bodies, pair, r, u * dl);
    }
}

// ANCHOR: contact
/// One position pass over the points: each overlap closed by a positional impulse
/// along the normal; then, with the bodies where that left them, the points' slide
/// since the substep began undone by a tangential one if it stays within μ times
/// the normal one (static friction). `before` holds the poses at the start of the
/// substep; no overlap is closed by more than `most` (m) in one pass, as a
/// push-out speed is capped in the velocity solvers.
fn project(bodies: &mut [Body], cs: &mut [Constraint], before: &[Pose], most: f64) {
    for c in cs.iter_mut() {
        let (n, t, pair) = (c.normal, c.tangent(), (c.a, c.b));
        for p in c.points.iter_mut() {
            let (r, apart) = arms(p, poses(bodies, pair));
            let gap = apart.dot(&n) + p.base;
            if gap >= 0.0 {
                continue;
            }
            let dn = -gap.max(-most) / reach(bodies, pair, r, &n);
            p.normal_impulse += dn;
            shift(bodies, pair, r, n * dn);
            let (r, apart) = arms(p, poses(bodies, pair));
            let slid = apart - arms(p, [before[c.a], before[c.b]]).1;
            let dt = -slid.dot(&t) / reach(bodies, pair, r, &t);
            if (p.tangent_impulse + dt).abs() <= c.friction * p.normal_impulse {
                p.tangent_impulse += dt;
                shift(bodies, pair, r, t * dt);
            }
        }
    }
}
// ANCHOR_END: contact

/// The velocity pass of a substep `h`: at each point that pushed, sliding friction
/// stops the sliding with an impulse of at most μ λ_n / h (λ_n / h is the normal
/// impulse the substep's push-out applied), and
/// the normal speed the push-out left is taken back, keeping only a bounce of `e`
/// times the approach if it came faster than the restitution threshold.
fn velocities(bodies: &mut [Body], cs: &mut [Constraint], (h, e): (f64, f64)) {
    for c in cs.iter_mut() {
        let (n, t, pair) = (c.normal, c.tangent(), (c.a, c.b));
        for p in c.points.iter_mut().filter(|p| p.normal_impulse > 0.0) {
            let (r, _) = arms(p, poses(bodies, pair));
            let relative = |bodies: &[Body]| {
                bodies[c.b].velocity_at(&r.1) - bodies[c.a].velocity_at(&r.0)
            };
            let bounce = if p.approach < -RESTITUTION_THRESHOLD { e } else { 0.0 };
            let target = (-bounce * p.approach).max(0.0);
            let pushed =
                (target - relative(bodies).dot(&n)) / reach(bodies, pair, r, &n);
            push(bodies, pair, r, n * pushed);
            let most = c.friction * p.normal_impulse / h;
            let stop = -relative(bodies).dot(&t) / reach(bodies, pair, r, &t);
            let slide = stop.clamp(-most, most);
            push(bodies, pair, r, t * slide);
            // Counted with the push-out, in its units (an impulse times h).
            p.normal_impulse += h * pushed;
            p.tangent_impulse += h * slide;
        }
    }
}

// ANCHOR: step
/// XPBD: `iterations` substeps of h/n, each a free move, one position pass over the
/// pins and the contacts, velocities read off the poses, and one velocity pass. No
/// warm start: each substep's positional impulses start from zero. The points'
/// impulses hold, at the end, the mean impulse (N s) of a substep, push-out and
/// velocity pass together: each substep's λ over its h, averaged; the pins' the same.
pub fn xpbd(bodies: &mut [Body], (cs, pins): Rows, s: &Settings) {
    let substeps = s.iterations.max(1);
    let h = s.h / substeps as f64;
    let mut tally = Tally::new(cs, pins);
    for _ in 0..substeps {
        let before: Vec<Pose> =
            bodies.iter().map(|b| (b.position, b.angle)).collect();
        integrate_velocities(bodies, s, h);
        integrate_positions(bodies, h);
        Tally::clear(cs, pins);
        project_pins(bodies, pins);
        project(bodies, cs, &before, MAX_BIAS_VELOCITY * h);
        velocities_from_poses(bodies, &before, h);
        velocities(bodies, cs, (h, s.restitution));
        tally.add(cs, pins, h);
    }
    tally.finish(cs, pins, substeps);
}
// ANCHOR_END: step

/// Each moving body's velocity set to its change of pose since `before`, over `h`.
fn velocities_from_poses(bodies: &mut [Body], before: &[Pose], h: f64) {
    for (b, (x, angle)) in bodies.iter_mut().zip(before) {
        if !b.is_fixed() {
            b.velocity = (b.position - x) / h;
            b.angular_velocity = (b.angle - angle) / h;
        }
    }
}

/// The substeps' impulses summed, each λ over its h: what the rows hold once the step
/// is done (their mean), for the world's readers and the next step's warm start.
struct Tally {
    points: Vec<(f64, f64)>,
    pins: Vec<V2>,
}

impl Tally {
    fn new(cs: &[Constraint], pins: &[PinRow]) -> Tally {
        let points = cs.iter().map(|c| c.points.len()).sum();
        Tally {
            points: vec![(0.0, 0.0); points],
            pins: vec![V2::zeros(); pins.len()],
        }
    }

    /// Every row's impulse back to zero, for a new substep.
    fn clear(cs: &mut [Constraint], pins: &mut [PinRow]) {
        for p in cs.iter_mut().flat_map(|c| c.points.iter_mut()) {
            (p.normal_impulse, p.tangent_impulse) = (0.0, 0.0);
        }
        pins.iter_mut().for_each(|p| p.impulse = V2::zeros());
    }

    /// Adds a substep's impulses, positional, over its `h`.
    fn add(&mut self, cs: &[Constraint], pins: &[PinRow], h: f64) {
        for (total, p) in
            self.points.iter_mut().zip(cs.iter().flat_map(|c| &c.points))
        {
            total.0 += p.normal_impulse / h;
            total.1 += p.tangent_impulse / h;
        }
        for (total, pin) in self.pins.iter_mut().zip(pins) {
            *total += pin.impulse / h;
        }
    }

    /// Leaves each row holding its mean impulse over the `substeps`.
    fn finish(self, cs: &mut [Constraint], pins: &mut [PinRow], substeps: usize) {
        let n = substeps as f64;
        let points = cs.iter_mut().flat_map(|c| c.points.iter_mut());
        for (total, p) in self.points.iter().zip(points) {
            (p.normal_impulse, p.tangent_impulse) = (total.0 / n, total.1 / n);
        }
        for (total, pin) in self.pins.iter().zip(pins.iter_mut()) {
            pin.impulse = total / n;
        }
    }
}
