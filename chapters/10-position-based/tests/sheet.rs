//! XPBD cloth against chapter 9's at equal stiffness: a 1 m sheet hung straight
//! down sinks ρ g L²/(2k) under its own weight. Chapter 9's implicit sheet lands
//! on that; XPBD with α = 1/k per edge lands near it only when each step's pass
//! converges, and goes softer the finer the mesh at a fixed budget.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::Vector3;
use pbm_cloth::cloth::Material;
use pbm_cloth::scenes::{Scene, cloth};
use pbm_pbd::scenes::{FRAME, hanging_sheet, sheet_sag_closed_form};

const ALPHA: f64 = 1.0 / 1000.0; // chapter 9's cotton: k = 1000 N/m

#[test]
fn chapter_9s_sheet_hangs_at_the_closed_form() {
    let n = 10;
    let mut sheet = cloth(Scene::Curtain, n, Material::COTTON).unwrap();
    assert_eq!(Material::COTTON.stretch, 1.0 / ALPHA);
    for x in &mut sheet.x {
        *x = Vector3::new(x.x, 0.0, -x.y);
    }
    let mut sum = 0.0;
    for frame in 0..120 {
        sheet.backward_euler_step(FRAME).unwrap();
        if frame >= 60 {
            let edge = &sheet.x[n * (n - 1)..];
            sum += -edge.iter().map(|x| x.z).sum::<f64>() / n as f64 - 1.0;
        }
    }
    let extension = sum / 60.0;
    let expected = sheet_sag_closed_form(ALPHA);
    assert!((extension / expected - 1.0).abs() < 0.01, "{extension} vs {expected}");
}

#[test]
fn one_pass_per_step_is_softer_the_finer_the_sheet() {
    let expected = sheet_sag_closed_form(ALPHA);
    let ratio = |n| hanging_sheet(n, ALPHA, 20, 1, 1.0).unwrap().extension / expected;
    let (coarse, middle, fine) = (ratio(10), ratio(20), ratio(40));
    assert!(coarse < 1.0 && middle > 1.3 && fine > 3.0, "{coarse} {middle} {fine}");
}

#[test]
fn more_substeps_stiffen_the_sheet_past_the_continuum() {
    let expected = sheet_sag_closed_form(ALPHA);
    let ratio = |substeps| {
        hanging_sheet(20, ALPHA, substeps, 1, 1.0).unwrap().extension / expected
    };
    let (few, more, many) = (ratio(20), ratio(80), ratio(200));
    assert!(few > more && more > many, "{few} {more} {many}");
    // Converged, the diagonal edges share the load: stiffer than the continuum.
    assert!(many > 0.6 && many < 0.8, "{many}");
}

#[test]
fn a_sheet_that_comes_apart_says_so_with_the_step() {
    // Soft, fine, one step per frame: the loop's errors tear the sheet apart.
    let error = hanging_sheet(100, 0.1, 1, 1, 3.0).unwrap_err().to_string();
    assert!(error.starts_with("at step ") && error.contains("came apart"), "{error}");
    // The same sheet at the slides' 20 substeps hangs, near its closed form (10 cm):
    // this soft, one pass converges.
    let sag = hanging_sheet(100, 0.1, 20, 1, 0.2).unwrap();
    let ratio = sag.extension / sheet_sag_closed_form(0.1);
    assert!((ratio - 1.0).abs() < 0.2 && sag.edge_spread < 0.02, "{sag:?}");
}
