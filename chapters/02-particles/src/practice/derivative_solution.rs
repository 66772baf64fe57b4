// The book's answer to `particles/derivative`, as `pbm practice solution
// particles/derivative` prints it: the chapter's `accumulate_forces` and
// `write_derivative` (particle.rs) as one function.

use pbm_particles::particle::{Motion, ParticleSystem};
use pbm_prelim::PbmError;

// ANCHOR: derivative
/// Clears the accumulators, lets every force add into them, then writes (v, f/m)
/// particle by particle: zero for a fixed particle, its script's for a scripted one.
pub fn derivative(
    system: &mut ParticleSystem<2>,
    xdot: &mut [f64],
) -> Result<(), PbmError> {
    for p in &mut system.particles {
        p.f.fill(0.0);
    }
    for force in &system.forces {
        force.apply(system.t, &mut system.particles)?;
    }
    for (p, chunk) in system.particles.iter().zip(xdot.chunks_exact_mut(4)) {
        let (v, a) = match p.motion {
            Motion::Free => (p.v, p.f / p.mass),
            Motion::Fixed => Default::default(), // (0, 0)
            Motion::Scripted(script) => {
                let (_, v, a) = script(system.t);
                (v, a)
            }
        };
        chunk[..2].copy_from_slice(v.as_slice());
        chunk[2..].copy_from_slice(a.as_slice());
    }
    Ok(())
}
// ANCHOR_END: derivative
