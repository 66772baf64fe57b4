//! Particle physics checked directly: energy, momentum, determinism, controlled
//! particles, and invalid models refused.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::{Vector2, Vector3};
use pbm_ode::runge_kutta::{RungeKutta, step_count};
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::RK4;
use pbm_particles::condition::{
    Coincide, Distance, SoftCondition, finite_difference_errors,
};
use pbm_particles::forces::G;
use pbm_particles::interaction::{
    PairLaw, brute_force_forces, grid_forces, pair_checks, scattered_points,
};
use pbm_particles::particle::Force;
use pbm_particles::particle::{Motion, Particle, ParticleSystem};
use pbm_particles::scenes::{
    motor_on_circle, pulled_off_the_floor, ramp_slide, spring_network,
};
use pbm_particles::spring::{DampedSpring, spring_force};
use pbm_prelim::sampling::sample_vector;

fn energy_drift(k_d: f64, h: f64, t_end: f64) -> (f64, Vec<f64>) {
    let mut system = spring_network(30, k_d).unwrap();
    let e0 = system.energy();
    let mut rk4 = RungeKutta::new(RK4);
    let mut energies = vec![e0];
    for _ in 0..step_count(h, t_end).unwrap() {
        rk4.step(&mut system, h).unwrap();
        energies.push(system.energy());
    }
    let drift = energies.iter().map(|e| (e - e0).abs()).fold(0.0, f64::max) / e0;
    (drift, energies)
}

#[test]
fn undamped_springs_conserve_energy_to_fourth_order() {
    let (coarse, _) = energy_drift(0.0, 0.01, 2.0);
    let (fine, _) = energy_drift(0.0, 0.005, 2.0);
    assert!(coarse < 1e-4, "{coarse}");
    // RK4 is fourth order: halving h must divide the error by at least about 2^4 = 16.
    let ratio = coarse / fine;
    assert!(ratio > 16.0, "ratio {ratio}: {coarse} / {fine}");
}

#[test]
fn rk4_energy_error_falls_as_h_to_the_fifth_however_long_the_run() {
    // The energy has a law of its own (page "Forces"): each RK4 step multiplies a
    // vibration's energy by |P(iθ)|² = 1 − θ⁶/72 + …, θ = hω, so over a fixed time the
    // loss is T h⁵ and halving h divides it by 2⁵ = 32. That is not a short run's
    // transient: ten times longer, the factor is still 32, not falling towards 16.
    // The bounds allow the network's several frequencies and the θ⁸ term (a few %).
    for t_end in [2.0, 20.0] {
        let (coarse, _) = energy_drift(0.0, 0.01, t_end);
        let (fine, _) = energy_drift(0.0, 0.005, t_end);
        let ratio = coarse / fine;
        assert!((28.0..36.0).contains(&ratio), "T = {t_end} s: ratio {ratio}");
    }
}

#[test]
fn damped_springs_never_gain_energy() {
    let (_, energies) = energy_drift(0.5, 0.005, 3.0);
    for w in energies.windows(2) {
        // Damping removes energy every step; the integrator's own error is far
        // smaller.
        assert!(w[1] <= w[0] + 1e-9, "{} -> {}", w[0], w[1]);
    }
    assert!(energies.last().unwrap() < &(0.99 * energies[0]));
}

#[test]
fn grid_forces_are_identical_with_one_or_two_threads() {
    let law = PairLaw::new(10.0, 0.1, 0.25).unwrap();
    let x = scattered_points(5000, 7.0);
    let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap();
    let one = pool(1).install(|| grid_forces(&law, &x));
    let two = pool(2).install(|| grid_forces(&law, &x));
    assert!(one == two, "the grid's forces depend on the thread count");
    // Brute force sums each particle's neighbours in index order, the grid cell by
    // cell: the same terms, added in another order.
    let brute = brute_force_forces(&law, &x);
    let scale = brute.iter().map(|f| f.norm()).fold(0.0, f64::max);
    let worst =
        one.iter().zip(&brute).map(|(a, b)| (a - b).norm()).fold(0.0, f64::max);
    assert!(worst < 1e-14 * scale, "grid and brute force differ by {worst:e}");
    // Particles far apart (a sparse box of cells) switch the grid to hashed buckets;
    // the forces stay the same.
    let mut spread = x.clone();
    spread.push(nalgebra::Vector2::new(1e6, -3e5));
    spread.push(nalgebra::Vector2::new(1e6 + 0.2, -3e5));
    let hashed = grid_forces(&law, &spread);
    let brute = brute_force_forces(&law, &spread);
    let worst =
        hashed.iter().zip(&brute).map(|(a, b)| (a - b).norm()).fold(0.0, f64::max);
    assert!(worst < 1e-14 * scale, "hashed grid and brute force differ by {worst:e}");
    assert!(hashed[5001].norm() > 0.0, "the far pair does not interact");
    let (brute, grid) = pair_checks(&law, &x);
    assert!(brute > 40 * grid, "{brute} vs {grid}");
}

#[test]
fn distance_jacobians_match_finite_differences() {
    let d = Distance::new(0, 1, 0.7).unwrap();
    for seed in 0..100 {
        let x =
            [sample_vector::<3>(4 * seed), sample_vector::<3>(4 * seed + 1) * 2.0];
        let v = [sample_vector::<3>(4 * seed + 2), sample_vector::<3>(4 * seed + 3)];
        let (j, j_dot) = finite_difference_errors(&d, &x, &v).unwrap();
        // Central differences: error O(eps²) ≈ 1e-12, plus rounding 1e-16/eps ≈
        // 1e-10.
        assert!(j < 1e-8 && j_dot < 1e-8, "seed {seed}: J {j:e}, J̇ {j_dot:e}");
    }
}

#[test]
fn the_vector_condition_is_a_zero_length_spring_that_also_damps_turning() {
    // C = x_a − x_b with E = k_s/2 |C|²: the force is −k_s Jᵀ C − k_d Jᵀ J v, i.e.
    // −k_s (x_a − x_b) − k_d (v_a − v_b), exactly. Its stiffness is a zero-rest-length
    // DampedSpring's; its damping is not: the spring damps only the stretching rate,
    // the vector condition all relative motion, turning included.
    let c = Coincide::new(0, 1).unwrap();
    let (k_s, k_d) = (30.0, 1.5);
    for seed in 0..50 {
        let x = [sample_vector::<3>(4 * seed), sample_vector::<3>(4 * seed + 1)];
        let v = [sample_vector::<3>(4 * seed + 2), sample_vector::<3>(4 * seed + 3)];
        let (j, j_dot) = finite_difference_errors(&c, &x, &v).unwrap();
        assert!(j < 1e-8 && j_dot == 0.0, "seed {seed}: J {j:e}, J̇ {j_dot:e}");
        let mut particles: Vec<Particle<3>> =
            (0..2).map(|i| Particle::new(1.0, x[i], v[i]).unwrap()).collect();
        SoftCondition::new(c.clone(), k_s, k_d)
            .unwrap()
            .apply(0.0, &mut particles)
            .unwrap();
        let expected = -(x[0] - x[1]) * k_s - (v[0] - v[1]) * k_d;
        assert!((particles[0].f - expected).norm() < 1e-13 * (1.0 + expected.norm()));
        assert_eq!(particles[1].f, -particles[0].f);
        // Undamped, it is the zero-rest-length spring to rounding.
        let undamped = SoftCondition::new(c.clone(), k_s, 0.0).unwrap();
        let spring = DampedSpring::new(0, 1, k_s, 0.0, 0.0).unwrap();
        let mut a = particles.clone();
        a.iter_mut().for_each(|p| p.f = Vector3::zeros());
        undamped.apply(0.0, &mut a).unwrap();
        let s = spring.force_on_a(&particles).unwrap();
        assert!((a[0].f - s).norm() < 1e-13 * (1.0 + s.norm()), "seed {seed}");
    }
    // Two particles circling each other at a fixed distance: the spring's damping is
    // zero (the length does not change); the vector condition's is not.
    let p = |x: f64, vy: f64| {
        Particle::new(1.0, Vector2::new(x, 0.0), Vector2::new(0.0, vy)).unwrap()
    };
    let mut turning = vec![p(0.5, 1.0), p(-0.5, -1.0)];
    SoftCondition::new(Coincide::new(0, 1).unwrap(), 0.0, k_d)
        .unwrap()
        .apply(0.0, &mut turning)
        .unwrap();
    assert_eq!(turning[0].f, Vector2::new(0.0, -2.0 * k_d));
    let spring = DampedSpring::new(0, 1, 0.0, k_d, 0.0).unwrap();
    assert_eq!(spring.force_on_a(&turning).unwrap(), Vector2::zeros());
}

#[test]
fn a_soft_distance_condition_pulls_like_a_spring_and_stores_its_energy() {
    // Two particles 1.5 m apart that want to be 1 m apart: the soft condition's force
    // is the undamped spring's, and its energy k/2 C² is the spring's.
    let p = |x: f64, v: f64| {
        Particle::new(1.0, Vector2::new(x, 0.0), Vector2::new(v, 0.0))
    };
    let mut particles = vec![p(0.0, 0.3).unwrap(), p(1.5, -0.2).unwrap()];
    let soft =
        SoftCondition::new(Distance::new(0, 1, 1.0).unwrap(), 40.0, 2.0).unwrap();
    soft.apply(0.0, &mut particles).unwrap();
    let spring = DampedSpring::new(0, 1, 40.0, 2.0, 1.0).unwrap();
    let expected = spring.force_on_a(&particles).unwrap();
    assert!(
        (particles[0].f - expected).norm() < 1e-12,
        "{} vs {expected}",
        particles[0].f
    );
    assert!((particles[1].f + expected).norm() < 1e-12);
    let energy = Force::<2>::potential_energy(&soft, &particles);
    assert!(
        (energy - Force::<2>::potential_energy(&spring, &particles)).abs() < 1e-12
    );
    assert!((energy - 0.5 * 40.0 * 0.25).abs() < 1e-12);
}

#[test]
fn scripted_particles_carry_their_velocity_into_spring_damping() {
    // A free particle placed beside the motor and moving with exactly the motor's
    // velocity: the spring between them neither stretches nor changes length, so its
    // damping term must be zero. With a zero velocity stored for the motor it would
    // not be.
    let (x, v, _) = motor_on_circle(0.0);
    let motor = Particle::new(1.0, x, v)
        .unwrap()
        .with_motion(Motion::Scripted(motor_on_circle));
    let rider = Particle::new(1.0, x + Vector2::new(0.1, 0.0), v).unwrap();
    let mut system = ParticleSystem::new(vec![motor, rider]);
    system.add_force(DampedSpring::new(0, 1, 0.0, 5.0, 0.1).unwrap()).unwrap();
    let mut d = vec![0.0; system.dimension()];
    system.derivative(&mut d).unwrap();
    assert_eq!(
        &d[0..2],
        v.as_slice(),
        "the motor's derivative is its scripted velocity"
    );
    assert!(
        d[6].abs() < 1e-15 && d[7].abs() < 1e-15,
        "damping force on the rider: {:?}",
        &d[6..8]
    );
    // The solver does not move scripted particles: after a step the motor is on its
    // circle.
    RungeKutta::new(RK4).step(&mut system, 0.1).unwrap();
    let (expected, _, _) = motor_on_circle(0.1);
    assert!((system.particles[0].x - expected).norm() < 1e-15);
}

#[test]
fn invalid_models_are_errors() {
    let z = Vector3::zeros();
    assert!(Particle::new(0.0, z, z).is_err());
    assert!(Particle::new(-1.0, z, z).is_err());
    assert!(Particle::new(1.0, Vector3::new(f64::NAN, 0.0, 0.0), z).is_err());
    assert!(DampedSpring::new(0, 1, 1.0, 0.0, -1.0).is_err());
    assert!(
        spring_force((&z, &z), (&z, &z), (1.0, 0.1, 0.5)).is_err(),
        "zero-length spring"
    );
    let two =
        vec![Particle::new(1.0, z, z).unwrap(), Particle::new(1.0, z, z).unwrap()];
    assert!(DampedSpring::at_rest(&two, 0, 1, 1.0, 0.0).is_err(), "coincident ends");
    let mut system = ParticleSystem::new(two);
    assert!(
        system.add_force(DampedSpring::new(0, 5, 1.0, 0.0, 1.0).unwrap()).is_err()
    );
    assert!(PairLaw::new(1.0, 0.5, 0.2).is_err());
}

#[test]
fn resting_contact_holds_a_particle_on_the_plane() {
    // A ball lying on the ground: the contact force cancels gravity exactly, so it
    // stays put.
    let (mut system, _) = pbm_particles::scenes::ball(0.0).unwrap();
    let mut rk4 = RungeKutta::new(RK4);
    for _ in 0..1000 {
        rk4.step(&mut system, 0.001).unwrap();
    }
    assert!(system.particles[0].x.norm() < 1e-12, "{:?}", system.particles[0].x);
    assert!(system.particles[0].v.norm() < 1e-12);
}

#[test]
fn linear_friction_decays_sliding_speed_exponentially() {
    // Sliding on the ground, pressed by gravity: the friction force −k_f (m g) v_t
    // gives v(t) = v0 exp(−k_f g t), a closed form to compare with.
    use pbm_particles::collision::{Plane, PlaneContact};
    use pbm_particles::forces::Gravity;
    let k_f = 0.05;
    let g = G;
    let slider =
        Particle::new(2.0, Vector2::zeros(), Vector2::new(3.0, 0.0)).unwrap();
    let mut system = ParticleSystem::new(vec![slider]);
    system.add_force(Gravity { g: Vector2::new(0.0, -g) }).unwrap();
    let ground = Plane::new(Vector2::zeros(), Vector2::new(0.0, 1.0)).unwrap();
    system
        .add_force(PlaneContact { plane: ground, k_friction: k_f, tolerance: 1e-6 })
        .unwrap();
    let mut rk4 = RungeKutta::new(RK4);
    let (h, steps) = (0.01, 200);
    for _ in 0..steps {
        rk4.step(&mut system, h).unwrap();
    }
    let expected = 3.0 * (-k_f * g * h * steps as f64).exp();
    let v = system.particles[0].v;
    // RK4 at h = 0.01 on a decay of rate 0.49/s: error far below 1e-9.
    assert!((v.x - expected).abs() < 1e-9, "{} vs {expected}", v.x);
    assert!(v.y.abs() < 1e-12 && system.particles[0].x.y.abs() < 1e-12);
}

#[test]
fn the_beams_stiffest_mode_is_near_133_hz() {
    // K = −∂f/∂x over the free particles by central differences at the start (the
    // springs at rest length, no velocity, so damping adds nothing); the largest
    // eigenvalue of M^-1 K is ω². RK4 is stable for h ω < 2.83, about 3.4 ms.
    use nalgebra::DMatrix;
    use pbm_particles::particle::Motion;
    let mut s = pbm_particles::scenes::beam(false).unwrap();
    let free: Vec<usize> = (0..s.particles.len())
        .filter(|&i| matches!(s.particles[i].motion, Motion::Free))
        .collect();
    let n = 2 * free.len();
    let forces = |s: &mut pbm_particles::particle::ParticleSystem<2>| {
        s.accumulate_forces().unwrap();
        free.iter().flat_map(|&i| [s.particles[i].f.x, s.particles[i].f.y]).collect()
    };
    let (mut k, eps) = (DMatrix::zeros(n, n), 1e-7);
    for (a, &i) in free.iter().enumerate() {
        let mass = s.particles[i].mass;
        for d in 0..2 {
            s.particles[i].x[d] += eps;
            let plus: Vec<f64> = forces(&mut s);
            s.particles[i].x[d] -= 2.0 * eps;
            let minus: Vec<f64> = forces(&mut s);
            s.particles[i].x[d] += eps;
            for r in 0..n {
                k[(r, 2 * a + d)] = -(plus[r] - minus[r]) / (2.0 * eps) / mass;
            }
        }
    }
    let symmetric = (&k + k.transpose()) * 0.5;
    let omega = symmetric.symmetric_eigenvalues().max().sqrt();
    let hertz = omega / std::f64::consts::TAU;
    assert!((hertz - 133.0).abs() < 1.0, "{hertz} Hz");
    let rk4_limit = 2.828 / omega;
    assert!((3.3e-3..3.5e-3).contains(&rk4_limit), "{rk4_limit}");
}

#[test]
fn linear_friction_on_a_ramp_levels_the_speed_at_tan_angle_over_k_f() {
    // Along a ramp tilted by θ: m v' = m g sin θ − k_f (m g cos θ) v, so v rises to
    // tan θ / k_f with time constant 1 / (k_f g cos θ); without friction v = g sin θ t.
    // The contact force keeps the particle on the ramp throughout.
    let angle = 20f64.to_radians();
    for k_f in [0.5, 1.0, 2.0] {
        let run = ramp_slide(angle, k_f, 0.01, 3.0).unwrap();
        let tau = 1.0 / (k_f * G * angle.cos());
        for &(t, v, d) in &run {
            let exact = angle.tan() / k_f * (1.0 - (-t / tau).exp());
            // RK4 at h / τ up to 0.19: a local error of about 3e-7 m/s at worst.
            assert!((v - exact).abs() < 2e-6, "k_f {k_f}, t {t}: {v} vs {exact}");
            assert!(d.abs() < 1e-12, "k_f {k_f}, t {t}: {d:e} off the ramp");
        }
    }
    let free = ramp_slide(angle, 0.0, 0.01, 1.0).unwrap();
    let &(t, v, _) = free.last().unwrap();
    assert!((v - G * angle.sin() * t).abs() < 1e-10, "{v}");
}

#[test]
fn a_resting_particle_leaves_the_floor_when_the_pull_beats_its_weight() {
    // Pulled up at 5 N/s, a 1 kg particle stays put until 5 t = m g, then rises as
    // y = 5 (t − t₀)³ / 6 (the net force grows linearly from zero).
    let (rate, h) = (5.0, 0.001);
    let run = pulled_off_the_floor(rate, h, 3.0).unwrap();
    let t0 = G / rate;
    for &(t, y) in &run {
        if t < t0 - h {
            assert!(
                y == 0.0,
                "t {t}: lifted to {y:e} before the pull beat the weight"
            );
        }
        let exact = rate * (t - t0).max(0.0).powi(3) / 6.0;
        assert!((y - exact).abs() < 1e-4 * (1.0 + exact), "t {t}: {y} vs {exact}");
    }
}

/// Records every block a force adds.
#[derive(Default)]
struct Recorder(Vec<(usize, usize, nalgebra::Matrix3<f64>, nalgebra::Matrix3<f64>)>);

impl pbm_particles::particle::JacobianSink<3> for Recorder {
    fn add(
        &mut self,
        i: usize,
        j: usize,
        dfdx: &nalgebra::Matrix3<f64>,
        dfdv: &nalgebra::Matrix3<f64>,
    ) {
        self.0.push((i, j, *dfdx, *dfdv));
    }
}

#[test]
fn a_spring_adds_one_block_with_the_signs_of_its_four_pairs() {
    let particles = vec![
        Particle::new(1.0, Vector3::new(0.0, 0.0, 0.0), Vector3::zeros()).unwrap(),
        Particle::new(1.0, Vector3::new(0.3, 1.2, -0.4), Vector3::zeros()).unwrap(),
    ];
    let spring = DampedSpring::new(0, 1, 50.0, 2.0, 1.0).unwrap();
    let mut sink = Recorder::default();
    Force::<3>::add_jacobians(&spring, 0.0, &particles, &mut sink).unwrap();
    let pairs: Vec<(usize, usize)> =
        sink.0.iter().map(|&(i, j, ..)| (i, j)).collect();
    assert_eq!(pairs, [(0, 0), (0, 1), (1, 0), (1, 1)]);
    let (dfdx, dfdv) = (sink.0[0].2, sink.0[0].3);
    for &(i, j, x, v) in &sink.0 {
        let sign = if i == j { 1.0 } else { -1.0 };
        assert_eq!((x, v), (dfdx * sign, dfdv * sign));
    }
    // The stretched spring's stiffness is not zero, nor is its damping.
    assert!(dfdx.norm() > 0.0 && dfdv.norm() > 0.0);
}

#[test]
fn the_scaling_experiments_neighbour_count_is_pi_r_c_squared_give_or_take_its_lattice()
 {
    // The points fill the plane at one particle per spacing², and the cutoff is 2.5
    // spacings, so points spread at random would have π·2.5² ≈ 19.6 neighbours each.
    // The experiment's points are a low-discrepancy sequence, close to a lattice
    // whose shape changes with n, so the count per particle wanders around that
    // value: 15 to 21 at the sizes the figure draws, 17.1 at the throughput run's
    // 100,000. The page quotes the measured counts, never one typed number, and the
    // grid's candidates stay near 3² cells × 2.5² = 56 per particle.
    let law = pbm_particles::scenes::scaling_law().unwrap();
    let expected = std::f64::consts::PI * 2.5 * 2.5;
    let sizes = (6..=17).map(|k| 1usize << k).chain([1250, 20_000, 100_000]);
    for n in sizes {
        let x = pbm_particles::scenes::scaling_points(n);
        let pairs = pbm_particles::interaction::interacting_pairs(&law, &x);
        let neighbours = pairs as f64 / n as f64;
        assert!(
            (0.75 * expected..1.1 * expected).contains(&neighbours),
            "{n}: {neighbours}"
        );
        let (_, checks) = pair_checks(&law, &x);
        // Fewer near the edges of a small square, where cells lie outside it.
        let checks = checks as f64 / n as f64;
        assert!((0.5 * 56.25..56.25).contains(&checks), "{n}: {checks}");
        if n == 100_000 {
            assert_eq!(pairs, 1_708_330, "the count the page quotes as about 17");
        }
    }
}

#[test]
fn the_counting_sort_of_the_pages_twelve_particles_is_the_one_its_caption_reads() {
    // interaction.md's grid-sort figure: twelve scattered points in 3 × 3 cells of
    // side 1. The caption names cell 2 as empty and cell 5's particles, 2 and 11, in
    // slots 5 and 6; the counting sort must give exactly these arrays.
    let x = scattered_points(12, 3.0);
    let grid = pbm_particles::interaction::UniformGrid::build(&x, 1.0);
    assert_eq!(grid.starts(), [0, 1, 3, 3, 4, 5, 7, 8, 10, 12]);
    assert_eq!(grid.order(), [5, 0, 7, 9, 4, 2, 11, 1, 3, 8, 6, 10]);
    // Each particle sits in its own cell's run, in increasing index order.
    for b in 0..9 {
        let run =
            &grid.order()[grid.starts()[b] as usize..grid.starts()[b + 1] as usize];
        assert!(run.windows(2).all(|w| w[0] < w[1]));
        for &i in run {
            assert_eq!(grid.bucket_at(&x[i as usize]), Some(b));
        }
    }
}
