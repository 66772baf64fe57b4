//! XPBD cloth against chapter 9's at equal stiffness: a 1 m sheet hung straight
//! down sinks ρ g L²/(2k) under its own weight. Chapter 9's implicit sheet lands
//! on that; XPBD with α = 1/k per edge lands near it only when each step's pass
//! converges, and goes softer the finer the mesh at a fixed budget.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::Vector3;
use pbm_cloth::cloth::Material;
use pbm_cloth::scenes::{Scene, cloth};
use pbm_pbd::scenes::{
    FRAME, Sweep, hanging_sheet, sheet_sag_closed_form, xpbd_cloth,
};

const GS: Sweep = Sweep::GaussSeidel;

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
    let ratio =
        |n| hanging_sheet(n, ALPHA, (20, 1, GS), 1.0).unwrap().extension / expected;
    let (coarse, middle, fine) = (ratio(10), ratio(20), ratio(40));
    assert!(coarse < 1.0 && middle > 1.3 && fine > 3.0, "{coarse} {middle} {fine}");
}

#[test]
fn more_substeps_stiffen_the_sheet_past_the_continuum() {
    let expected = sheet_sag_closed_form(ALPHA);
    let ratio = |substeps| {
        hanging_sheet(20, ALPHA, (substeps, 1, GS), 1.0).unwrap().extension / expected
    };
    let (few, more, many) = (ratio(20), ratio(80), ratio(200));
    assert!(few > more && more > many, "{few} {more} {many}");
    // Converged, the diagonal edges share the load: stiffer than the continuum.
    assert!(many > 0.6 && many < 0.8, "{many}");
}

#[test]
fn a_sheet_that_comes_apart_says_so_with_the_step() {
    // Soft, fine, one step per frame: the loop's errors tear the sheet apart.
    let error = hanging_sheet(100, 0.1, (1, 1, GS), 3.0).unwrap_err().to_string();
    assert!(error.starts_with("at step ") && error.contains("came apart"), "{error}");
    // The same sheet at the slides' 20 substeps hangs, near its closed form (10 cm):
    // this soft, one pass converges.
    let sag = hanging_sheet(100, 0.1, (20, 1, GS), 0.2).unwrap();
    let ratio = sag.extension / sheet_sag_closed_form(0.1);
    assert!((ratio - 1.0).abs() < 0.2 && sag.edge_spread < 0.02, "{sag:?}");
}

#[test]
fn the_xpbd_sheets_links_count_n_minus_1_over_n_of_the_closed_form() {
    // sheet.md: the XPBD sheet gives every particle ρ/n², and each row of its
    // vertical links is n links of stiffness 1/α in parallel, spanning a width of 1
    // m cut into n − 1 cells: the border links stand for half a cell but get a whole
    // link's stiffness. The links below row r carry the weight W_r of the rows
    // beneath, n ways, and stretch by W_r g α / n: a count of (n − 1)/n of
    // ρgL²/2k. Chapter 9's continuum sheet, its border columns half as wide, counts
    // the closed form itself, with a strip ℓ = 1/(n − 1) wide per link.
    let count = |rows: &[f64], share: f64| {
        (0..rows.len() - 1)
            .map(|r| {
                rows[r + 1..].iter().sum::<f64>()
                    * pbm_particles::forces::G
                    * share
                    * ALPHA
            })
            .sum::<f64>()
    };
    for n in [10, 20, 40] {
        let xpbd = xpbd_cloth(n, ALPHA, 1.0).unwrap();
        let particles = &xpbd.particles.particles;
        let xpbd_rows: Vec<f64> = (0..n)
            .map(|r| particles[r * n..(r + 1) * n].iter().map(|p| p.mass).sum())
            .collect();
        let implicit = cloth(Scene::Curtain, n, Material::COTTON).unwrap();
        let implicit_rows: Vec<f64> =
            (0..n).map(|r| implicit.mass[r * n..(r + 1) * n].iter().sum()).collect();
        // Not the same split: chapter 9's free edge carries about half of the XPBD one.
        let edge = implicit_rows[n - 1] / xpbd_rows[n - 1];
        assert!(edge < 0.6, "{n}: {edge}");
        let expected = sheet_sag_closed_form(ALPHA);
        let links = count(&xpbd_rows, 1.0 / n as f64) / expected;
        let border = (n - 1) as f64 / n as f64;
        assert!((links / border - 1.0).abs() < 1e-12, "{n}: {links} vs {border}");
        let strips = count(&implicit_rows, 1.0 / (n - 1) as f64) / expected;
        assert!((strips - 1.0).abs() < 1e-12, "{n}: {strips}");
    }
}

#[test]
fn a_jacobi_pass_does_less_than_a_gauss_seidel_pass() {
    // projection.md: with the safe share (one over the most constraints on a
    // particle) a Jacobi pass moves each particle by a fraction of what a
    // Gauss–Seidel pass does, and XPBD reads what a pass leaves as compliance.
    // Measured at 20 × 20, 20 substeps of one pass: 25.4 against 1.57 times the
    // closed form; more passes bring Jacobi down.
    let expected = sheet_sag_closed_form(ALPHA);
    let ratio = |iterations, sweep| {
        hanging_sheet(20, ALPHA, (20, iterations, sweep), 1.0).unwrap().extension
            / expected
    };
    let (gauss_seidel, jacobi) = (ratio(1, GS), ratio(1, Sweep::Jacobi));
    assert!(jacobi > 5.0 * gauss_seidel, "{jacobi} vs {gauss_seidel}");
    let more = ratio(3, Sweep::Jacobi);
    assert!(more < 0.5 * jacobi && more > gauss_seidel, "{more} vs {jacobi}");
    // The page's colouring bound (Vizing) needs each constraint to join two
    // particles and no two to join the same pair.
    let sheet = xpbd_cloth(20, ALPHA, 1.0).unwrap();
    let mut pairs = std::collections::BTreeSet::new();
    for c in &sheet.constraints {
        let [a, b] = c.condition.particles() else { panic!("not a pair") };
        assert!(pairs.insert((*a.min(b), *a.max(b))), "{a} {b} twice");
    }
}
