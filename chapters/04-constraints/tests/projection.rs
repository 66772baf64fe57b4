//! Post-stabilisation: the projection lands on C = 0 and J v = 0, takes the least
//! mass-weighted change, and never adds kinetic energy.

use pbm_constraints::projection::{ProjectionCost, post_stabilise};
use pbm_constraints::scenes::{
    Chain, PROJECTION_TOLERANCE, Stabiliser, stabilised_run,
};
use pbm_constraints::system::ConstrainedSystem;
use pbm_particles::particle::Particle;
use pbm_prelim::sampling::sample_vector;

/// The book's chain (nail and rods), its bobs knocked off their rods by up to `off`
/// metres and given random velocities that break J v = 0.
fn knocked_chain(off: f64, seed: u64) -> ConstrainedSystem<2> {
    let mut system = Chain::BOOK.with_rods().unwrap();
    for (k, p) in system.particles.particles.iter_mut().enumerate() {
        p.x += sample_vector::<2>(seed + 2 * k as u64) * off;
        p.v = sample_vector::<2>(seed + 2 * k as u64 + 1);
    }
    system
}

fn kinetic(particles: &[Particle<2>]) -> f64 {
    particles.iter().map(|p| 0.5 * p.mass * p.v.norm_squared()).sum()
}

#[test]
fn the_projection_lands_on_c_zero_and_j_v_zero() {
    for seed in 0..20 {
        let mut system = knocked_chain(1e-3, 100 * seed);
        assert!(system.max_abs_c().unwrap() > 1e-6, "the start must be off");
        let before = kinetic(&system.particles.particles);
        let mut cost = ProjectionCost::default();
        post_stabilise(&mut system, PROJECTION_TOLERANCE, &mut cost).unwrap();
        // The loop stops only once the tolerance is met.
        assert!(system.max_abs_c().unwrap() <= PROJECTION_TOLERANCE);
        // J v, read back as Ċ at the projected state: zero to rounding. The CG solve
        // stops at a relative residual of 1e-12 of ‖J v‖ ≈ 1 m²/s.
        let j_v = system.c_dot().iter().fold(0.0_f64, |m, c| m.max(c.abs()));
        assert!(j_v < 1e-11, "seed {seed}: J v = {j_v:.1e} after the projection");
        // The velocity projection is M-orthogonal onto J v = 0: it removes
        // ½ δvᵀ M δv of kinetic energy and never adds any.
        let after = kinetic(&system.particles.particles);
        assert!(after <= before, "seed {seed}: {before} → {after}");
        // Gauss–Newton converges quadratically: from 1 mm off, a few steps.
        assert!(cost.solves <= 1 + 5, "seed {seed}: {} solves", cost.solves);
    }
}

#[test]
fn the_position_step_is_the_least_mass_weighted_change() {
    // One Gauss–Newton step from a state off by 1e-6 m is, to first order, the
    // smallest δ in δᵀ M δ with J δ = −C: δ = −W Jᵀ μ lies in the range of W Jᵀ, so
    // M δ is a combination of J's rows and is orthogonal to every legal motion (the
    // null space of J): what is left of M δ after removing its part along J's rows
    // is zero but for the second-order terms of the later Gauss–Newton steps.
    let mut system = knocked_chain(1e-6, 7);
    system.evaluate_constraints().unwrap();
    let j = system.jacobian().to_dense();
    let x0: Vec<_> = system.particles.particles.iter().map(|p| p.x).collect();
    post_stabilise(&mut system, PROJECTION_TOLERANCE, &mut ProjectionCost::default())
        .unwrap();
    let mut m_delta = nalgebra::DVector::zeros(j.ncols());
    for (k, (p, x)) in system.particles.particles.iter().zip(&x0).enumerate() {
        let m_d = (p.x - x) * p.mass;
        (m_delta[2 * k], m_delta[2 * k + 1]) = (m_d.x, m_d.y);
    }
    let jt = j.transpose();
    let coeffs = (&j * &jt).lu().solve(&(&j * &m_delta)).unwrap();
    let off_rows = &m_delta - &jt * coeffs;
    // Second-order terms of C (δ² ≈ 1e-12 m²) against |M δ| ≈ 1e-7.
    assert!(off_rows.norm() < 1e-4 * m_delta.norm(), "{:.1e}", off_rows.norm());
}

#[test]
fn projection_keeps_the_chain_that_feedback_and_nothing_lose_at_ten_ms() {
    // The numbers the page quotes from `constraints/stabilise --set h=0.01`: without
    // correction the chain tears, with Baumgarte's feedback it blows up, projected it
    // finishes, every step within the tolerance, having lost energy.
    let runs = Stabiliser::ALL.map(|s| stabilised_run(s, 0.01, 10.0).unwrap());
    assert!(runs[0].broke_down_at.is_some() && runs[1].broke_down_at.is_some());
    let projected = &runs[2];
    assert_eq!(projected.broke_down_at, None);
    assert!(projected.track[1..].iter().all(|s| s.abs_c <= PROJECTION_TOLERANCE));
    assert!(projected.track.last().unwrap().energy_change < 0.0);
}
