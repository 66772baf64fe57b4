//! The scenes of `pbd/rigid-contact`: a box resting on the ground, a box on an
//! incline, a box dropped flat, and a stack, each with the closed form it is held
//! to.

use crate::rigid::Body;
use crate::rigid_contact::{BoxWorld, Material, Plane};
use crate::scenes::FRAME;
use nalgebra::Vector3;
use pbm_particles::forces::G;
use pbm_prelim::PbmError;
use pbm_rigid::mass::MassProperties;
use pbm_rigid::rotation::{Quat, quat_from_axis_angle};

type V3 = Vector3<f64>;

/// The book's box: 0.4 m × 0.2 m × 0.4 m, 1 kg (wider than tall, so that it slides
/// before it tips on any incline the exercise admits).
pub const BOX_HALF: V3 = Vector3::new(0.2, 0.1, 0.2);
/// Its mass (kg).
pub const BOX_MASS: f64 = 1.0;

const UPRIGHT: Quat = Quat::new(1.0, 0.0, 0.0, 0.0);

/// A box with half-sides `half` and mass `mass`, its centre at `x`, turned by `q`.
pub fn boxed(half: &V3, mass: f64, x: V3, q: Quat) -> Result<Body, PbmError> {
    Body::new(&MassProperties::block(half * 2.0, mass)?, x, q)
}

/// Down, along −y.
pub fn gravity() -> V3 {
    Vector3::new(0.0, -G, 0.0)
}

/// The ground y = 0.
pub fn ground() -> Plane {
    Plane { normal: Vector3::y(), offset: 0.0 }
}

/// How a run steps: substeps per 60 Hz frame, and passes over the contacts per
/// substep (each position pass and each velocity pass; Müller et al. run one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Solve {
    /// Substeps per 60 Hz frame.
    pub substeps: usize,
    /// Position and velocity passes per substep.
    pub passes: usize,
}

/// The book's box, upright, its centre `height` above the ground, over the ground.
fn box_on_ground(height: f64, material: Material) -> Result<BoxWorld, PbmError> {
    let body = boxed(&BOX_HALF, BOX_MASS, Vector3::new(0.0, height, 0.0), UPRIGHT)?;
    BoxWorld::new(vec![body], vec![BOX_HALF], vec![ground()], material, gravity())
}

/// Steps `world` for `t_end` as `solve` says, calling `watch` after every substep.
pub fn run(
    world: &mut BoxWorld,
    solve: Solve,
    t_end: f64,
    mut watch: impl FnMut(&BoxWorld),
) -> Result<(), PbmError> {
    let h = FRAME / solve.substeps as f64;
    world.position_passes = solve.passes;
    world.velocity_passes = solve.passes;
    for _ in 0..(t_end / FRAME).round() as usize * solve.substeps {
        world.substep(h)?;
        watch(world);
    }
    Ok(())
}

/// What the resting box measures: its deepest contact over the last half of the
/// run, against the compliant closed form.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resting {
    /// The deepest contact over the run's second half (m).
    pub depth: f64,
    /// α m g / 4: each of four corners carries a quarter of the weight (m).
    pub compliant_depth: f64,
}

/// A box set on the ground with contact compliance α, for `t_end`.
pub fn resting_box(
    material: Material,
    solve: Solve,
    t_end: f64,
) -> Result<Resting, PbmError> {
    let mut world = box_on_ground(BOX_HALF.y, material)?;
    let mut depth = 0.0_f64;
    run(&mut world, solve, t_end, |w| {
        if w.t > t_end / 2.0 {
            depth = depth.max(w.deepest());
        }
    })?;
    Ok(Resting { depth, compliant_depth: material.compliance * BOX_MASS * G / 4.0 })
}

/// What the incline measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Incline {
    /// How far the box moved down the slope (m).
    pub slide: f64,
    /// ½ g (sin θ − μ_d cos θ) t² if tan θ > μ_s, else 0 (m).
    pub closed_form: f64,
    /// The deepest contact at the end of any substep (m).
    pub depth: f64,
}

// ANCHOR: incline
/// A box set at rest on a plane tilted by θ about z, for `t_end`: how far it
/// slides down the slope, against a block on a slope with Coulomb friction.
pub fn incline(
    theta: f64,
    material: Material,
    solve: Solve,
    t_end: f64,
) -> Result<Incline, PbmError> {
    let normal = Vector3::new(-theta.sin(), theta.cos(), 0.0);
    let downhill = -Vector3::new(theta.cos(), theta.sin(), 0.0);
    let q = quat_from_axis_angle(&Vector3::z(), theta);
    let start = normal * BOX_HALF.y;
    let body = boxed(&BOX_HALF, BOX_MASS, start, q)?;
    let plane = Plane::through(&V3::zeros(), &normal)?;
    let mut world =
        BoxWorld::new(vec![body], vec![BOX_HALF], vec![plane], material, gravity())?;
    let mut depth = 0.0_f64;
    run(&mut world, solve, t_end, |w| depth = depth.max(w.deepest()))?;
    let slide = (world.bodies[0].x - start).dot(&downhill);
    let pull = theta.sin() - material.dynamic_friction * theta.cos();
    let slides = theta.tan() > material.static_friction && pull > 0.0;
    let closed_form = if slides { 0.5 * G * pull * t_end * t_end } else { 0.0 };
    Ok(Incline { slide, closed_form, depth })
}
// ANCHOR_END: incline

/// A box dropped flat from `height` (its bottom face's height, m): the highest its
/// bottom rises after the first bounce (m).
pub fn drop(
    height: f64,
    material: Material,
    solve: Solve,
    t_end: f64,
) -> Result<f64, PbmError> {
    let mut world = box_on_ground(height + BOX_HALF.y, material)?;
    let (mut bounced, mut rebound) = (false, 0.0_f64);
    run(&mut world, solve, t_end, |w| {
        let body = &w.bodies[0];
        bounced |= body.v.y > 0.0;
        if bounced {
            rebound = rebound.max(body.x.y - BOX_HALF.y);
        }
    })?;
    Ok(rebound)
}

/// What the stack measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stack {
    /// The farthest any box's centre moved from where it was set (m).
    pub drift: f64,
    /// The deepest contact at the end of any substep (m).
    pub depth: f64,
    /// How far the top box's centre ended below where it was set (m).
    pub top_sink: f64,
}

/// `count` equal boxes stacked on the ground, each set 1 cm aside from the one
/// below, alternately left and right (the offsets make the faces' clipping do real
/// work), run for `t_end`.
pub fn stack(
    count: usize,
    material: Material,
    solve: Solve,
    t_end: f64,
) -> Result<Stack, PbmError> {
    let start: Vec<V3> = (0..count)
        .map(|k| {
            let aside = if k % 2 == 0 { 0.0 } else { 0.01 };
            Vector3::new(aside, BOX_HALF.y * (2 * k + 1) as f64, 0.0)
        })
        .collect();
    let bodies = start.iter().map(|x| boxed(&BOX_HALF, BOX_MASS, *x, UPRIGHT));
    let bodies = bodies.collect::<Result<Vec<_>, _>>()?;
    let half = vec![BOX_HALF; count];
    let mut world = BoxWorld::new(bodies, half, vec![ground()], material, gravity())?;
    let (mut drift, mut depth) = (0.0_f64, 0.0_f64);
    run(&mut world, solve, t_end, |w| {
        depth = depth.max(w.deepest());
        for (body, x0) in w.bodies.iter().zip(&start) {
            drift = drift.max((body.x - x0).norm());
        }
    })?;
    let top_sink = start[count - 1].y - world.bodies[count - 1].x.y;
    Ok(Stack { drift, depth, top_sink })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rigid_contact::StaticRule;

    const SOLVE: Solve = Solve { substeps: 20, passes: 2 };

    fn material(mu: f64, e: f64, alpha: f64) -> Material {
        let rule = StaticRule::Clamped;
        Material {
            static_friction: mu,
            dynamic_friction: mu,
            restitution: e,
            compliance: alpha,
            rule,
        }
    }

    #[test]
    fn a_resting_box_sinks_by_its_compliance_times_a_quarter_of_its_weight() {
        for alpha in [0.0, 1e-6, 1e-5] {
            let r = resting_box(material(0.5, 0.0, alpha), SOLVE, 2.0).unwrap();
            let rigid_part = G * (FRAME / 20.0).powi(2);
            assert!(r.depth >= r.compliant_depth * 0.9, "{alpha}: {r:?}");
            assert!(
                r.depth <= r.compliant_depth * 1.1 + rigid_part,
                "{alpha}: {r:?}"
            );
        }
    }

    #[test]
    fn a_box_slides_down_a_steep_incline_at_the_closed_form() {
        for (mu, degrees) in [(0.5, 30.0), (0.5, 40.0), (0.2, 20.0), (0.0, 10.0)] {
            let theta: f64 = f64::to_radians(degrees);
            let r = incline(theta, material(mu, 0.0, 0.0), SOLVE, 1.0).unwrap();
            let error = (r.slide - r.closed_form).abs() / r.closed_form;
            assert!(error < 0.03, "μ {mu}, {degrees}°: {r:?}");
        }
    }

    #[test]
    fn a_sliding_box_is_held_back_by_dynamic_friction_not_static() {
        // μ_s = 0.6 < tan 35° = 0.70: it slides, at g(sin θ − μ_d cos θ) with μ_d = 0.3.
        let m = Material {
            static_friction: 0.6,
            dynamic_friction: 0.3,
            ..material(0.0, 0.0, 0.0)
        };
        let r = incline(f64::to_radians(35.0), m, SOLVE, 1.0).unwrap();
        assert!((r.slide / r.closed_form - 1.0).abs() < 0.03, "{r:?}");
    }

    #[test]
    fn below_the_friction_angle_a_box_creeps_in_proportion_to_the_substep() {
        let m = material(0.5, 0.0, 0.0);
        for degrees in [10.0, 20.0, 25.0] {
            let theta: f64 = f64::to_radians(degrees);
            let creep = [20, 40].map(|substeps| {
                incline(theta, m, Solve { substeps, passes: 2 }, 1.0).unwrap().slide
            });
            assert!(creep[0] < 5e-3, "{degrees}°: {creep:?}");
            assert!(creep[1] < 0.6 * creep[0] + 1e-6, "{degrees}°: {creep:?}");
        }
    }

    #[test]
    fn the_papers_all_or_nothing_rule_lets_a_box_on_four_corners_creep() {
        let theta = 20f64.to_radians();
        let clamped = incline(theta, material(0.5, 0.0, 0.0), SOLVE, 1.0).unwrap();
        let paper =
            Material { rule: StaticRule::AllOrNothing, ..material(0.5, 0.0, 0.0) };
        let paper = incline(theta, paper, SOLVE, 1.0).unwrap();
        assert!(paper.slide > 3.0 * clamped.slide, "{paper:?} {clamped:?}");
    }

    #[test]
    fn a_box_dropped_flat_rebounds_to_e_squared_of_its_height() {
        for e in [0.3, 0.5, 0.8] {
            let rebound = drop(1.0, material(0.5, e, 0.0), SOLVE, 2.0).unwrap();
            assert!((rebound - e * e).abs() < 0.03 * e * e, "{e}: {rebound}");
        }
    }

    #[test]
    fn one_pass_under_resolves_a_flat_landing_on_four_corners() {
        let one = Solve { passes: 1, ..SOLVE };
        let rebound = drop(1.0, material(0.5, 0.5, 0.0), one, 2.0).unwrap();
        assert!(rebound < 0.6 * 0.25, "{rebound}");
    }

    /// Two boxes, one on the other, run for 4 s: how far the upper one's centre
    /// moved.
    fn upper_box_drift(lower_fixed: bool, m: Material) -> f64 {
        let (below, above) =
            (Vector3::new(0.0, 0.1, 0.0), Vector3::new(0.0, 0.3, 0.0));
        let lower = match lower_fixed {
            true => Body::fixed(below, UPRIGHT).unwrap(),
            false => boxed(&BOX_HALF, BOX_MASS, below, UPRIGHT).unwrap(),
        };
        let upper = boxed(&BOX_HALF, BOX_MASS, above, UPRIGHT).unwrap();
        let bodies = vec![lower, upper];
        let mut w =
            BoxWorld::new(bodies, vec![BOX_HALF; 2], vec![ground()], m, gravity())
                .unwrap();
        run(&mut w, SOLVE, 4.0, |_| ()).unwrap();
        (w.bodies[1].x - above).norm()
    }

    #[test]
    fn the_wander_needs_static_friction_between_two_free_bodies() {
        let m = material(0.5, 0.0, 0.0);
        let on_fixed = upper_box_drift(true, m);
        let on_free = upper_box_drift(false, m);
        // Friction in the velocity pass only: no position-pass friction at all.
        let rule = StaticRule::AllOrNothing;
        let no_static = Material { static_friction: 0.0, rule, ..m };
        let free_without_static = upper_box_drift(false, no_static);
        assert!(on_fixed < 1e-4 && on_free > 20.0 * on_fixed, "{on_fixed} {on_free}");
        assert!(
            free_without_static < 0.3 * on_free,
            "{free_without_static} {on_free}"
        );
    }

    #[test]
    fn a_stack_of_five_stands_for_ten_seconds_and_drifts_less_with_smaller_substeps()
    {
        let m = material(0.5, 0.0, 0.0);
        let coarse = stack(5, m, SOLVE, 10.0).unwrap();
        assert!(coarse.drift < BOX_HALF.x, "{coarse:?}");
        assert!(coarse.depth < 1e-3 && coarse.top_sink < 1e-3, "{coarse:?}");
        let fine = stack(5, m, Solve { substeps: 50, ..SOLVE }, 10.0).unwrap();
        assert!(fine.drift < 0.6 * coarse.drift, "{fine:?} {coarse:?}");
    }
}
