//! scratch
use pbm_cloth::cloth::Material;
use pbm_cloth::scenes::{Scene, cloth, run};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[1].parse().unwrap();
    let steps: usize = args[2].parse().unwrap();
    let scene = if args[3] == "drape" { Scene::Drape } else { Scene::Curtain };
    let every: usize = args[4].parse().unwrap();
    let mut c = cloth(scene, n, Material::COTTON).unwrap();
    match std::env::var("MODE").as_deref() {
        Ok("full") => c.curvature = pbm_cloth::energy::Curvature::Full,
        Ok("proj") => c.curvature = pbm_cloth::energy::Curvature::Projected,
        _ => {}
    }
    let r = run(c, 1.0 / 30.0, steps, false, every, |_| {}).unwrap();
    println!(
        "stable {} failure {:?} steps {} ms/step {:.2} mean cg {:.1} max cg {:?}",
        r.stable,
        r.failure,
        r.steps,
        r.ms_per_step,
        r.cg_iterations.iter().sum::<usize>() as f64
            / r.cg_iterations.len().max(1) as f64,
        r.cg_iterations.iter().max()
    );
    for (t, e) in &r.energies {
        println!(
            "{t:.2} {:.4e} {:.4e} {:.4e} {:.4} {:.4e}",
            e.stretch, e.shear, e.bend, e.gravity, e.kinetic
        );
    }
    let zmin = r.cloth.x.iter().map(|p| p.z).fold(f64::INFINITY, f64::min);
    println!("zmin {zmin:.3}");
}
