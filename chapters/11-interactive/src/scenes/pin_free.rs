//! A bar thrown, pinned by a user while it flies, and let go again.

use super::shared::V2;
use crate::shape::Shape;
use crate::world::{Anchor, Pin, Settings, World};
use pbm_prelim::{PbmError, budget};
use pbm_rigid::body2d::RigidBody2;

/// What `interactive/pin-free` measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PinRun {
    /// The bar's energy just before and just after it was pinned (J).
    pub pinned_energy: (f64, f64),
    /// The energy the catch takes by the closed form ½ vᵀK⁻¹v, with v the pinned
    /// point's velocity and K = I/m + r⊥r⊥ᵀ/I its inverse effective mass (J).
    pub catch_loss_closed_form: f64,
    /// The largest distance between the pin's two ends while it held (m).
    pub max_pin_error: f64,
    /// The largest change of energy while pinned, from just after the catch (J).
    pub drift_pinned: f64,
    /// The bar's energy just before and just after it was freed (J).
    pub freed_energy: (f64, f64),
    /// The largest change of energy in flight after it was freed (J).
    pub drift_free: f64,
}

/// The pinned end, in the bar's own frame: its left end.
const END: V2 = V2::new(-0.5, 0.0);

/// The world of `interactive/pin-free` at t = 0: the bar 1 m long, 2 m up, thrown
/// sideways at `speed` and spinning at 1 rad/s, and nothing else.
fn thrown(speed: f64, settings: Settings) -> Result<World, PbmError> {
    let mut world = World::new(settings)?;
    let bar = Shape::rectangle(1.0, 0.1, 1.0)?;
    world.add_body(bar, 0, (V2::new(0.0, 2.0), 0.0), (V2::new(speed, 0.0), 1.0))?;
    Ok(world)
}

// ANCHOR: pin_and_free
/// A bar 1 m long thrown sideways at `speed` (m/s), spinning at 1 rad/s: at
/// `pin_at` (s) a user pins its end to the world where it is, at `free_at` lets go,
/// and the run goes on to `t_end`.
pub fn pin_and_free(
    speed: f64,
    (pin_at, free_at): (f64, f64),
    t_end: f64,
    settings: Settings,
) -> Result<PinRun, PbmError> {
    if !(pin_at < free_at && free_at <= t_end) {
        let why = format!(
            "pin_at = {pin_at} s, free_at = {free_at} s and t_end = {t_end} s \
             must come in that order"
        );
        return Err(PbmError::invalid("pin-free", why));
    }
    budget::within(t_end / settings.h, 2.0e4, "steps", "raise h or lower t_end")?;
    let mut world = thrown(speed, settings)?;
    world.run_until(pin_at, |_| {})?;
    let (mut run, pin) = pin_the_end(&mut world, END, free_at)?;
    let held = world.energy();
    world.unpin(pin)?;
    let freed = world.energy();
    run.freed_energy = (held, freed);
    world.run_until(t_end, |w| {
        run.drift_free = run.drift_free.max((w.energy() - freed).abs())
    })?;
    Ok(run)
}
// ANCHOR_END: pin_and_free

// ANCHOR: pin_the_end
/// Pins the point `end` of the bar to the world where it is and runs to
/// `free_at`, measuring the catch and the hold; returns the run so far (nothing
/// yet freed) and the pin.
fn pin_the_end(
    world: &mut World,
    end: V2,
    free_at: f64,
) -> Result<(PinRun, usize), PbmError> {
    let anchor = world.bodies()[0].world_point(&end);
    let catch_loss_closed_form = catch_loss(&world.bodies()[0], anchor);
    let before = world.energy();
    let pin = world.pin_now(Pin {
        a: Anchor::Body { body: 0, local: end },
        b: Anchor::World(anchor),
    })?;
    let after = world.energy();
    let (mut max_pin_error, mut drift_pinned) = (0.0_f64, 0.0_f64);
    world.run_until(free_at, |w| {
        max_pin_error =
            max_pin_error.max((w.bodies()[0].world_point(&end) - anchor).norm());
        drift_pinned = drift_pinned.max((w.energy() - after).abs());
    })?;
    let run = PinRun {
        pinned_energy: (before, after),
        catch_loss_closed_form,
        max_pin_error,
        drift_pinned,
        freed_energy: (f64::NAN, f64::NAN),
        drift_free: 0.0,
    };
    Ok((run, pin))
}
// ANCHOR_END: pin_the_end

/// How fast the bar spins just after its end is caught at `pin_at` (rad/s), in
/// closed form: until then it flies freely (no contact in this world), so its angle
/// is θ₀ + ω₀t and its velocity v₀ + g t, and the catch's impulse j = −K⁻¹v_p turns
/// it at ω₀ + (r × j)/I. A fast throw caught late spins at tens of rad/s: the pinned
/// phase then needs a step short enough that the bar turns only a little in it.
pub fn spin_after_catch(speed: f64, pin_at: f64) -> Result<f64, PbmError> {
    let settings = Settings::default();
    let world = thrown(speed, settings)?;
    let body = &world.bodies()[0];
    let angle = body.angle() + body.angular_velocity() * pin_at;
    let velocity = body.velocity() + settings.gravity * pin_at;
    let r = nalgebra::Rotation2::new(angle) * END;
    let r_perp = V2::new(-r.y, r.x);
    let at_end = velocity + body.angular_velocity() * r_perp;
    let k = inverse_effective_mass(body, r);
    let Some(inverse) = k.try_inverse() else {
        return Err(PbmError::degenerate("pin-free", "the catch's K is singular"));
    };
    let j = -(inverse * at_end);
    Ok(body.angular_velocity() + (r.x * j.y - r.y * j.x) / body.inertia())
}

// ANCHOR: catch_loss
/// K = I/m + r⊥r⊥ᵀ/I: how fast a point at `r` from the centre of `body` moves
/// per unit impulse there.
fn inverse_effective_mass(body: &RigidBody2, r: V2) -> nalgebra::Matrix2<f64> {
    let r_perp = V2::new(-r.y, r.x);
    nalgebra::Matrix2::identity() / body.mass()
        + r_perp * r_perp.transpose() / body.inertia()
}

/// The energy a catch at `anchor` takes from `body`, by the closed form
/// ½ vᵀK⁻¹v with v the point's velocity and K = I/m + r⊥r⊥ᵀ/I.
fn catch_loss(body: &RigidBody2, anchor: V2) -> f64 {
    let (r, v) = (anchor - body.position(), body.point_velocity(&anchor));
    let k = inverse_effective_mass(body, r);
    k.try_inverse().map_or(f64::NAN, |inverse| 0.5 * v.dot(&(inverse * v)))
}
// ANCHOR_END: catch_loss
