//! The cloth touching itself: the penalty's force and stiffness against central
//! differences, the pair's forces conserving momentum, the tree finding every pair
//! brute force finds, and the folded napkin landing on itself with the response
//! and falling through without it.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::{DMatrix, DVector, Matrix3, Vector3};
use pbm_cloth::check::Draws;
use pbm_cloth::cloth::{Cloth, Material};
use pbm_cloth::scenes::{self, folded, run};
use pbm_cloth::self_contact::{
    BORDER, Proximity, RankOne, SelfContact, WithPairs, foot, penalty, penalty_energy,
};
use pbm_collision::bvh::folded_sheet;
use pbm_implicit::block_sparse::BlockSparse;
use pbm_implicit::cg::{BlockJacobi, LinearOperator};

type V3 = Vector3<f64>;

const K: f64 = 100.0;
const TAU: f64 = 0.01;

/// A triangle about 10 cm across, turned at random, and a vertex over it at
/// height `height` on side `side`, its foot at random inside the triangle.
fn vertex_over_triangle(rng: &mut Draws, height: f64, side: f64) -> [V3; 4] {
    let a = rng.vector(0.05);
    let b = a + V3::new(0.1, 0.0, 0.0) + rng.vector(0.03);
    let c = a + V3::new(0.02, 0.1, 0.0) + rng.vector(0.03);
    let n = (b - a).cross(&(c - a)).normalize();
    let (u, v) = (rng.uniform(), rng.uniform());
    let (u, v) = if u + v > 1.0 { (1.0 - u, 1.0 - v) } else { (u, v) };
    let q = a + (b - a) * u + (c - a) * v;
    [q + n * (height * side), a, b, c]
}

/// The pair of `x` seen from `side`, as `find` makes it.
fn pair_of(x: &[V3; 4], side: f64) -> Proximity {
    let (n, height, weights) = foot(&x[0], [&x[1], &x[2], &x[3]]).unwrap();
    Proximity {
        ids: [0, 1, 2, 3],
        weights,
        normal: n * side,
        distance: height * side,
    }
}

/// The penalty force on the four particles at `x`, from a pair found afresh there.
fn force_at(x: &[V3; 4], side: f64) -> [V3; 4] {
    penalty(&pair_of(x, side), K, TAU).1
}

/// `f` of the 12 coordinates of `x`, one moved by `delta`.
fn moved(x: &[V3; 4], coordinate: usize, delta: f64) -> [V3; 4] {
    let mut y = *x;
    y[coordinate / 3][coordinate % 3] += delta;
    y
}

#[test]
fn the_penalty_force_is_minus_the_gradient_of_the_energy() {
    // The energy is computed from the positions alone (the plane's normal and the
    // height), the force from the foot's weights: the derivation's claim that the
    // weights' and the normal's changes drop out. Central differences of a smooth
    // function of size E ~ k τ² agree to about 1e-9 relative.
    let mut rng = Draws::new(17);
    for trial in 0..200 {
        let side = if trial % 2 == 0 { 1.0 } else { -1.0 };
        let depth = TAU * (0.05 + 0.9 * rng.uniform());
        let x = vertex_over_triangle(&mut rng, TAU - depth, side);
        let force = force_at(&x, side);
        let e = 1e-7;
        for i in 0..12 {
            let fd = (penalty_energy(&moved(&x, i, e), side, K, TAU)
                - penalty_energy(&moved(&x, i, -e), side, K, TAU))
                / (2.0 * e);
            let f = force[i / 3][i % 3];
            assert!(
                (f + fd).abs() < 1e-7 * K * TAU,
                "trial {trial}, coordinate {i}: force {f}, −∂E/∂x {}",
                -fd
            );
        }
    }
}

/// The Hessian of the penalty energy at `x` by central differences of the force
/// (found afresh at each displaced position).
fn hessian(x: &[V3; 4], side: f64) -> DMatrix<f64> {
    let e = 1e-7;
    DMatrix::from_fn(12, 12, |r, c| {
        let plus = force_at(&moved(x, c, e), side)[r / 3][r % 3];
        let minus = force_at(&moved(x, c, -e), side)[r / 3][r % 3];
        -(plus - minus) / (2.0 * e)
    })
}

/// k g gᵀ, the stiffness the step adds, as a dense 12 × 12 matrix.
fn stiffness(pair: &Proximity) -> DMatrix<f64> {
    let g = pair.gradient();
    DMatrix::from_fn(12, 12, |r, c| K * g[r / 3][r % 3] * g[c / 3][c % 3])
}

#[test]
fn the_stiffness_is_the_hessian_but_for_the_depth_times_the_planes_curvature() {
    // ∇²E = k ∇d ∇dᵀ + k (τ − d)(−∇²d): the step keeps the first part. The vertex's
    // own block is exact (d is linear in the vertex), and the rest of the Hessian
    // differs by the depth τ − d times the curvature of d, of the order of one
    // over the triangle's size as the plane turns: at most 17 m⁻¹ for these 10 cm
    // triangles.
    let mut rng = Draws::new(5);
    for trial in 0..50 {
        let side = if trial % 2 == 0 { 1.0 } else { -1.0 };
        for depth in [1e-4, 1e-3, 5e-3] {
            let x = vertex_over_triangle(&mut rng, TAU - depth, side);
            let exact = hessian(&x, side);
            let kept = stiffness(&pair_of(&x, side));
            let vertex =
                (exact.view((0, 0), (3, 3)) - kept.view((0, 0), (3, 3))).amax();
            assert!(vertex < 1e-5 * K, "trial {trial}: vertex block off by {vertex}");
            let dropped = (&exact - &kept).amax();
            assert!(
                dropped < 40.0 * K * depth,
                "trial {trial}, depth {depth}: off by {dropped}, more than 40 k (τ − d)"
            );
        }
    }
}

#[test]
fn a_pairs_forces_sum_to_zero_and_turn_nothing() {
    // The triangle's share is spread by the foot's weights, which sum to one, and
    // every force lies on the line through the vertex and its foot: momentum and
    // angular momentum are untouched, to rounding of forces of size k τ.
    let mut rng = Draws::new(3);
    for _ in 0..100 {
        let side = if rng.uniform() < 0.5 { 1.0 } else { -1.0 };
        let height = TAU * rng.uniform();
        let x = vertex_over_triangle(&mut rng, height, side);
        let force = force_at(&x, side);
        let total: V3 = force.iter().sum();
        let torque: V3 = x.iter().zip(&force).map(|(x, f)| x.cross(f)).sum();
        assert!(total.norm() < 1e-15 * K * TAU * 1e3, "{total}");
        assert!(torque.norm() < 1e-15 * K * TAU * 1e3, "{torque}");
    }
}

#[test]
fn the_solve_with_pairs_is_the_matrix_plus_their_rank_one_terms() {
    // Four particles, an SPD block diagonal, and two pairs: the operator's product
    // must be the dense (D + Σ s g gᵀ) x, with the pairs' diagonal blocks moved
    // into the matrix.
    let mut rng = Draws::new(11);
    let mut matrix = BlockSparse::<3>::with_pattern(5, []);
    let mut dense = DMatrix::zeros(15, 15);
    for i in 0..5 {
        let b = Matrix3::from_fn(|_, _| rng.symmetric());
        let block = b * b.transpose() + Matrix3::identity();
        *matrix.block_mut(i, 0) = block;
        dense.view_mut((3 * i, 3 * i), (3, 3)).copy_from(&block);
    }
    let pairs: Vec<RankOne> = [[0, 1, 2, 3], [4, 2, 3, 0]]
        .iter()
        .map(|&ids| RankOne {
            ids,
            g: std::array::from_fn(|_| rng.vector(1.0)),
            scale: 0.7,
        })
        .collect();
    for pair in &pairs {
        for (m, &i) in pair.ids.iter().enumerate() {
            *matrix.block_mut(i, 0) += pair.diagonal(m);
            for (l, &j) in pair.ids.iter().enumerate() {
                let block = pair.g[m] * pair.g[l].transpose() * pair.scale;
                let mut view = dense.view_mut((3 * i, 3 * j), (3, 3));
                view += block;
            }
        }
    }
    let a = WithPairs { base: BlockJacobi::new(&matrix).unwrap(), pairs: &pairs };
    let x: Vec<f64> = (0..15).map(|_| rng.symmetric()).collect();
    let mut y = vec![0.0; 15];
    a.apply(&x, &mut y);
    let expected = &dense * DVector::from_column_slice(&x);
    for k in 0..15 {
        assert!(
            (y[k] - expected[k]).abs() < 1e-12,
            "{k}: {} vs {}",
            y[k],
            expected[k]
        );
    }
}

/// Every (vertex, triangle) pair of the mesh that the neighbour rule allows (some
/// triangle of the vertex shares no corner with the triangle), with the vertex's
/// foot inside the triangle and within `reach` of its plane: by brute force.
fn brute_force(
    triangles: &[[usize; 3]],
    x: &[V3],
    reach: f64,
) -> Vec<(usize, usize, f64)> {
    let mut pairs = Vec::new();
    for p in 0..x.len() {
        let own: Vec<&[usize; 3]> =
            triangles.iter().filter(|t| t.contains(&p)).collect();
        for (t, corners) in triangles.iter().enumerate() {
            if !own.iter().any(|s| s.iter().all(|v| !corners.contains(v))) {
                continue;
            }
            let [a, b, c] = corners.map(|i| &x[i]);
            let (_, height, w) = foot(&x[p], [a, b, c]).unwrap();
            if height.abs() <= reach && w.iter().all(|&w| w >= -BORDER) {
                pairs.push((p, t, height.abs()));
            }
        }
    }
    pairs
}

#[test]
fn the_tree_finds_every_pair_brute_force_finds() {
    // Chapter 7's folded sheet, its halves closing on each other: at every fold the
    // tree's pairs are brute force's, with the same distances.
    let (x0, triangles) = folded_sheet(12, 0.0);
    let mut contact = SelfContact::new(triangles.clone(), TAU, K).unwrap();
    let fixed = vec![false; x0.len()];
    let mut seen = 0;
    for k in 0..=20 {
        let angle = std::f64::consts::PI * (0.9 + 0.0999 * k as f64 / 20.0);
        let (x, _) = folded_sheet(12, angle);
        let reach = 0.05;
        let found = contact.find(&x, &fixed, reach).unwrap();
        let index = |ids: [usize; 4]| {
            let corners = [ids[1], ids[2], ids[3]];
            triangles.iter().position(|t| *t == corners).unwrap()
        };
        let mut ours: Vec<(usize, usize, f64)> = found
            .iter()
            .map(|p| (p.ids[0], index(p.ids), p.distance.abs()))
            .collect();
        ours.sort_by_key(|o| (o.0, o.1));
        let theirs = brute_force(&triangles, &x, reach);
        assert_eq!(ours.len(), theirs.len(), "angle {angle}");
        for (o, t) in ours.iter().zip(&theirs) {
            assert_eq!((o.0, o.1), (t.0, t.1), "angle {angle}");
            assert!((o.2 - t.2).abs() < 1e-15, "angle {angle}");
        }
        seen += ours.len();
    }
    assert!(seen > 0, "the halves never came within reach");
}

/// The napkin of `cloth/self-contact` at its defaults, responding or not.
fn napkin(respond: bool) -> Cloth {
    scenes::napkin(16, 10f64.to_radians(), (TAU, K), respond).unwrap()
}

#[test]
fn the_napkin_lands_on_itself_with_self_contact_and_falls_through_without() {
    let h = 1.0 / 30.0;
    // With it: no particle of the flap ever goes below the board (checked on every
    // particle, not through the pairs), none passes a triangle it was seen over,
    // and the flap comes to rest about the thickness above the glued half: the
    // penalty's give under a particle's weight, m g / k, is under 0.1 mm.
    let mut lowest = f64::INFINITY;
    let with = run(napkin(true), h, 60, false, 1, |c| {
        let flap = c.x.iter().zip(&c.pinned).filter(|(_, p)| !**p);
        lowest = flap.map(|(x, _)| x.z).fold(lowest, f64::min);
    })
    .unwrap();
    assert!(with.stable, "{:?}", with.failure);
    let closest = with.cloth.self_contact.as_ref().unwrap().closest.unwrap();
    assert!(closest > 0.0 && lowest > 0.0, "closest {closest}, lowest {lowest}");
    let c = &with.cloth;
    for (x, _) in c.x.iter().zip(&c.pinned).filter(|(x, p)| !**p && x.y < 0.55) {
        assert!((x.z - TAU).abs() < 1e-4, "a flap particle rests at {}", x.z);
    }
    // Without it: the flap passes through the glued half and hangs below the
    // board from the crease, its 40 cm nearly straight down.
    let without = run(napkin(false), h, 60, false, usize::MAX, |_| {}).unwrap();
    assert!(without.stable, "{:?}", without.failure);
    let closest = without.cloth.self_contact.as_ref().unwrap().closest.unwrap();
    assert!(closest < -TAU, "closest {closest}");
    let low = without.cloth.x.iter().map(|x| x.z).fold(f64::INFINITY, f64::min);
    assert!(low < -0.35, "the flap's lowest point is at {low} m");
    assert!(without.pairs.iter().all(|&p| p == 0));
}

#[test]
fn self_contact_in_the_implicit_step_keeps_the_momentum_of_a_free_cloth() {
    // The napkin let loose in zero gravity, its flap thrown at the other half: the
    // pairs' forces are internal, and the matrix's rows sum to zero over the
    // particles (every term moves with a common translation), so the step keeps
    // Σ m v to CG's residual.
    let mut model = napkin(true);
    model.pinned.fill(false);
    model.gravity = V3::zeros();
    model.drag = 0.0;
    model.cg_tolerance = 1e-12;
    for (v, x) in model.v.iter_mut().zip(&model.x) {
        *v = V3::new(0.0, 0.0, if x.z > 1e-9 { -1.0 } else { 0.2 });
    }
    let momentum =
        |c: &Cloth| -> V3 { c.v.iter().zip(&c.mass).map(|(v, m)| v * *m).sum() };
    let start = momentum(&model);
    let mut pushed = 0;
    for _ in 0..20 {
        pushed += model.backward_euler_step(1.0 / 30.0).unwrap().pairs;
        let now = momentum(&model);
        assert!((now - start).norm() < 1e-9 * start.norm(), "{now} vs {start}");
    }
    assert!(pushed > 0, "no pair ever pushed");
}

#[test]
fn bad_self_contact_and_napkins_are_errors() {
    assert!(SelfContact::new(vec![[0, 1, 2]], 0.0, K).is_err());
    assert!(SelfContact::new(vec![[0, 1, 2]], TAU, f64::NAN).is_err());
    let e = folded(16, 0.0, Material::COTTON).unwrap_err().to_string();
    assert!(e.contains("opening"), "{e}");
    // The explicit step does not do self-contact: it says so.
    let e = napkin(true).symplectic_euler_step(0.01).unwrap_err().to_string();
    assert!(e.contains("self-contact"), "{e}");
}

#[test]
fn a_pair_pushes_but_never_pulls_the_flap_down_faster_than_it_falls() {
    // A pair is in the solve only if the solved step ends inside the thickness; a
    // spring linearized there would otherwise pull a layer still above it down
    // toward it. So until the flap's far edge lands, it falls as it does with no
    // self-contact at all (by the second step its crease side has landed).
    let h = 1.0 / 30.0;
    let edge = |respond: bool, steps: usize| {
        let mut c = napkin(respond);
        for _ in 0..steps {
            c.backward_euler_step(h).unwrap();
        }
        (0..16).map(|j| c.x[15 * 16 + j].z).fold(f64::INFINITY, f64::min)
    };
    for steps in 1..=2 {
        let (with, without) = (edge(true, steps), edge(false, steps));
        // The rows by the crease land first and nudge the rest: by well under a
        // tenth of a millimetre.
        assert!((with - without).abs() < 1e-4, "{steps} steps: {with} vs {without}");
    }
}
