fn main() {
    for f in pbm_ode::figures::all() {
        let t = std::time::Instant::now();
        let svg = (f.draw)().unwrap();
        std::fs::write(format!("/tmp/fig/{}.svg", f.name), svg).unwrap();
        println!("{} {:?}", f.name, t.elapsed());
    }
    for e in pbm_ode::exercises::all() {
        let t = std::time::Instant::now();
        let v = e.run_default().unwrap();
        println!("{} {:?}\n{}", e.id, t.elapsed(), serde_json::to_string(&v).unwrap());
    }
}
