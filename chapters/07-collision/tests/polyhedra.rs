//! Polyhedra in 3-D: the contacts a resting cube should have, the statuses around ε,
//! and the separating plane kept as a witness over a coherent motion.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::{UnitQuaternion, Vector3};
use pbm_collision::polyhedron::{
    ConvexPolyhedron, Feature, PlaneCache, Status, contacts, penetration, separation,
    separation_counted,
};
use pbm_collision::scenes::TumblingPass;

const EPS: f64 = 1e-3;

fn v(x: f64, y: f64, z: f64) -> Vector3<f64> {
    Vector3::new(x, y, z)
}

fn cuboid(c: Vector3<f64>, h: Vector3<f64>) -> ConvexPolyhedron {
    ConvexPolyhedron::cuboid(c, h).unwrap()
}

fn count(found: &[pbm_collision::polyhedron::Contact]) -> (usize, usize) {
    let vf = found.iter().filter(|c| matches!(c.feature, Feature::VertexFace { .. }));
    let ee = found.iter().filter(|c| matches!(c.feature, Feature::EdgeEdge { .. }));
    (vf.count(), ee.count())
}

#[test]
fn a_cube_resting_face_down_on_a_plane_touches_at_four_vertices() {
    // The plane: the top face (z = 0) of a wide slab.
    let slab = cuboid(v(0.0, 0.0, -0.5), v(10.0, 10.0, 0.5));
    let cube = cuboid(v(0.3, -0.2, 0.5), v(0.5, 0.5, 0.5));
    let found = contacts(&slab, &cube, EPS);
    assert_eq!(count(&found), (4, 0), "{found:?}");
    for c in &found {
        assert!((c.normal - Vector3::z()).norm() < 1e-12 && c.point.z.abs() < 1e-12);
    }
    // Turned about the vertical and lifted by less than ε: still four.
    let turned = cube.placed(
        v(0.0, 0.0, 0.5 * EPS),
        UnitQuaternion::from_scaled_axis(v(0.0, 0.0, 0.3)),
    );
    assert_eq!(count(&contacts(&slab, &turned, EPS)), (4, 0));
}

#[test]
fn a_cube_over_a_table_edge_touches_at_two_vertices_and_two_edge_crossings() {
    // The table's top is z = 0 for y < 0; its edge runs along x at y = 0. The cube
    // spans y from −0.3 to 0.7: 0.3 of it on the table, the rest over the edge.
    let table = cuboid(v(0.0, -5.0, -0.5), v(10.0, 5.0, 0.5));
    let cube = cuboid(v(0.0, 0.2, 0.5), v(0.5, 0.5, 0.5));
    let found = contacts(&table, &cube, EPS);
    assert_eq!(count(&found), (2, 2), "{found:?}");
    for c in &found {
        match c.feature {
            Feature::VertexFace { vertex_of_b, .. } => {
                assert!(vertex_of_b && (c.point.y + 0.3).abs() < 1e-12, "{c:?}");
            }
            Feature::FacePoint { .. } => panic!("contacts() never clips: {c:?}"),
            Feature::EdgeEdge { dir_a, dir_b, .. } => {
                // The table's edge (along x) crosses the cube's bottom edges (along y)
                // at y = 0, x = ±0.5.
                assert!(dir_a.cross(&dir_b).normalize().z.abs() > 1.0 - 1e-12);
                assert!(
                    c.point.y.abs() < 1e-12 && (c.point.x.abs() - 0.5).abs() < 1e-12
                );
            }
        }
        assert!((c.normal - Vector3::z()).norm() < 1e-12);
    }
}

#[test]
fn an_edge_resting_across_an_edge_is_one_edge_edge_contact() {
    // A bar lying along y across the top edge of a bar lying along x, both turned
    // 45° so that edges meet: the contact is one point, normal vertical.
    let q = |axis: Vector3<f64>| {
        UnitQuaternion::from_scaled_axis(axis * std::f64::consts::FRAC_PI_4)
    };
    let r = 0.5 * 2f64.sqrt();
    let lower = cuboid(Vector3::zeros(), v(2.0, 0.5, 0.5))
        .placed(Vector3::zeros(), q(Vector3::x()));
    let upper = cuboid(Vector3::zeros(), v(0.5, 2.0, 0.5))
        .placed(v(0.0, 0.0, 2.0 * r), q(Vector3::y()));
    let found = contacts(&lower, &upper, EPS);
    assert_eq!(count(&found), (0, 1), "{found:?}");
    assert!((found[0].point - v(0.0, 0.0, r)).norm() < 1e-12);
    assert!((separation(&lower, &upper).0).abs() < 1e-12);
}

#[test]
fn the_three_statuses_sit_either_side_of_epsilon() {
    let slab = cuboid(v(0.0, 0.0, -0.5), v(10.0, 10.0, 0.5));
    let at = |z: f64| cuboid(v(0.0, 0.0, z + 0.5), v(0.5, 0.5, 0.5));
    let status = |z: f64| PlaneCache::default().test(&slab, &at(z), EPS);
    assert_eq!(status(2.0 * EPS), Status::Disjoint);
    assert_eq!(status(0.5 * EPS), Status::Contact);
    assert_eq!(status(-0.5 * EPS), Status::Contact);
    assert_eq!(status(-2.0 * EPS), Status::Interpenetrating);
    assert!(penetration(&slab, &at(-2.0 * EPS)).is_some());
    assert!(penetration(&slab, &at(2.0 * EPS)).is_none());
}

#[test]
fn a_tumbling_cube_passing_another_reuses_its_witness_almost_always() {
    // The exercise's pass: a cube passing by along x, 1.45 above, while tumbling
    // about a tilted axis.
    let pass = TumblingPass::BOOK;
    let fixed = TumblingPass::cube().unwrap();
    let mut cache = PlaneCache::default();
    let mut closest = f64::INFINITY;
    for k in 0..pass.steps {
        let moving = pass.moving(&fixed, k);
        let status = cache.test(&fixed, &moving, EPS);
        let d = separation(&fixed, &moving).0;
        closest = closest.min(d);
        // The cache's answer agrees with the full search at every step.
        assert_eq!(status == Status::Disjoint, d > EPS, "step {k}");
    }
    assert!(closest > EPS && closest < 0.2, "closest approach {closest}");
    let rate = cache.reused as f64 / pass.steps as f64;
    assert!(rate > 0.95, "reused {} of {}", cache.reused, pass.steps);
}

#[test]
fn the_separating_plane_exercise_counts_the_directions_the_search_tries() {
    // Review C7-1: the exercise once charged every search 2(6 + 6 + 12 × 12) = 312
    // directions while the search kept one edge per direction. Its counts now come
    // from the search, and must be 2(F_A + F_B + D_A·D_B) for two cubes.
    let run =
        pbm_prelim::testing::run(&pbm_collision::chapter(), "separating-plane", &[])
            .unwrap();
    let count = |key: &str| run[key].as_u64().unwrap() as usize;
    let cube = TumblingPass::cube().unwrap();
    let (faces, directions) = (cube.faces().len(), cube.edge_directions().len());
    let per_search = 2 * (faces + faces + directions * directions);
    assert_eq!((faces, directions, per_search), (6, 3, 42));
    let pass = TumblingPass::BOOK;
    for k in [0, 1, pass.steps / 2] {
        let (_, _, tried) = separation_counted(&cube, &pass.moving(&cube, k), 0.0);
        assert_eq!(tried, per_search, "step {k}");
    }
    assert_eq!(count("directions_per_search"), per_search);
    assert_eq!(count("directions_every_edge_pair"), 2 * (6 + 6 + 12 * 12));
    assert_eq!(count("axes_without_witness"), pass.steps * per_search);
    // Every test but the first tries the witness (one direction), and each search
    // tries them all.
    let (reused, searched) = (count("reused"), count("searched"));
    assert_eq!(reused + searched, pass.steps);
    assert_eq!(count("axes_tested"), reused + (searched - 1) + searched * per_search);
}

#[test]
fn a_turned_block_over_a_table_edge_touches_at_two_corners_and_two_edge_crossings() {
    // The scene of the narrow-phase page's figure: the block's edges cross the table's
    // at a slant, not square as in the test above.
    let (table, block) = pbm_collision::scenes::table_edge().unwrap();
    let found = contacts(&table, &block, 1e-4);
    assert_eq!(count(&found), (2, 2), "{found:?}");
    for c in &found {
        assert!(c.point.y.abs() < 1e-9, "{:?}", c.point);
        match c.feature {
            Feature::VertexFace { .. } => assert!(c.point.x < 0.0, "{:?}", c.point),
            Feature::FacePoint { .. } => panic!("contacts() never clips: {c:?}"),
            Feature::EdgeEdge { .. } => {
                assert!(c.point.x.abs() < 1e-9, "{:?}", c.point)
            }
        }
    }
}

#[test]
fn clipping_keeps_the_corners_of_faces_flush_to_roundoff() {
    use pbm_collision::polyhedron::clipped_contacts;
    // A cube on another, its sides on the lower cube's sides but for roundoff (turned
    // 4e-13 rad about the vertical, so one end of each side is out by 1e-13 m and the
    // other in) or for a micrometre: the clipped points must be the four corners of
    // the upper cube's bottom face, not points along its edges, and four, not more.
    let lower = cuboid(v(0.0, 0.0, 0.0), v(0.25, 0.25, 0.25));
    for (turn, shift) in [(4e-13, 0.0), (0.0, 1e-6), (1e-7, 1e-6)] {
        let about_z = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), turn);
        let upper = cuboid(v(0.0, 0.0, 0.0), v(0.25, 0.25, 0.25))
            .placed(v(shift, -shift, 0.5), about_z);
        let (gap, w) = separation(&lower, &upper);
        assert!(gap.abs() < 1e-9, "{gap}");
        let found = clipped_contacts(&lower, &upper, w, EPS);
        assert_eq!(found.len(), 4, "turn {turn}, shift {shift}: {found:?}");
        for c in &found {
            let corner = upper.vertices().iter().map(|p| (p - c.point).norm());
            let off = corner.fold(f64::INFINITY, f64::min);
            assert!(off < 1e-12, "turn {turn}, shift {shift}: {c:?} is {off} m off");
        }
    }
}

#[test]
fn clipping_finds_the_corners_of_a_tilted_sunken_cube_and_the_table_edge() {
    use pbm_collision::polyhedron::{SIDE_SLACK, clipped_contacts, contacts_on};
    // A cube half over the table's edge (y > 0 is off the table), sunk 2 cm into it
    // and turned 1° about y: contacts_on's features within ε find nothing so deep.
    let table = cuboid(v(0.0, -5.0, -0.5), v(10.0, 5.0, 0.5));
    let turn = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 1f64.to_radians());
    let cube =
        cuboid(v(0.0, 0.0, 0.0), v(0.5, 0.5, 0.5)).placed(v(0.0, 0.2, 0.48), turn);
    let (depth, w) = separation(&table, &cube);
    assert!(depth < -0.01, "{depth}");
    assert!(contacts_on(&table, &cube, w, EPS).is_empty());
    let found = clipped_contacts(&table, &cube, w, EPS);
    // The cube's bottom face clipped to the table's top: two corners on the table
    // (y = −0.3) and two points where its sides cross the table's edge (y = 0, moved
    // out by the slack, a share of the face's diagonal).
    assert_eq!(found.len(), 4, "{found:?}");
    let edge = SIDE_SLACK * 2f64.sqrt();
    let on_edge = found.iter().filter(|c| (c.point.y - edge).abs() < 1e-9).count();
    let corners = found.iter().filter(|c| (c.point.y + 0.3).abs() < 1e-9).count();
    assert_eq!((on_edge, corners), (2, 2), "{found:?}");
    for c in &found {
        assert!(matches!(c.feature, Feature::FacePoint { of_b: true, .. }), "{c:?}");
        // Every point is below the table's top (z = 0), by the sinking and the tilt.
        assert!(c.point.z < -0.01 && c.point.z > -0.03, "{c:?}");
        assert!((c.normal - Vector3::z()).norm() < 1e-12, "{c:?}");
    }
}
