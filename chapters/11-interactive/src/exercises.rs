//! The chapter's runnable experiments: `pbm run interactive/<id> --set key=value`.
//! Each drives a mechanism with the scripted mouse, as a reader would with a real one.

use crate::scenes::{
    Drive, Fault, Feeder, Jack, Pendulum, Pile, STEPS, StackRun, drive, faulty,
    pin_and_free, spin_after_catch, stack_run, xpbd_pendulum, xpbd_stack_run,
};
use crate::world::{Order, Settings, Stats, World};
use pbm_contact::world::SolverKind;
use pbm_particles::forces::G;
use pbm_prelim::{Choice, Exercise, Optional, PbmError, Promise, budget, params};
use serde_json::{Value, json};
use std::time::Instant;

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![
        Exercise::new(
            "feeder",
            "the block feeder turned by a scripted mouse: blocks fed, depth, corrections, speed",
            feeder,
        )
        .heavy()
        .promises(NEVER_DEEPER_THAN_EPSILON)
        .optional(NULLS),
        Exercise::new(
            "jam",
            "the feeder made badly: a pusher taller than a block, blocks loaded on end, or blocks turned in the magazine",
            jam,
        )
        .heavy()
        .optional(NULLS),
        Exercise::new(
            "jack",
            "the double-action jack pumped by a scripted mouse: how far the load climbs, and whether the pawls hold it",
            jack,
        )
        .promises(NEVER_DEEPER_THAN_EPSILON),
        Exercise::new(
            "pendulum",
            "a pendulum of pinned bars let go from the horizontal: pin error and energy, second or first order",
            pendulum,
        )
        .limit(
            ("steps", "steps"),
            (2.0e4, "raise h or lower t_end"),
            |p: &PendulumParams| budget::steps(p.t_end, p.h),
        ),
        Exercise::new(
            "pin-free",
            "a thrown bar pinned by its end while it flies, then let go: the catch's energy against its closed form, the pin's error, nothing lost at release",
            pin_free,
        )
        .promises(&[
            Promise {
                field: "/max_pin_error_m",
                over: None,
                max: 0.01,
                says: "the pinned end stays within a centimetre of the pin",
            },
            Promise {
                field: "/max_energy_change_pinned_j",
                over: Some(("/energy_taken_by_catch_j", 0.1)),
                max: 0.01,
                says: "while pinned, the energy moves by under 1 % of what the catch took",
            },
        ])
        .limit(
            ("⌈(pin_at + hold + flight) / h⌉", "steps"),
            (2.0e4, "raise h or shorten pin_at, hold or flight"),
            |p: &PinFreeParams| budget::steps(p.pin_at + p.hold + p.flight, p.h),
        )
        .limit(
            ("|ω after the catch| × h", "rad of turn a step once pinned"),
            (MAX_TURN_PER_STEP, "lower h, or catch the bar sooner or slower"),
            |p: &PinFreeParams| {
                spin_after_catch(p.speed, p.pin_at).map_or(f64::INFINITY, f64::abs) * p.h
            },
        ),
        Exercise::new(
            "versus-stack",
            "chapter 10's stack of boxes by the exact loop, by sequential impulses and by XPBD: depth, drift and cost side by side",
            versus_stack,
        )
        .limit(
            ("boxes × t_end", "box-seconds"),
            (STACK_WORK, "lower boxes or t_end"),
            |p: &VersusStackParams| p.boxes as f64 * p.t_end,
        )
        .limit(
            ("boxes × t_end × substeps × passes", "XPBD box passes per 60 Hz frame"),
            (XPBD_STACK_WORK, "lower boxes, t_end, substeps or passes"),
            |p: &VersusStackParams| {
                p.boxes as f64 * p.t_end * (p.substeps * p.passes) as f64
            },
        ),
        Exercise::new(
            "versus-xpbd",
            "the pendulum of pinned bars by this chapter's world and by chapter 10's XPBD: pin error, energy, time",
            versus_xpbd,
        )
        .limit(
            ("steps", "steps"),
            (2.0e4, "raise h or lower t_end"),
            |p: &VersusXpbdParams| budget::steps(p.t_end, p.h),
        )
        .limit(
            ("t_end × 60 / s × substeps × bars", "joint solves"),
            (2.0e6, "lower substeps or t_end"),
            |p: &VersusXpbdParams| p.t_end * 60.0 * (p.substeps * p.bars) as f64,
        ),
        Exercise::new(
            "pile",
            "mixed convex polygons dropped into a box: when they settle, how deep, how fast",
            pile,
        )
        .heavy()
        // Fifty polygons run for two seconds (the page's heap).
        .joint(&["count"])
        .limit(
            ("count × t_end with solver=exact", "polygon-seconds"),
            (EXACT_PILE_WORK, "lower count or t_end, or set solver=sequential"),
            |p: &PileParams| match p.solver {
                SolverKind::Exact => p.count as f64 * p.t_end,
                _ => 0.0,
            },
        )
        .optional(&[Optional {
                field: "settled_at",
                null_when: "if the pile is still moving at the end",
            }]),
    ]
}

/// The fields of a feeder's report that can be absent.
const NULLS: &[Optional] = &[
    Optional {
        field: "last_turn_advance",
        null_when: "if the crank has not turned once",
    },
    Optional {
        field: "seconds_per_correction",
        null_when: "if no tolerance correction was needed",
    },
    Optional {
        field: "settled_tilt_rad",
        null_when: "if the run ends before the magazine has settled (1 s)",
    },
];

impl Choice for Fault {
    const OPTIONS: &'static [(&'static str, Self)] = &[
        ("tall-pusher", Fault::TallPusher),
        ("misaligned", Fault::Misaligned),
        ("turned", Fault::Turned),
    ];
}

/// The time step of every run (s): the book's choice of 100 steps a second (the paper
/// leaves the step to the user).
const H: f64 = 0.01;

// ANCHOR: jammed
/// A feeder has jammed when, after at least two turns of the crank, blocks are left
/// in it and in the last whole turn none moved more than a tenth of the pusher's
/// stroke: the mouse goes round, and the mechanism does not follow. (A held stack
/// still rocks a little on every stroke, a few centimetres.)
pub fn jammed(feeder: &Feeder, run: &Drive) -> bool {
    let stroke = 2.0 * feeder.crank;
    run.world.time() >= 2.0 * feeder.period - 1e-9
        && feeder.fed(&run.world) < feeder.blocks
        && run.last_turn_advance < 0.1 * stroke
}
// ANCHOR_END: jammed

/// The loop's tolerance, which the exact solver keeps (`Check` at every step) and
/// the feeder's and the jack's pages promise: no contact ever deeper than ε.
const NEVER_DEEPER_THAN_EPSILON: &[Promise] = &[Promise {
    field: "/max_depth",
    over: Some(("/epsilon", 1e-6)),
    max: 1.0,
    says: "no contact is ever deeper than the tolerance ε",
}];

/// The numbers every run reports.
fn report(feeder: &Feeder, run: &Drive) -> Value {
    let (world, s) = (&run.world, run.world.stats());
    json!({
        "t_reached": world.time(),
        // The old name of `t_reached`, kept for one release for readers' scripts.
        "seconds": world.time(),
        "blocks": feeder.blocks,
        "blocks_fed": feeder.fed(world),
        "max_depth": s.max_depth,
        "epsilon": world.settings().epsilon,
        "max_pin_error": s.max_pin_error,
        "mouse_lag_max": run.lag,
        "settled_tilt_rad": if run.settled_tilt.is_finite() {
            json!(run.settled_tilt)
        } else {
            Value::Null
        },
        "max_magazine_tilt_rad": run.max_magazine_tilt,
        "last_turn_advance": if run.last_turn_advance.is_finite() {
            json!(run.last_turn_advance)
        } else {
            Value::Null
        },
        "tolerance_corrections": s.corrections,
        "seconds_per_correction": if s.corrections > 0 {
            json!(world.time() / s.corrections as f64)
        } else {
            Value::Null
        },
        "steps": s.steps,
        "shortened_steps": s.shortened,
        "limited_steps": s.limited,
        "impacts": s.impacts,
        "force_solves": s.solves,
        "islands_per_solve": s.islands as f64 / s.solves.max(1) as f64,
        "warm_started": s.warm,
        "narrow_phase_witness_reuse": s.witness_reused as f64
            / (s.witness_reused + s.witness_searched).max(1) as f64,
        "friction_dropped": s.friction_dropped,
        "steps_per_second": s.steps as f64 / run.wall.max(1e-9),
        // The feeder as built: the step; the opening under the magazine's wall (a
        // block's height and a twentieth of its width); the pusher; a block as
        // loaded, its height, its turn and how tall it then stands,
        // h |cos θ| + w |sin θ|; the pusher's stroke, twice the crank; and the x past
        // which a block counts as fed.
        "step_s": world.settings().h,
        "opening_m": feeder.block_height + 0.05 * feeder.block,
        "pusher_height_m": feeder.pusher_height,
        "block_height_m": feeder.block_height,
        "misalignment_rad": feeder.misalignment,
        "standing_height_m": feeder.block_height * feeder.misalignment.cos().abs()
            + feeder.block * feeder.misalignment.sin().abs(),
        "stroke_m": 2.0 * feeder.crank,
        "output_x_m": feeder.output_x(),
    })
}

params! {
    /// `interactive/feeder`.
    pub struct FeederParams {
        t_end: f64 = duration(12.0, 0.5, 24.0),
        // The feeder's clearances (5 cm of play in the magazine, 4.5 cm over the
        // pusher) must stay wider than ε.
        epsilon: f64 = epsilon(0.02, 0.005, 0.02),
        friction: f64 = friction(0.3, 0.0, 0.5),
        period: f64 = float("time per turn of the crank", "s", 4.0, 2.0, 8.0).label("one turn of the crank every"),
    }
}

fn feeder(p: FeederParams) -> Result<Value, PbmError> {
    let feeder = Feeder { period: p.period, ..Feeder::BOOK };
    let settings = Settings {
        epsilon: p.epsilon,
        friction: p.friction,
        restitution: 0.1,
        h: H,
        ..Settings::default()
    };
    let run = drive(&feeder, settings, p.t_end)?;
    Ok(report(&feeder, &run))
}

params! {
    /// `interactive/jam`.
    pub struct JamParams {
        fault: Fault = choice("what is wrong with the feeder", Fault::TallPusher),
        t_end: f64 = duration(12.0, 0.5, 24.0),
    }
}

fn jam(p: JamParams) -> Result<Value, PbmError> {
    let feeder = faulty(p.fault);
    let settings =
        Settings { friction: 0.3, restitution: 0.1, h: H, ..Settings::default() };
    let run = drive(&feeder, settings, p.t_end)?;
    let mut out = report(&feeder, &run);
    out["jammed"] = json!(jammed(&feeder, &run));
    Ok(out)
}

/// What a scripted run of the jack saw.
pub struct Pumped {
    /// The world at the end.
    pub world: World,
    /// Wall-clock seconds the steps took.
    pub wall: f64,
    /// How far the rack climbed (m).
    pub lift: f64,
    /// The largest fall of the rack below the highest it had been (m): the idle
    /// pawl's play before it catches, or a slip.
    pub max_fall: f64,
    /// The largest distance of the handle behind the mouse (m).
    pub lag: f64,
    /// The rack's rise (m) at every quarter pump: handle down, level, up, level, …
    pub quarters: Vec<f64>,
}

/// A scripted run of `jack` for `seconds`: the mouse pumps the handle, the world
/// steps.
pub fn pump(
    jack: &Jack,
    settings: Settings,
    seconds: f64,
) -> Result<Pumped, PbmError> {
    budget::within(seconds / settings.h, STEPS, "steps", "lower seconds")?;
    let mut world = jack.build(settings)?;
    let height = |w: &World| w.bodies()[Jack::RACK].position().y;
    let start = height(&world);
    let (mut highest, mut max_fall, mut lag) = (start, 0.0_f64, 0.0_f64);
    let mut quarters = Vec::new();
    let clock = Instant::now();
    world.advance(seconds, |world| {
        jack.step(world)?;
        let y = height(world);
        highest = highest.max(y);
        max_fall = max_fall.max(highest - y);
        // The first instant at or past the next quarter pump, as the figures sample.
        if world.time() >= 0.25 * jack.period * (quarters.len() + 1) as f64 - 1e-9 {
            quarters.push(y - start);
        }
        if let Some(m) = world.mouse {
            let end = world.bodies()[m.body].world_point(&m.local);
            lag = lag.max((end - jack.mouse_at(world.time())).norm());
        }
        Ok(())
    })?;
    let wall = clock.elapsed().as_secs_f64();
    let lift = height(&world) - start;
    Ok(Pumped { world, wall, lift, max_fall, lag, quarters })
}

params! {
    /// `interactive/jack`.
    pub struct JackParams {
        // The rack has twelve teeth below the pawls. A stroke carries the idle pawl
        // 2 · 1.1 sin(swing) down the rack, under two pitches (0.8 m) up to a swing
        // of 0.37: one tooth a stroke at most, two a pump; nine in 9 s pumped every
        // 2 s.
        t_end: f64 = duration(9.0, 0.5, 9.0),
        swing: f64 = float(
            "half the lever's swing", "rad", Jack::BOOK.swing, 0.1, 0.35,
        ),
        load: f64 = float("mass on the platform", "kg", 3.0, 0.5, 30.0).label("load"),
        period: f64 = float("time per pump, down and up", "s", 3.0, 2.0, 8.0).label("one pump every"),
        friction: f64 = friction(0.3, 0.0, 0.8),
    }
}

fn jack(p: JackParams) -> Result<Value, PbmError> {
    let jack = Jack { load: p.load, swing: p.swing, period: p.period };
    let settings = Settings {
        friction: p.friction,
        restitution: 0.1,
        h: H,
        ..Settings::default()
    };
    let run = pump(&jack, settings, p.t_end)?;
    let (world, s) = (&run.world, run.world.stats());
    let pumps = world.time() / jack.period;
    // The handle as the hand holds it: its distance from the pivot, its least
    // effective mass (the mouse spring is scaled by it), the force the rack and the
    // load put on it through a pawl's pin (the first pin after the lever's pivot),
    // and how far a first-order world's pointer, pulling at the rate k/c, must lead
    // it to hold that force.
    let mouse = world
        .mouse
        .ok_or_else(|| PbmError::invalid("jack", "the scripted hand has let go"))?;
    let lever = &world.bodies()[mouse.body];
    let handle = lever.world_point(&mouse.local);
    let handle_m = (handle - jack.pivot()).norm();
    let r = handle - lever.position();
    let handle_mass = 1.0 / (1.0 / lever.mass() + r.norm_squared() / lever.inertia());
    let pawl_arm_m = (world.anchor_point(&world.pins()[1].b) - jack.pivot()).norm();
    let weight = (world.bodies()[Jack::RACK].mass()
        + world.bodies()[Jack::RACK + 1].mass())
        * world.settings().gravity.norm();
    let handle_load = weight * pawl_arm_m / handle_m;
    let lead = handle_load / (handle_mass * mouse.stiffness / mouse.damping);
    let before = json!({
        "t_reached": world.time(),
        // The old name of `t_reached`, kept for one release for readers' scripts.
        "seconds": world.time(),
        "lift_m": run.lift,
        "pumps": pumps,
        "lift_per_pump_m": run.lift / pumps,
        "pitch_m": Jack::PITCH,
        "pin_stroke_m": jack.stroke(),
        "max_fall_m": run.max_fall,
        "rise_each_quarter_pump_m": run.quarters,
        "max_depth": s.max_depth,
        "epsilon": world.settings().epsilon,
        "max_pin_error": s.max_pin_error,
        "mouse_lag_max": run.lag,
    });
    let after = json!({
        "steps_per_second": s.steps as f64 / run.wall.max(1e-9),
        "step_s": world.settings().h,
        "tooth_depth_m": Jack::DEPTH,
        "handle_m": handle_m,
        // How far the pawls' springs are relaxed beyond where the rack holds them.
        "pawl_spring_rest_rad": world.springs()[0].rest.abs(),
        "rack_and_load_weight_n": weight,
        "handle_load_n": handle_load,
        "handle_effective_mass_kg": handle_mass,
        "lead_to_hold_load_m": lead,
    });
    Ok(joined([before, step_counts(&s), after]))
}

params! {
    /// `interactive/pendulum`.
    pub struct PendulumParams {
        bars: usize = int("bars in the chain", 3, 1, 12),
        t_end: f64 = duration(4.0, 0.1, 20.0),
        h: f64 = step(0.01, 0.001, 0.02),
        order: Order = choice("second- or first-order world", Order::Second),
    }
}

fn pendulum(p: PendulumParams) -> Result<Value, PbmError> {
    let pendulum = Pendulum { bars: p.bars, ..Pendulum::BOOK };
    let settings = Settings { h: p.h, order: p.order, ..Settings::default() };
    let seconds = p.t_end;
    let mut world = pendulum.build(settings)?;
    let e0 = world.energy();
    let (mut drift, mut lowest) = (0.0_f64, 0.0_f64);
    let start = Instant::now();
    world.run_until(seconds, |w| {
        drift = drift.max((w.energy() - e0).abs());
        lowest =
            lowest.min(w.bodies().iter().map(|b| b.position().y).fold(0.0, f64::min));
    })?;
    let wall = start.elapsed().as_secs_f64();
    let s = world.stats();
    let mass: f64 = world.bodies().iter().map(|b| b.mass()).sum();
    Ok(json!({
        "t_reached": world.time(),
        // The old name of `t_reached`, kept for one release for readers' scripts.
        "seconds": world.time(),
        "bars": pendulum.bars,
        "max_pin_error": s.max_pin_error,
        "energy_start_j": e0,
        "max_energy_change_j": drift,
        // Against the energy the drop can release: the chain's weight falling its
        // whole length.
        "max_energy_change_relative": drift / (mass * G * pendulum.bars as f64 * pendulum.length),
        "lowest_centre_m": lowest,
        "impacts": s.impacts,
        "steps": s.steps,
        "steps_per_second": s.steps as f64 / wall.max(1e-9),
    }))
}

params! {
    /// `interactive/pin-free`.
    pub struct PinFreeParams {
        speed: f64 = float(
            "the bar's sideways speed when thrown", "m/s", 2.0, 0.0, 10.0,
        ),
        pin_at: f64 = float("when the user pins its end", "s", 0.5, 0.0, 5.0),
        hold: f64 = float("how long the pin holds", "s", 1.5, 0.01, 5.0),
        flight: f64 = float(
            "how long the run goes on after the user lets go", "s", 1.0, 0.0, 5.0,
        ),
        h: f64 = step(0.004, 1e-3, 0.025),
    }
}

/// The most the pinned bar may turn in one step (rad). Caught late and fast, the bar
/// spins at up to about 55 rad/s; a step that turns it much further than this loses
/// the pinned motion's energy by more than 1 % of what the catch took, and past about
/// 0.6 rad the pin's feedback cannot hold it (metres of error, then divergence).
/// Measured over speed × pin_at × h × hold grids (`tests/world.rs`,
/// `the_pin_holds_wherever_the_exercise_admits_the_step`).
pub const MAX_TURN_PER_STEP: f64 = 0.2;

fn pin_free(p: PinFreeParams) -> Result<Value, PbmError> {
    let settings = Settings { h: p.h, ..Settings::default() };
    let free_at = p.pin_at + p.hold;
    let run =
        pin_and_free(p.speed, (p.pin_at, free_at), free_at + p.flight, settings)?;
    let (before, after) = run.pinned_energy;
    let (held, freed) = run.freed_energy;
    Ok(json!({
        "energy_before_pin_j": before,
        "energy_taken_by_catch_j": before - after,
        "catch_closed_form_j": run.catch_loss_closed_form,
        "spin_after_catch_rad_s": spin_after_catch(p.speed, p.pin_at)?,
        "max_pin_error_m": run.max_pin_error,
        "max_energy_change_pinned_j": run.drift_pinned,
        "energy_change_at_release_j": freed - held,
        "max_energy_change_free_j": run.drift_free,
    }))
}

params! {
    /// `interactive/versus-xpbd`.
    pub struct VersusXpbdParams {
        bars: usize = int("bars in the chain", 3, 1, 12),
        t_end: f64 = duration(4.0, 0.1, 20.0),
        h: f64 = float("this chapter's time step", "s", 0.01, 0.001, 0.02),
        substeps: usize = substeps(20, 1, 200),
    }
}

fn versus_xpbd(p: VersusXpbdParams) -> Result<Value, PbmError> {
    let pendulum = Pendulum { bars: p.bars, ..Pendulum::BOOK };
    let settings = Settings { h: p.h, ..Settings::default() };
    let mut world = pendulum.build(settings)?;
    let e0 = world.energy();
    let mut drift = 0.0_f64;
    let start = Instant::now();
    world.run_until(p.t_end, |w| drift = drift.max((w.energy() - e0).abs()))?;
    let wall = start.elapsed().as_secs_f64();
    let xpbd = xpbd_pendulum(&pendulum, p.substeps, p.t_end)?;
    // The energy the drop can release: the chain's weight falling its length.
    let mass: f64 = world.bodies().iter().map(|b| b.mass()).sum();
    let scale = mass * G * pendulum.bars as f64 * pendulum.length;
    Ok(json!({
        "bars": p.bars,
        "baraff": {
            "steps": world.stats().steps,
            "max_pin_error_m": world.stats().max_pin_error,
            "max_energy_change_relative": drift / scale,
            "wall_ms_per_simulated_second": 1e3 * wall / p.t_end,
        },
        "xpbd": {
            "steps": xpbd.steps,
            "max_pin_error_m": xpbd.max_pin_error,
            "max_energy_change_relative": xpbd.max_energy_change / scale,
            "wall_ms_per_simulated_second": 1e3 * xpbd.seconds / p.t_end,
        },
    }))
}

params! {
    /// `interactive/versus-stack`.
    pub struct VersusStackParams {
        boxes: usize = int("boxes in the stack", 5, 2, 10),
        friction: f64 = friction(0.5, 0.1, 1.0),
        t_end: f64 = duration(4.0, 0.5, 6.0),
        sweeps: usize = int("sweeps of sequential impulses per substep", 10, 1, 16),
        substeps: usize = int("XPBD substeps per 60 Hz frame", 20, 1, 100),
        passes: usize = int("XPBD passes per substep", 2, 1, 8),
    }
}

/// The most box-seconds `interactive/versus-stack` runs: ten boxes for six
/// seconds, by all three solvers.
const STACK_WORK: f64 = 60.0;

/// The XPBD side of `interactive/versus-stack`: 10 boxes for 6 s at 100 substeps of
/// 8 passes (48,000) took 7.3 s in release on the book's 2-core machine under a CI
/// build, so the limit is half that.
const XPBD_STACK_WORK: f64 = 24_000.0;

fn versus_stack(p: VersusStackParams) -> Result<Value, PbmError> {
    let settings = |kind: SolverKind| Settings {
        friction: p.friction,
        restitution: 0.0,
        solver: kind.with(p.sweeps),
        ..Settings::default()
    };
    let exact = stack_run(p.boxes, settings(SolverKind::Exact), p.t_end)?;
    let sequential = stack_run(p.boxes, settings(SolverKind::Sequential), p.t_end)?;
    let xpbd = xpbd_stack_run(p.boxes, p.friction, (p.substeps, p.passes), p.t_end)?;
    let report = |r: &StackRun| {
        json!({
            "max_depth_m": r.depth,
            "max_drift_m": r.drift,
            "top_sink_m": r.top_sink,
            "steps": r.steps,
            "wall_ms_per_simulated_second": 1e3 * r.seconds / p.t_end,
        })
    };
    Ok(json!({
        "epsilon_m": Settings::default().epsilon,
        "exact": report(&exact),
        "sequential": report(&sequential),
        "xpbd": report(&xpbd),
    }))
}

params! {
    /// `interactive/pile`.
    pub struct PileParams {
        count: usize = int("polygons dropped", 20, 1, 50).label("polygons"),
        t_end: f64 = duration(3.0, 0.1, 4.0),
        // Not below 0.01: with μ a hair above zero (1e-10, say) the friction rows'
        // bounds are so tight that the pivoting's clamped sets turn singular, and
        // chapter 8's solve spends two thirds of its time in the SVD it falls back
        // on: a pile of twenty runs 50 steps a second, not 700.
        friction: f64 = friction(0.3, 0.01, 1.0),
        seed: usize = int("seed of the shapes", 1995, 0, u32::MAX as u64),
        solver: SolverKind = choice("contact solver", SolverKind::Exact),
        sweeps: usize = int("sweeps of sequential impulses per substep", 10, 1, 16).label("sweeps per substep (sequential impulses)"),
    }
}

/// The most polygon-seconds (count × t_end) the exact loop runs a pile for: fifty
/// for two seconds. A heap of fifty that pivots hard (friction 1, some seeds) ran 2 s
/// in under 5 s and 3 s in 12.5 s on the book's machine; sequential impulses, whose
/// cost per step does not depend on the heap, need no such limit.
pub const EXACT_PILE_WORK: f64 = 100.0;

fn pile(p: PileParams) -> Result<Value, PbmError> {
    let pile = Pile { count: p.count, seed: p.seed as u64, ..Pile::BOOK };
    let settings = Settings {
        friction: p.friction,
        restitution: 0.1,
        h: H,
        solver: p.solver.with(p.sweeps),
        ..Settings::default()
    };
    let seconds = p.t_end;
    let mut world = pile.build(settings)?;
    // Settled: under a millijoule of motion per polygon, for good.
    let rest = 1e-3 * pile.count as f64;
    let mut settled_at: Option<f64> = None;
    let start = Instant::now();
    world.run_until(seconds, |w| {
        let moving = w.kinetic_energy() > rest;
        match (moving, settled_at) {
            (true, _) => settled_at = None,
            (false, None) => settled_at = Some(w.time()),
            (false, Some(_)) => {}
        }
    })?;
    let wall = start.elapsed().as_secs_f64();
    let s = world.stats();
    let height = (0..world.bodies().len())
        .flat_map(|k| world.placed(k))
        .flat_map(|part| part.vertices().iter().map(|v| v.y).collect::<Vec<_>>())
        .fold(0.0, f64::max);
    // Each polygon's radius, centre to corner (they are regular, so the centre is
    // the centre of mass), and the smallest and largest of them.
    let radius = |k: usize| {
        let centre = world.bodies()[k].position();
        let mut r = 0.0_f64;
        for part in world.placed(k) {
            for v in part.vertices() {
                r = r.max((*v - centre).norm());
            }
        }
        r
    };
    let radii = (0..world.bodies().len())
        .map(radius)
        .fold((f64::INFINITY, 0.0_f64), |(lo, hi), r| (lo.min(r), hi.max(r)));
    let before = json!({
        "t_reached": world.time(),
        // The old name of `t_reached`, kept for one release for readers' scripts.
        "seconds": world.time(),
        "count": pile.count,
        "settled_at": settled_at,
        "kinetic_energy_end_j": world.kinetic_energy(),
        "pile_height_m": height,
        "max_depth": s.max_depth,
        "epsilon": world.settings().epsilon,
    });
    let after = json!({
        "islands_per_solve": s.islands as f64 / s.solves.max(1) as f64,
        "pivots_per_solve": s.pivots as f64 / s.solves.max(1) as f64,
        "friction_rounds_per_solve": s.rounds as f64 / s.solves.max(1) as f64,
        "steps_per_second": s.steps as f64 / wall.max(1e-9),
        "solver": p.solver.word(),
        "sweeps_per_step": s.sweeps as f64 / s.steps.max(1) as f64,
        "radius_range_m": [radii.0, radii.1],
    });
    Ok(joined([before, step_counts(&s), after]))
}

/// The world's counts of corrections, impacts and steps, in the order the
/// mechanisms' results print them.
fn step_counts(s: &Stats) -> Value {
    json!({
        "tolerance_corrections": s.corrections,
        "impacts": s.impacts,
        "shortened_steps": s.shortened,
        "limited_steps": s.limited,
        "friction_dropped": s.friction_dropped,
        "steps": s.steps,
    })
}

/// The keys of `parts` (JSON objects) one after another, in order.
fn joined<const N: usize>(parts: [Value; N]) -> Value {
    let mut out = serde_json::Map::new();
    for part in parts {
        if let Value::Object(map) = part {
            out.extend(map);
        }
    }
    Value::Object(out)
}
