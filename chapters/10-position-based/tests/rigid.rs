//! Rigid bodies by XPBD: the generalized inverse mass against the body's own
//! response, momentum under internal joints, the gyroscopic term, the double cover,
//! the chain of boxes, and bad input.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::Vector3;
use pbm_pbd::joint::{Anchor, BodySystem, Joint};
use pbm_pbd::rigid::{Body, angular_velocity};
use pbm_pbd::scenes::{self, BoxChain, UNROTATED};
use pbm_rigid::mass::MassProperties;
use pbm_rigid::mesh::uv_sphere;
use pbm_rigid::rotation::{Quat, quat_from_axis_angle, quat_to_matrix};

fn brick() -> Body {
    scenes::brick().unwrap()
}

#[test]
fn generalized_inverse_mass_is_how_far_the_point_moves_per_unit_impulse() {
    let body = brick();
    let local = Vector3::new(0.05, -0.2, 0.1); // a corner
    let p = body.world_point(&local);
    for n in [Vector3::x(), Vector3::new(1.0, -2.0, 0.5).normalize(), Vector3::z()] {
        // Push with ±ε n at the corner and see how far the corner itself moves
        // along n: a central difference, error O(ε²).
        let eps = 1e-6;
        let moved = |sign: f64| {
            let mut pushed = body.clone();
            pushed.apply_correction(&p, &(n * (sign * eps)));
            (pushed.world_point(&local) - p).dot(&n)
        };
        let response = (moved(1.0) - moved(-1.0)) / (2.0 * eps);
        let w = body.generalized_inverse_mass(&p, &n);
        assert!((response / w - 1.0).abs() < 1e-8, "{response} vs {w}");
    }
}

#[test]
fn the_translation_uses_the_mass_alone() {
    // Erratum: the slides write x ← x ± w λ n with the generalized w. The centre
    // must move by λ n / m; w would also count the turn, and an internal joint
    // would then push the pair's centre of mass.
    let mut body = brick();
    let p = body.world_point(&Vector3::new(0.05, -0.2, 0.1));
    let (n, lambda) = (Vector3::new(1.0, 1.0, 0.0).normalize(), 1e-3);
    let w = body.generalized_inverse_mass(&p, &n);
    let x0 = body.x;
    body.apply_correction(&p, &(n * lambda));
    let moved = body.x - x0;
    assert!((moved - n * (lambda * body.inverse_mass())).norm() < 1e-15);
    assert!(w > 1.5 * body.inverse_mass(), "the turn adds to w: {w}");
}

fn spinning_pair(h: f64) -> (BodySystem, Vector3<f64>, Vector3<f64>) {
    scenes::spinning_pair(h).unwrap()
}

#[test]
fn internal_joints_conserve_momentum() {
    let mut drift = Vec::new();
    for h in [1e-3, 5e-4] {
        let (mut system, p0, l0) = spinning_pair(h);
        let steps = (1.0 / h) as usize;
        for _ in 0..steps {
            system.step(h, 1).unwrap();
        }
        // Linear: each joint moves the two centres by ∓P/m_a, ±P/m_b, so Σ m Δx is
        // zero and so is the change of Σ m v, up to rounding.
        assert!((system.momentum() - p0).norm() < 1e-12 * (1.0 + p0.norm()));
        drift.push((system.angular_momentum() - l0).norm() / l0.norm());
    }
    // Angular: each correction is exact (next test), but the velocity update pairs
    // it with the positions at the start of the step, where the line between the
    // anchors was a step's motion away from the one the correction acted along:
    // an error of h (v_b − v_a) × P per step, first order over a second. Measured
    // 6.3e-3 and 3.2e-3 of |L|.
    assert!(drift[0] < 1e-2, "{drift:?}");
    assert!((1.7..2.3).contains(&(drift[0] / drift[1])), "{drift:?}");
}

#[test]
fn one_joint_correction_changes_neither_momentum() {
    // A violated joint projected once: the two bodies get −P at p_a and +P at p_b
    // with P along p_b − p_a. Σ m Δx = 0, and Σ (x × m Δx + I Δθ) = (p_b − p_a) × P
    // = 0: momentum and angular momentum (as positional impulses) are unchanged.
    let (mut system, _, _) = spinning_pair(1e-3);
    let mut joint = system.joints[0].clone();
    // Open the joint by 23 µm: the turns are ~1e-4 rad, so the finite-angle
    // remainders (θ³/12 of the normalized update, θ³/24 of reading it back) are
    // ~1e-13 of the turn.
    system.bodies[1].x += Vector3::new(1e-5, -2e-5, 5e-6);
    let before = system.bodies.clone();
    joint.solve(&mut system.bodies, 1e-3);
    let (mut linear, mut angular, mut scale) =
        (Vector3::zeros(), Vector3::zeros(), 0.0);
    for (b0, b1) in before.iter().zip(&system.bodies) {
        let dx = (b1.x - b0.x) * b0.mass();
        // The turn as a rotation vector: 2 sin(θ/2) û, equal to θ to O(θ³).
        let turn = angular_velocity(&b0.orientation(), &b1.orientation(), 1.0);
        linear += dx;
        angular += b0.x.cross(&dx) + b0.inertia() * turn;
        scale += dx.norm();
    }
    // Against rounding: positions near 0.5 m carry 1e-16 m, times 2 kg; the
    // corrections themselves are ~1e-5 kg m.
    assert!(linear.norm() < 1e-15, "{linear} of {scale}");
    assert!(angular.norm() < 1e-15, "{angular} of {scale}");
}

#[test]
fn without_the_gyroscopic_term_a_free_body_loses_its_angular_momentum() {
    // Erratum: the slides' ω ← ω + h I⁻¹ τ_ext leaves out −ω × (I ω), so a body
    // tumbling about a non-principal axis keeps ω fixed in the world while its
    // inertia turns: L = I ω swings round.
    let run = |gyroscopic: bool| {
        scenes::free_brick_momentum_change(gyroscopic, 1e-3, 2.0).unwrap()
    };
    let (with, without) = (run(true), run(false));
    eprintln!("with {with:e}, without {without:e}");
    // With it: explicit Euler on Euler's equations, first order: ~1e-3 over 2 s.
    assert!(with < 1e-2, "{with}");
    assert!(without > 0.1, "{without}");
}

#[test]
fn the_angular_velocity_is_the_same_for_q_and_minus_q() {
    let from = quat_from_axis_angle(&Vector3::new(0.0, 1.0, 1.0), 0.4);
    let to = quat_from_axis_angle(&Vector3::new(0.1, 1.0, 1.0), 0.45);
    let h = 0.01;
    let omega = angular_velocity(&from, &to, h);
    // −to is the same orientation; without the sign fix ω would point the other way
    // and be about 2π/h long in the turn it implies.
    let flipped = angular_velocity(&from, &(-to), h);
    assert!((omega - flipped).norm() < 1e-12, "{omega} vs {flipped}");
    assert!(omega.norm() * h < 0.1);
}

#[test]
fn the_chain_of_boxes_keeps_its_joints_closed_to_second_order_and_only_loses_energy()
{
    // The slides' chain released straight out to the side: its end whips round at
    // about 1.9 s, the hardest moment for the joints.
    let chain = BoxChain::BOOK;
    let mut gaps = Vec::new();
    for substeps in [20, 40, 80] {
        let mut system = chain.build().unwrap();
        let e0 = system.energy();
        let h = 1.0 / 60.0 / substeps as f64;
        let mut worst: f64 = 0.0;
        for _ in 0..180 * substeps {
            system.step(h, 1).unwrap();
            worst = worst.max(system.max_rigid_violation());
        }
        // XPBD damps: three seconds later the chain has less energy than it started
        // with, never more.
        assert!(system.energy() < e0, "{substeps}: {} vs {e0}", system.energy());
        gaps.push(worst);
    }
    eprintln!("{gaps:?}");
    // Measured 6.8 mm, 1.6 mm, 0.31 mm: a gap left by one pass per step closes
    // like h² (the prediction moves each box by O(h²) before the pass).
    assert!(gaps[0] < 0.01, "{gaps:?}");
    for pair in gaps.windows(2) {
        assert!(pair[0] / pair[1] > 3.0, "{gaps:?}");
    }
}

#[test]
fn bad_rigid_input_is_refused_in_one_clear_line() {
    let props = MassProperties::block(Vector3::new(0.1, 0.1, 0.1), 1.0).unwrap();
    let e = Body::new(&props, Vector3::zeros(), Quat::new(1.0, 0.1, 0.0, 0.0))
        .unwrap_err();
    assert!(e.to_string().contains("unit quaternion"), "{e}");
    let e = Body::fixed(Vector3::new(f64::NAN, 0.0, 0.0), UNROTATED).unwrap_err();
    assert!(e.to_string().contains("position"), "{e}");
    let a = Anchor::World(Vector3::zeros());
    let e = Joint::new(a, a, 0.0, -1.0).unwrap_err();
    assert!(e.to_string().contains("compliance"), "{e}");
    let mut system = BodySystem::new(vec![], Vector3::zeros());
    let joint =
        Joint::new(a, Anchor::Body { body: 3, local: Vector3::zeros() }, 0.0, 0.0);
    let e = system.add_joint(joint.unwrap()).unwrap_err();
    assert!(e.to_string().contains("body 3"), "{e}");
    let e = BoxChain { links: 0, ..BoxChain::BOOK }.build().unwrap_err();
    assert!(e.to_string().contains("at least one"), "{e}");
}

#[test]
fn the_quaternion_update_turns_at_omega_with_no_extra_factor() {
    // Erratum: the slides write q ← q + ½ h v[ω_x, ω_y, ω_z, 0] q with a stray v.
    // Without it, a cube spinning at ω = 2 rad/s about z turns 2 rad in a second,
    // less what the loop itself loses: each step turns by θ = 2 atan(ωh/2), and ω read
    // back from that turn is 2 sin(θ/2)/h = ω/√(1 + (ωh/2)²), so the spin decays
    // by ω³h/8 per second and the angle falls short by ω³h t²/16 = 5e-4 rad.
    let props = MassProperties::block(Vector3::new(0.1, 0.1, 0.1), 1.0).unwrap();
    let mut body = Body::new(&props, Vector3::zeros(), UNROTATED).unwrap();
    body.omega = Vector3::new(0.0, 0.0, 2.0);
    let mut system = BodySystem::new(vec![body], Vector3::zeros());
    for _ in 0..1000 {
        system.step(1e-3, 1).unwrap();
    }
    let q = system.bodies[0].orientation();
    let angle = 2.0 * q[3].atan2(q[0]);
    let (omega, h, t) = (2.0_f64, 1e-3, 1.0);
    let expected = omega * t - omega.powi(3) * h * t * t / 16.0;
    assert!((angle - expected).abs() < 1e-6, "{angle} vs {expected}");
    let spin = omega - omega.powi(3) * h * t / 8.0;
    assert!(
        (system.bodies[0].omega.z - spin).abs() < 1e-6,
        "{}",
        system.bodies[0].omega
    );
}

#[test]
fn a_free_tumbling_body_accelerates_with_no_torque() {
    // Erratum (slides, "Moment of Inertia", 002:150/176): τ = I α. With no torque
    // L = I ω stays fixed, but I = R I_body Rᵀ turns with the body, so ω must change:
    // ω(t) = I(t)⁻¹ L. Differencing it over ±δ (the body turning at ω) gives α, and
    // I α = −ω × I ω, not zero. The turn over ±δ is exp(±δ[ω]) only to first order
    // (ω itself changes), an error of O(δ) in α: 1e-6 of it at δ = 1e-6.
    let body = brick();
    let omega = Vector3::new(2.0, 1.0, -1.5);
    let inertia = body.inertia();
    let momentum = inertia * omega;
    let omega_after = |dt: f64| {
        let turn = quat_to_matrix(&quat_from_axis_angle(&omega, omega.norm() * dt));
        let turned = turn * inertia * turn.transpose();
        turned.try_inverse().unwrap() * momentum
    };
    let delta = 1e-6;
    let alpha = (omega_after(delta) - omega_after(-delta)) / (2.0 * delta);
    let gyroscopic = -omega.cross(&(inertia * omega));
    assert!(gyroscopic.norm() > 0.01, "a skew spin: {gyroscopic}");
    let off = (inertia * alpha - gyroscopic).norm() / gyroscopic.norm();
    assert!(off < 1e-4, "I α = {} vs −ω × I ω = {gyroscopic}", inertia * alpha);
}

#[test]
fn a_solid_ball_has_two_fifths_and_a_thin_shell_two_thirds() {
    // Erratum (slides, "The Inertia Tensor", 002:192): I = ⅔ m r² for a sphere. By
    // chapter 6's polyhedron integrals on a tessellated sphere, a solid ball gives
    // ⅖ m r²; a shell between r and 0.99 r gives (2/5)(1 − 0.99⁵)/(1 − 0.99³) r² per
    // unit mass = 0.660 r², tending to ⅔ as it thins. The polygons sit inside the
    // sphere; 64 × 128 of them put the ratios within 0.2 % of the smooth ones.
    let r = 0.5;
    let ball = |radius: f64| {
        MassProperties::polyhedron(&uv_sphere(radius, 64, 128).unwrap(), 1000.0)
            .unwrap()
    };
    let (outer, inner) = (ball(r), ball(0.99 * r));
    let solid = outer.inertia[(0, 0)] / (outer.mass * r * r);
    assert!((solid / 0.4 - 1.0).abs() < 2e-3, "solid ball: {solid} m r²");
    let shell = (outer.inertia[(0, 0)] - inner.inertia[(0, 0)])
        / ((outer.mass - inner.mass) * r * r);
    let thin = 0.4 * (1.0 - 0.99_f64.powi(5)) / (1.0 - 0.99_f64.powi(3));
    assert!((shell / thin - 1.0).abs() < 2e-3, "shell: {shell} m r² vs {thin}");
    assert!((thin / (2.0 / 3.0) - 1.0).abs() < 0.01, "{thin}");
}

#[test]
fn the_turn_needs_the_world_inverse_inertia_and_the_translations_sign() {
    // Erratum (slides, "XPBD Algorithm for Rigid Bodies", 002:325-327): a positional
    // impulse λ n at p moves the centre by λ n/m and turns the body by Δθ; the point
    // moves along n by n·(λ n/m + Δθ × r). With Δθ = +I⁻¹(r × λ n), I⁻¹ the world
    // inverse inertia, that is λ w, which the multiplier was computed with. The
    // body's own I_body⁻¹ used as if it were the world's, or the turn's sign
    // opposite the translation's, move the point by something else.
    let body = brick();
    let p = body.world_point(&Vector3::new(0.05, -0.2, 0.1));
    let (r, n, lambda) = (p - body.x, Vector3::new(1.0, -2.0, 0.5).normalize(), 1e-5);
    let along = |turn: Vector3<f64>| {
        n.dot(&(n * (lambda * body.inverse_mass()) + turn.cross(&r)))
    };
    let world = body.inverse_inertia();
    let rotation = body.rotation();
    let body_frame = rotation.transpose() * world * rotation;
    let rn = r.cross(&(n * lambda));
    let w = body.generalized_inverse_mass(&p, &n);
    let rotational = w - body.inverse_mass();
    let right = along(world * rn);
    assert!((right / (lambda * w) - 1.0).abs() < 1e-12, "{right} vs {}", lambda * w);
    let flipped = along(-(world * rn));
    let expected = lambda * (body.inverse_mass() - rotational);
    assert!((flipped / expected - 1.0).abs() < 1e-12, "{flipped} vs {expected}");
    // The brick is turned 0.7 rad: the body frame's answer is 8.5 % short here,
    // and nothing bounds it for other turns and points.
    let in_body_frame = along(body_frame * rn);
    assert!((in_body_frame / right - 1.0).abs() > 0.05, "{in_body_frame} vs {right}");
    // And the chapter's apply_correction is the first of the three.
    let mut pushed = body.clone();
    pushed.apply_correction(&p, &(n * lambda));
    let moved = (pushed.world_point(&Vector3::new(0.05, -0.2, 0.1)) - p).dot(&n);
    assert!((moved / right - 1.0).abs() < 1e-3, "{moved} vs {right}");
}

#[test]
fn the_chain_of_boxes_loses_energy_more_slowly_than_first_order_at_first() {
    // rigid.md: each halving of the step takes off only about a third of the loss at
    // first, and nearly half at the last. Measured 21.6 %, 13.8 %, 8.75 %, 4.83 %
    // of the drop: ratios 1.57, 1.58, 1.81 against first order's 2.
    let chain = BoxChain::BOOK;
    // What the chain gains by falling from the horizontal to straight down: the
    // centres drop by l/2, 3l/2, …, so m g l n²/2.
    let links = chain.links as f64;
    let drop =
        chain.mass * pbm_pbd::scenes::SLIDES_G * chain.size[1] * links * links / 2.0;
    let lost = |substeps: usize| {
        let mut system = chain.build().unwrap();
        let e0 = system.energy();
        let h = 1.0 / 60.0 / substeps as f64;
        for _ in 0..180 * substeps {
            system.step(h, 1).unwrap();
        }
        (e0 - system.energy()) / drop
    };
    let losses: Vec<f64> = [20, 40, 80, 160].into_iter().map(lost).collect();
    let ratios: Vec<f64> = losses.windows(2).map(|w| w[0] / w[1]).collect();
    assert!(losses.iter().all(|&l| l > 0.0), "{losses:?}");
    assert!(ratios[..2].iter().all(|r| (1.4..1.7).contains(r)), "{ratios:?}");
    assert!((1.7..2.0).contains(&ratios[2]), "{ratios:?}");
}

#[test]
fn a_hinge_keeps_a_twisted_bar_in_its_plane_and_its_limit_stops_it_where_it_says() {
    use pbm_pbd::scenes::hinged_bar;
    // Spun about its length at 3 rad/s, the bar would leave the plane; the hinge
    // keeps its axis on the world's z to a few thousandths of a degree.
    let free = hinged_bar(None, 3.0, 20, 2.0).unwrap();
    assert!(free.max_misalignment.to_degrees() < 0.01, "{free:?}");
    // With no limit it swings through the bottom; a ±30° limit stops it at −30°
    // and it rests there.
    assert!(free.lowest_angle.to_degrees() < -150.0, "{free:?}");
    let limited = hinged_bar(Some(30f64.to_radians()), 3.0, 20, 2.0).unwrap();
    assert!((limited.lowest_angle.to_degrees() + 30.0).abs() < 0.01, "{limited:?}");
    assert!((limited.final_angle.to_degrees() + 30.0).abs() < 0.01, "{limited:?}");
}

#[test]
fn the_angular_inverse_mass_is_how_far_a_body_turns_per_unit_angular_impulse() {
    // Checked without the formula: apply ±ε about an axis and measure the turn.
    let props = MassProperties::block(Vector3::new(1.0, 0.3, 0.2), 2.0).unwrap();
    let q = quat_from_axis_angle(&Vector3::new(1.0, 2.0, 3.0).normalize(), 0.7);
    let body = Body::new(&props, Vector3::zeros(), q).unwrap();
    for n in [Vector3::x(), Vector3::y(), Vector3::new(1.0, -1.0, 2.0).normalize()] {
        let eps = 1e-6;
        let turned = |sign: f64| {
            let mut b = body.clone();
            b.apply_turn(&(n * (sign * eps)));
            b.orientation()
        };
        let turn = angular_velocity(&turned(-1.0), &turned(1.0), 1.0);
        let measured = turn.dot(&n) / (2.0 * eps);
        let w = body.angular_inverse_mass(&n);
        assert!((measured - w).abs() < 1e-6 * w, "{n}: {measured} vs {w}");
    }
}

#[test]
fn angular_velocity_is_a_free_vector_the_same_about_every_body_point() {
    // Müller's slide draws ω through x; the motion of every body point, written
    // about any other body point p₀, has the same ω: v(p) = v(p₀) + ω × (p − p₀).
    // Check it on a moved body, and that one step's turn, read off the
    // orientations, is the same ω whichever point the step is watched from.
    let mut body = brick();
    body.v = Vector3::new(0.4, -1.0, 0.3);
    body.omega = Vector3::new(2.0, -0.5, 1.5);
    let points = [Vector3::new(1.0, 0.0, 0.0), Vector3::new(-0.3, 0.7, 2.0)];
    let [p, p0] = points.map(|local| body.world_point(&local));
    let about_p0 = body.point_velocity(&p0) + body.omega.cross(&(p - p0));
    assert!((body.point_velocity(&p) - about_p0).norm() < 1e-12);
    // The axis the body turns about passes through the centre only when v ∥ ω.
    let axis_point = body.x + body.omega.cross(&body.v) / body.omega.norm_squared();
    let along = body.point_velocity(&axis_point).cross(&body.omega).norm();
    assert!(along < 1e-12 && (axis_point - body.x).norm() > 0.1, "{axis_point}");
    let before = body.orientation();
    let h = 1e-3;
    body.integrate(h, &Vector3::zeros(), &Vector3::zeros(), false);
    let read = angular_velocity(&before, &body.orientation(), h);
    assert!((read - body.omega).norm() < 1e-3 * body.omega.norm(), "{read}");
}
