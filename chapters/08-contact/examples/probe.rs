use pbm_contact::scenes;
use pbm_contact::world::Settings;
fn main() {
    let t = std::time::Instant::now();
    let s = Settings { friction: 0.5, ..Settings::default() };
    let mut w = scenes::stack(10, s).unwrap();
    let x0: Vec<_> = w.bodies().iter().map(|b| b.position()).collect();
    let mut drift = 0.0f64;
    w.run_until(10.0, |w| {
        for (b, x) in w.bodies().iter().zip(&x0) {
            drift = drift.max((b.position() - x).norm());
        }
    })
    .unwrap();
    println!("stack drift {drift:e} stats {:?} {:?}", w.stats(), t.elapsed());
    let t = std::time::Instant::now();
    let mut w = scenes::drop(0.5, Settings::default()).unwrap();
    let e0 = w.energy();
    let mut emax = 0.0f64;
    w.run_until(3.0, |w| emax = emax.max(w.energy() - e0)).unwrap();
    println!(
        "drop: e0 {e0} e_end {} max gain over start {emax:e} stats {:?} {:?} y {}",
        w.energy(),
        w.stats(),
        t.elapsed(),
        w.bodies()[0].position()
    );
    for deg in [25.0f64, 26.0, 26.5, 26.6, 27.0, 30.0] {
        let th = deg.to_radians();
        let mut w = scenes::incline(th, s).unwrap();
        let x0 = w.bodies()[0].position();
        w.run_until(1.0, |_| {}).unwrap();
        println!(
            "incline {deg}: slip {:e} (tan {} mu 0.5)",
            (w.bodies()[0].position() - x0).norm(),
            th.tan()
        );
    }
}
