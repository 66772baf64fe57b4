//! The particle loop: PBD's and XPBD's static extension against their closed
//! forms, α = 0 against s = 1, the chain against chapter 4, and the explicit part of
//! the loop that can still blow up.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm_constraints::scenes::Chain;
use pbm_particles::forces::G;
use pbm_pbd::projection::Stiffness;
use pbm_pbd::scenes::{
    FRAME, REFERENCE_STEPS_PER_FRAME, lagrange_chain, matching_pbd_stiffness,
    max_position_difference, predicted_extension, projected_chain_run,
    spring_both_ways, static_extension, stiffness_per_pass,
};
use pbm_pbd::scenes::{hanging_mass, projected_chain};
use pbm_prelim::PbmError;

const MASS: f64 = 1.0;
const COMPLIANCE: f64 = 1e-3; // 1000 N/m

/// Substeps per 60 Hz frame and passes per step the tests sweep.
const SUBSTEPS: [usize; 4] = [1, 4, 16, 64];
const ITERATIONS: [usize; 3] = [1, 4, 16];

#[test]
fn xpbd_settles_at_alpha_m_g_whatever_the_step_and_the_iterations() {
    let expected = COMPLIANCE * MASS * G;
    for substeps in SUBSTEPS {
        for iterations in ITERATIONS {
            let h = FRAME / substeps as f64;
            let settled =
                static_extension(MASS, Stiffness::Xpbd(COMPLIANCE), h, iterations)
                    .unwrap();
            // The issue asks for 1 %; the fixed point is exact, so what is left is the
            // oscillation still in progress when the speed fell below 1e-6 m/s
            // (amplitude < 1e-6/ω ≈ 3e-8 m, 3e-6 of the extension).
            let error = (settled.extension / expected - 1.0).abs();
            assert!(
                error < 1e-4,
                "{substeps} × {iterations}: {} vs {expected}",
                settled.extension
            );
        }
    }
}

#[test]
fn pbd_extension_depends_on_the_step_and_the_iterations_as_its_closed_form_says() {
    let s = matching_pbd_stiffness(MASS, 1.0 / COMPLIANCE, FRAME);
    let mut extensions = Vec::new();
    for substeps in SUBSTEPS {
        for iterations in ITERATIONS {
            let h = FRAME / substeps as f64;
            let settled =
                static_extension(MASS, Stiffness::Pbd(s), h, iterations).unwrap();
            let closed = predicted_extension(MASS, Stiffness::Pbd(s), h, iterations);
            // Relative to the closed form, or to rounding in positions near 1 m
            // (the stiffest settings stretch by 1e-13 m).
            assert!(
                (settled.extension - closed).abs() < 1e-4 * closed + 1e-15,
                "{substeps} × {iterations}: {} vs {closed}",
                settled.extension
            );
            extensions.push(settled.extension);
        }
    }
    // Matched at one step of one pass...
    let at_one = extensions[0];
    assert!((at_one / (COMPLIANCE * MASS * G) - 1.0).abs() < 1e-4, "{at_one}");
    // ...and stiffer by orders of magnitude at 64 substeps of 16 passes.
    let spread = extensions.iter().fold(0.0_f64, |m, &e| m.max(e))
        / extensions.iter().fold(f64::INFINITY, |m, &e| m.min(e));
    assert!(spread > 1e4, "{spread}");
}

#[test]
fn pbd_with_the_per_pass_factor_rests_where_one_pass_of_s_does() {
    // Müller et al. 2007: s′ = 1 − (1 − s)^{1/n}, so n passes of s′ leave (1 − s′)ⁿ
    // = 1 − s of the error, as one pass of s does. The closed form then agrees to
    // rounding; the measured rest agrees to the measurement (the mass counts as
    // still below 1 µm/s, which moves the extension by far less than 1e-6 of it).
    let s = matching_pbd_stiffness(MASS, 1.0 / COMPLIANCE, FRAME);
    for substeps in [1, 8] {
        let h = FRAME / substeps as f64;
        let one = static_extension(MASS, Stiffness::Pbd(s), h, 1).unwrap().extension;
        let closed_one = predicted_extension(MASS, Stiffness::Pbd(s), h, 1);
        for n in [4, 16] {
            let corrected = Stiffness::Pbd(stiffness_per_pass(s, n));
            let rest = static_extension(MASS, corrected, h, n).unwrap().extension;
            assert!(
                (rest / one - 1.0).abs() < 1e-6,
                "{substeps} {n}: {rest} vs {one}"
            );
            let closed = predicted_extension(MASS, corrected, h, n);
            assert!(
                (closed / closed_one - 1.0).abs() < 1e-12,
                "{closed} {closed_one}"
            );
            // Uncorrected, the same s at n passes is far stiffer.
            let stiff = static_extension(MASS, Stiffness::Pbd(s), h, n).unwrap();
            assert!(stiff.extension < 0.2 * one, "{n}: {stiff:?}");
        }
    }
    // It repairs n, not h: the same s′ at half the step rests a quarter as far.
    let (h, n) = (FRAME / 2.0, 4);
    let corrected = Stiffness::Pbd(stiffness_per_pass(s, n));
    let half = static_extension(MASS, corrected, h, n).unwrap().extension;
    let full = static_extension(MASS, corrected, FRAME, n).unwrap().extension;
    assert!((full / half - 4.0).abs() < 0.3, "{full} / {half}");
}

#[test]
fn the_slides_xpbd_update_is_right_for_one_pass_and_stiffer_for_more() {
    let slides = Stiffness::XpbdFirstIterationOnly(COMPLIANCE);
    let expected = COMPLIANCE * MASS * G;
    let h = FRAME / 4.0;
    let one = static_extension(MASS, slides, h, 1).unwrap().extension;
    assert!((one / expected - 1.0).abs() < 1e-4, "{one}");
    let four = static_extension(MASS, slides, h, 4).unwrap().extension;
    let closed = predicted_extension(MASS, slides, h, 4);
    assert!((four / closed - 1.0).abs() < 1e-4, "{four} vs {closed}");
    assert!(four < 0.5 * expected, "{four} vs {expected}");
}

#[test]
fn xpbd_with_zero_compliance_is_pbd_with_s_one_bit_for_bit() {
    let chain = Chain::BOOK;
    let mut xpbd = projected_chain(chain, Stiffness::Xpbd(0.0)).unwrap();
    let mut pbd = projected_chain(chain, Stiffness::Pbd(1.0)).unwrap();
    for _ in 0..60 {
        xpbd.frame(FRAME, 5, 3).unwrap();
        pbd.frame(FRAME, 5, 3).unwrap();
    }
    for (a, b) in xpbd.particles.particles.iter().zip(&pbd.particles.particles) {
        assert_eq!(a.x, b.x);
        assert_eq!(a.v, b.v);
    }
}

#[test]
fn internal_constraints_conserve_linear_momentum_to_rounding() {
    // The chain with its nail removed: free particles, rods only, no gravity.
    let chain = Chain::BOOK;
    let mut particles = chain.particles().unwrap();
    for (i, p) in particles.iter_mut().enumerate() {
        p.v = nalgebra::Vector2::new((i as f64).sin(), (2.0 * i as f64).cos());
    }
    let mut system = pbm_pbd::particles::PbdSystem::new(particles);
    for i in 0..chain.links {
        system
            .add_constraint(
                pbm_constraints::constraint::Rod::new(i, i + 1, chain.length)
                    .unwrap(),
                Stiffness::RIGID,
            )
            .unwrap();
    }
    let p0 = system.particles.momentum();
    for _ in 0..120 {
        system.frame(FRAME, 10, 2).unwrap();
    }
    // Each correction moves the two ends by w_a ∇C Δλ and w_b (−∇C) Δλ: equal and
    // opposite changes of m x, so Σ m v changes only by rounding.
    assert!(
        (system.particles.momentum() - p0).norm() < 1e-12,
        "{}",
        system.particles.momentum() - p0
    );
}

#[test]
fn the_chain_follows_chapter_4_to_first_order_in_the_step() {
    let chain = Chain::BOOK;
    let frames = 60; // the first second
    let (_, reference) = lagrange_chain(
        chain,
        FRAME / REFERENCE_STEPS_PER_FRAME as f64,
        frames,
        REFERENCE_STEPS_PER_FRAME,
    )
    .unwrap();
    let mut differences = Vec::new();
    for substeps in [20, 40, 80] {
        let (_, xpbd) =
            projected_chain_run(chain, Stiffness::RIGID, frames, substeps, 1)
                .unwrap();
        differences.push(max_position_difference(&reference, &xpbd, frames));
    }
    eprintln!("{differences:?}");
    // First order: halving the step halves the difference (within 30 %).
    for pair in differences.windows(2) {
        let ratio = pair[0] / pair[1];
        assert!((1.4..2.6).contains(&ratio), "{differences:?}");
    }
}

#[test]
fn the_projection_is_stable_at_any_step_but_an_explicit_force_is_not() {
    // ω = 100 rad/s: symplectic Euler needs h < 2/ω = 0.02 s.
    let k = 1e4;
    for h in [0.01, 0.05, 0.5] {
        let run = spring_both_ways(k, h, 200, false).unwrap();
        assert!(
            run.diverged_at.is_none() && run.growth <= 1.0 + 1e-12,
            "h = {h}: {run:?}"
        );
    }
    // At ωh = 1 symplectic Euler's orbit is an ellipse 1/√(1 − (ωh/2)²) = 1.155
    // times the circle.
    let stable = spring_both_ways(k, 0.01, 2000, true).unwrap();
    assert!(stable.diverged_at.is_none() && stable.growth < 1.16, "{stable:?}");
    let blown = spring_both_ways(k, 0.05, 2000, true).unwrap();
    assert!(blown.diverged_at.is_some() || blown.growth > 1e6, "{blown:?}");
}

#[test]
fn bad_input_is_refused_in_one_clear_line() {
    let message = |e: PbmError| e.to_string();
    assert!(message(Stiffness::xpbd(-1.0).unwrap_err()).contains("compliance"));
    assert!(message(Stiffness::pbd(0.0).unwrap_err()).contains("stiffness s"));
    assert!(message(Stiffness::pbd(1.5).unwrap_err()).contains("stiffness s"));
    let mut system = hanging_mass(1.0, 1.0, Stiffness::RIGID).unwrap();
    assert!(message(system.frame(FRAME, 0, 1).unwrap_err()).contains("substeps"));
    assert!(message(system.frame(FRAME, 1, 0).unwrap_err()).contains("iterations"));
    assert!(message(system.frame(-FRAME, 1, 1).unwrap_err()).contains("length"));
}

#[test]
fn a_slider_stops_where_constant_deceleration_says_and_a_drop_rebounds_to_e_squared()
{
    use pbm_pbd::scenes::slide_and_bounce;
    // v₀ = 2 m/s, μ = 0.5: the slide v₀²/(2μg) and the rebound e²H, the error
    // falling with the step (first order).
    let closed = 4.0 / (2.0 * 0.5 * G);
    let errors: Vec<f64> = [5, 10, 20]
        .iter()
        .map(|&substeps| {
            let run =
                slide_and_bounce((0.5, 0.5), (2.0, 1.0), substeps, 2.0).unwrap();
            assert!((run.rebound - 0.25).abs() < 0.01, "{substeps}: {}", run.rebound);
            assert_eq!(run.deepest, 0.0);
            (run.slide - closed).abs() / closed
        })
        .collect();
    assert!(errors[0] < 0.02, "{errors:?}");
    for pair in errors.windows(2) {
        let ratio = pair[0] / pair[1];
        assert!((1.7..2.3).contains(&ratio), "{errors:?}");
    }
}

#[test]
fn static_friction_holds_a_particle_on_a_slope_until_tan_theta_exceeds_mu() {
    use nalgebra::Vector2;
    use pbm_particles::forces::Gravity;
    use pbm_particles::particle::Particle;
    use pbm_pbd::contact::Ground;
    use pbm_pbd::particles::PbdSystem;
    // A ground tilted by θ = 20°: tan θ = 0.36. With μ = 0.5 the particle stays;
    // with μ = 0.2 it slides at g (sin θ − μ cos θ).
    let theta = 20f64.to_radians();
    let normal = Vector2::new(-theta.sin(), theta.cos());
    let distance = |mu: f64| {
        let mut system = PbdSystem::new(vec![
            Particle::new(1.0, Vector2::zeros(), Vector2::zeros()).unwrap(),
        ]);
        system.add_force(Gravity { g: Vector2::new(0.0, -G) }).unwrap();
        let ground = Ground {
            normal,
            height: 0.0,
            static_friction: mu,
            dynamic_friction: mu,
            restitution: 0.0,
        };
        system.set_ground(ground).unwrap();
        for _ in 0..60 {
            system.frame(1.0 / 60.0, 20, 1).unwrap();
        }
        system.particles.particles[0].x.norm()
    };
    assert!(distance(0.5) < 1e-12, "{}", distance(0.5));
    let expected = 0.5 * G * (theta.sin() - 0.2 * theta.cos());
    let slid = distance(0.2);
    assert!((slid - expected).abs() < 0.02 * expected, "{slid} vs {expected}");
}
