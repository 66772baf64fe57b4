//! probe
use pbm_contact::scenes;
use pbm_contact::world::Settings;
fn main() {
    let s = Settings { friction: 0.5, ..Settings::default() };
    let th = 27f64.to_radians();
    let mut w = scenes::incline(th, s).unwrap();
    let mut k = 0;
    w.run_until(0.3, |w| {
        k += 1;
        let b = &w.bodies()[0];
        if k % 3 == 0 {
            println!(
                "t {:.3} v {:.5} {:.5} {:.5} w {:.4} {:.4} {:.4} y {:.6} st {:?}",
                w.time(),
                b.velocity().x,
                b.velocity().y,
                b.velocity().z,
                b.angular_velocity().x,
                b.angular_velocity().y,
                b.angular_velocity().z,
                b.position().y,
                w.stats()
            );
        }
    })
    .unwrap();
    println!("expected a {}", 9.81 * (th.sin() - 0.5 * th.cos()));
}
