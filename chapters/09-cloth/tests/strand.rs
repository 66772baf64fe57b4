//! Discretization invariance (Kass): with stiffnesses per unit length, the same
//! strand sampled at 10, 20, 40 or 80 segments settles into the same shape, up to
//! an error that halves as the sampling doubles; with the constants of the
//! 10-segment strand kept, it does not.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm_cloth::strand::{Material, Scaling, cantilever, settle, small_sag};
use pbm_particles::forces::G;

/// A 20 cm strand of 5 g/m, stiff enough to sag only 5 % of its length.
const STIFF: Material =
    Material { length: 0.2, density: 0.005, stretch: 100.0, bend: 1e-3 };

fn sag(material: &Material, segments: usize, scaling: Scaling) -> f64 {
    let mut strand = cantilever(material, segments, scaling, G).unwrap();
    -settle(&mut strand).unwrap().y
}

#[test]
fn scaled_stiffness_gives_one_sag_whose_error_halves_with_each_doubling() {
    let sags: Vec<f64> = [10, 20, 40, 80]
        .iter()
        .map(|&n| sag(&STIFF, n, Scaling::PerLength))
        .collect();
    let steps: Vec<f64> = sags.windows(2).map(|w| w[1] - w[0]).collect();
    for pair in steps.windows(2) {
        let ratio = pair[0] / pair[1];
        assert!((1.8..2.2).contains(&ratio), "sags {sags:?}: ratio {ratio}");
    }
    // Richardson: the limit of a first-order sequence is 2 s(2n) − s(n). For a sag
    // of 5 % the small-deflection beam formula w L⁴ / (8 B) holds to about 1 %.
    let limit = 2.0 * sags[3] - sags[2];
    let beam = small_sag(&STIFF, G);
    assert!((limit / beam - 1.0).abs() < 0.01, "limit {limit} vs beam {beam}");
}

#[test]
fn fixed_spring_constants_make_a_finer_strand_floppier() {
    let coarse = sag(&STIFF, 10, Scaling::FixedAt(10));
    let fine = sag(&STIFF, 80, Scaling::FixedAt(10));
    let right = sag(&STIFF, 80, Scaling::PerLength);
    assert!(fine > 5.0 * coarse, "{coarse} → {fine}");
    assert!(fine > 5.0 * right, "{fine} vs {right}");
}

#[test]
fn bad_strands_are_errors() {
    assert!(cantilever(&STIFF, 1, Scaling::PerLength, G).is_err());
    assert!(cantilever(&STIFF, 10, Scaling::FixedAt(0), G).is_err());
    let negative = Material { bend: -1.0, ..STIFF };
    let message = cantilever(&negative, 10, Scaling::PerLength, G).err().unwrap();
    assert!(message.to_string().contains("bending stiffness"), "{message}");
}

#[test]
fn a_joint_bent_at_rest_has_a_hessian_that_grows_like_its_rest_angle_over_its_angle()
{
    // The hair page's pitfall: in space θ = arccos(û·ŵ) has no sign. Moving the
    // last particle of a joint of unit segments out of the plane of its bend by ζ
    // keeps θ'(0) = 0 and gives θ''(0) = cot θ, so ½(θ − θ₀)² has the entry
    // (θ − θ₀) cot θ ≈ 1 − θ₀/θ: bounded for a straight rest, growing like θ₀/θ
    // and negative for a bent one. Central differences of the energy alone agree
    // to about (e/θ)² = 1e-4 relative.
    use nalgebra::Vector3;
    use pbm_cloth::strand::space_joint_hessian;
    for rest in [0.0, 0.3] {
        for theta in [1e-1, 1e-2, 1e-3] {
            let x = [
                Vector3::new(-1.0, 0.0, 0.0),
                Vector3::zeros(),
                Vector3::new(f64::cos(theta), f64::sin(theta), 0.0),
            ];
            let h = space_joint_hessian(&x, rest, 1e-2 * theta);
            let exact = (theta - rest) / theta.tan();
            assert!(
                (h[8][8] - exact).abs() < 1e-3 * exact.abs().max(1.0),
                "θ₀ = {rest}, θ = {theta}: {} vs {exact}",
                h[8][8]
            );
            let largest = h.iter().flatten().fold(0.0_f64, |m, v| m.max(v.abs()));
            if rest == 0.0 {
                // The middle particle's own block, 4 k / l², is the largest.
                assert!(largest < 4.0 + 1e-3, "θ = {theta}: {largest}");
            } else {
                assert!(largest > rest / theta, "θ = {theta}: {largest}");
            }
        }
    }
}
