//! Polygon pairs in 2-D: the contacts they should have, the three statuses around the
//! tolerance ε, and the witness answering most tests in a coherent motion.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::Vector2;
use pbm_collision::polygon::{ConvexPolygon, PairCache, Status, contacts};
use std::f64::consts::PI;

const EPS: f64 = 1e-3;

fn v(x: f64, y: f64) -> Vector2<f64> {
    Vector2::new(x, y)
}

fn rect(cx: f64, cy: f64, hx: f64, hy: f64) -> ConvexPolygon {
    ConvexPolygon::rectangle(v(cx, cy), v(hx, hy)).unwrap()
}

#[test]
fn a_small_box_resting_on_a_wide_one_touches_at_its_two_bottom_corners() {
    let table = rect(0.0, 0.0, 2.0, 0.5);
    let block = rect(0.3, 1.0, 0.5, 0.5);
    let found = contacts(&table, &block, EPS);
    assert_eq!(found.len(), 2, "{found:?}");
    for c in &found {
        assert!(c.vertex_of_b && (c.normal - v(0.0, 1.0)).norm() < 1e-12);
        assert!((c.point.y - 0.5).abs() < 1e-12);
    }
    let mut xs: Vec<f64> = found.iter().map(|c| c.point.x).collect();
    xs.sort_by(f64::total_cmp);
    assert!((xs[0] + 0.2).abs() < 1e-12 && (xs[1] - 0.8).abs() < 1e-12, "{xs:?}");
    // Swapping the roles: the table's edge corners are not on the block, the
    // block's corners are on the table; the normal turns around.
    let swapped = contacts(&block, &table, EPS);
    assert_eq!(swapped.len(), 2);
    assert!(
        swapped
            .iter()
            .all(|c| !c.vertex_of_b && (c.normal - v(0.0, -1.0)).norm() < 1e-12)
    );
}

#[test]
fn equal_boxes_stacked_give_two_contacts_not_four() {
    let found = contacts(&rect(0.0, 0.0, 0.5, 0.5), &rect(0.0, 1.0, 0.5, 0.5), EPS);
    assert_eq!(found.len(), 2, "{found:?}");
}

#[test]
fn a_corner_on_a_face_is_one_contact() {
    let floor = rect(0.0, -1.0, 3.0, 1.0);
    let diamond = rect(0.0, 0.0, 0.5, 0.5).placed(v(0.0, 0.5_f64.sqrt()), PI / 4.0);
    let found = contacts(&floor, &diamond, EPS);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].point.norm() < 1e-9 && found[0].vertex_of_b);
    let triangle =
        ConvexPolygon::new(vec![v(0.0, 0.0), v(1.0, 1.0), v(-1.0, 1.0)]).unwrap();
    let found = contacts(&floor, &triangle, EPS);
    assert_eq!(found.len(), 1, "{found:?}");
}

#[test]
fn the_three_statuses_turn_at_plus_and_minus_epsilon() {
    let a = rect(0.0, 0.0, 1.0, 1.0);
    let at = |gap: f64| {
        PairCache::default().test(&a, &rect(2.0 + gap, 0.0, 1.0, 1.0), EPS)
    };
    assert_eq!(at(2.0 * EPS), Status::Disjoint);
    assert_eq!(at(0.5 * EPS), Status::Contact);
    assert_eq!(at(-0.5 * EPS), Status::Contact);
    assert_eq!(at(-2.0 * EPS), Status::Interpenetrating);
}

#[test]
fn the_witness_answers_almost_every_test_of_a_coherent_motion() {
    // A hexagon circling a box at a small clearance, turning slowly, 2,000 steps.
    let hexagon = ConvexPolygon::new(
        (0..6)
            .map(|k| {
                v((k as f64 * PI / 3.0).cos(), (k as f64 * PI / 3.0).sin()) * 0.4
            })
            .collect(),
    )
    .unwrap();
    let a = rect(0.0, 0.0, 1.0, 0.6);
    let mut cache = PairCache::default();
    for step in 0..2000 {
        let t = step as f64 * 2.0 * PI / 2000.0;
        let b = hexagon.placed(v(2.0 * t.cos(), 1.6 * t.sin()), 3.0 * t);
        assert_eq!(cache.test(&a, &b, EPS), Status::Disjoint, "step {step}");
    }
    let rate = cache.reused as f64 / (cache.reused + cache.searched) as f64;
    assert!(rate > 0.95, "reuse rate {rate}");
}
