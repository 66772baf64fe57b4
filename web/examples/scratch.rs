//! scratch
use pbm_web::find;
fn main() {
    let spec = find("contact/drop").unwrap();
    let mut d = spec.create(&[0.5, 0.5, 0.0]).unwrap();
    for f in 1..=300 {
        d.frame().unwrap();
        if f % 20 == 0 {
            println!("{f}: {:?}", d.readouts());
        }
    }
    let mut d = spec.create(&[0.5, 0.5, 0.5]).unwrap();
    for f in 1..=300 {
        d.frame().unwrap();
        if f % 20 == 0 {
            println!("mu {f}: {:?}", d.readouts());
        }
    }
}
