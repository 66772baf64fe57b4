//! probe
use pbm_interactive::scenes::Jack;
use pbm_interactive::world::{Order, Settings};
fn main() {
    for (order, eps) in
        [(Order::First, 0.02), (Order::Second, 0.005), (Order::First, 0.005)]
    {
        let jack = Jack::BOOK;
        let settings = Settings {
            friction: 0.3,
            restitution: 0.1,
            order,
            epsilon: eps,
            ..Settings::default()
        };
        let mut world = jack.build(settings).unwrap();
        let y0 = world.bodies()[0].position().y;
        let mut r = Ok(0.0);
        let mut lag: f64 = 0.0;
        let mut amax: f64 = 0.0;
        while world.time() < 30.0 && r.is_ok() {
            r = jack.step(&mut world);
            let m = world.mouse.unwrap();
            lag = lag.max(
                (world.bodies()[m.body].world_point(&m.local)
                    - jack.mouse_at(world.time()))
                .norm(),
            );
            amax = amax.max(world.bodies()[2].angle().abs());
        }
        println!("lag {lag:.3} lever max {amax:.3}");
        println!(
            "{order:?} eps {eps}: {:?} t {:.2} lift {:.3} {:?}",
            r.err().map(|e| e.to_string()),
            world.time(),
            world.bodies()[0].position().y - y0,
            world.stats()
        );
    }
}
