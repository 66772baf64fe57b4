// Practice `particles/derivative`: a particle system's derivative, the bridge to the
// solver.
//
// Read "Particle System Dynamics" (book/src/02-particles/index.md), the sections
// "Phase space" and "The two views of a particle system". Then fill in the body and
// run `cargo run --release -- practice check particles/derivative`.

use pbm_particles::particle::{Motion, ParticleSystem};
use pbm_prelim::PbmError;

/// Writes d/dt (x, v) = (v, f/m) for every particle of `system` into `xdot`, four
/// numbers a particle in the order the state is gathered: [v_x, v_y, a_x, a_y] for
/// particle 0, then particle 1, … First clear every force accumulator `p.f`
/// (`p.f.fill(0.0)`), then let every force object in `system.forces` add its forces
/// with `apply(system.t, &mut system.particles)`, passing on its error with `?`.
/// A `Motion::Fixed` particle's derivative is zero; a `Motion::Scripted(script)`
/// particle's is the velocity and acceleration its script gives at `system.t`
/// (`script(t)` returns position, velocity, acceleration). Write it yourself: not by
/// calling the system's own `derivative`, `accumulate_forces` or `write_derivative`.
pub fn derivative(
    system: &mut ParticleSystem<2>,
    xdot: &mut [f64],
) -> Result<(), PbmError> {
    let _ = (system, xdot, Motion::<2>::Fixed);
    todo!("the particle system's derivative")
}
