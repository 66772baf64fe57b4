//! The book's live demos: the chapter crates' own, tested code, compiled to
//! WebAssembly and driven by the page.
//!
//! The page talks to the module through a small C ABI ([`abi`]): numbers in,
//! numbers out, strings as pointer and length. No bindings generator is needed, so
//! building the demos takes only `rustup target add wasm32-unknown-unknown`; the
//! page's loader (`book/demos.js`) is a short hand-written file that reads
//! the demos' parameters, units and readouts from the module itself.

pub mod abi;
pub mod cloth;
pub mod collision;
pub mod constraints;
pub mod contact;
pub mod demo;
pub mod implicit;
pub mod interactive;
pub mod ode;
pub mod particles;
pub mod pbd;
pub mod rigid;

use demo::DemoSpec;

/// Every demo, in the book's order.
pub const DEMOS: &[DemoSpec] = &[
    ode::EULER_SPIRAL,
    particles::BOUNCING,
    implicit::STIFF,
    constraints::BEAD,
    rigid::DZHANIBEKOV,
    collision::SWEEP,
    contact::DROP,
    cloth::DRAPE,
    pbd::BOX_CHAIN,
    interactive::FEEDER,
    interactive::JACK,
];

/// The demo a page names, if there is one.
pub fn find(id: &str) -> Option<&'static DemoSpec> {
    DEMOS.iter().find(|d| d.id == id)
}

/// A number a demo shows that a CLI exercise prints too: after `frames` frames with
/// `params`, readout `readout` of demo `demo` equals the number at `key` in `pbm run
/// exercise --set ... --json` to the last digit (the same functions compute both). The native tests
/// and the browser test check every one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Agreement {
    /// The demo's id.
    pub demo: &'static str,
    /// Its parameter values, in the order of its parameters.
    pub params: &'static [f64],
    /// Frames to run.
    pub frames: u32,
    /// Which readout.
    pub readout: usize,
    /// The exercise, `chapter/id`.
    pub exercise: &'static str,
    /// Its `--set` assignments.
    pub set: &'static [&'static str],
    /// Where the number is in its JSON result, as a JSON Pointer (RFC 6901), e.g.
    /// `/final_body_omega/1`.
    pub key: &'static str,
    /// Whether the exercise prints the readout's absolute value.
    pub absolute: bool,
    /// How far, relative, the page's number may be from the CLI's. Zero (to the last
    /// digit) unless the computation calls transcendental functions: WebAssembly has
    /// no maths library of the platform's, so `acos`, `atan2` and friends come from
    /// Rust's own port of one and may differ from the native ones in the last bit,
    /// which a run of many steps amplifies. Native runs of the demo and the exercise
    /// (`tests/demos.rs`) must still agree exactly.
    pub tolerance: f64,
}

/// Every agreement between a demo and an exercise.
pub const AGREEMENTS: &[Agreement] = &[
    Agreement {
        demo: "ode/euler-spiral",
        params: &[0.0, 0.1],
        frames: 63,
        readout: 3,
        exercise: "ode/euler-spiral",
        set: &["h=0.1", "steps=63"],
        key: "/euler_final_radius",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "ode/euler-spiral",
        params: &[1.0, 0.25],
        frames: 26,
        readout: 3,
        exercise: "ode/euler-spiral",
        set: &["h=0.25", "steps=26"],
        key: "/midpoint_final_radius",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "ode/euler-spiral",
        params: &[2.0, 0.5],
        frames: 13,
        readout: 3,
        exercise: "ode/euler-spiral",
        set: &["h=0.5", "steps=13"],
        key: "/rk4_final_radius",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "particles/bouncing-ball",
        params: &[0.8, 0.01],
        // Four bounces measured by rollback, the fifth flight under way.
        frames: 130,
        readout: 3,
        exercise: "particles/bouncing-ball",
        set: &["restitution=0.8", "h=0.01"],
        key: "/apex_heights/4",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "particles/bouncing-ball",
        params: &[0.8, 0.01],
        // Three bounces measured with displacement.
        frames: 110,
        readout: 6,
        exercise: "particles/bouncing-ball",
        set: &["restitution=0.8", "h=0.01", "strategy=displace"],
        key: "/apex_heights/3",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "implicit/stiff",
        params: &[10.0, 0.15],
        frames: 20,
        readout: 1,
        exercise: "ode/stability",
        set: &["k=10", "h=0.15", "steps=20"],
        key: "/final_abs_x",
        absolute: true,
        tolerance: 0.0,
    },
    Agreement {
        demo: "constraints/bead",
        params: &[2.0, 0.01, 100.0, 20.0],
        frames: 250,
        readout: 3,
        exercise: "constraints/drift",
        set: &["solver=rk4", "h=0.01", "t_end=5", "k_s=100", "k_d=20"],
        key: "/max_abs_c_with_feedback",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "constraints/bead",
        params: &[1.0, 0.005, 0.0, 0.0],
        // Three steps of 5 ms a frame: 600 steps, 3 s.
        frames: 200,
        readout: 3,
        exercise: "constraints/drift",
        set: &["solver=midpoint", "h=0.005", "t_end=3"],
        key: "/max_abs_c_without_feedback",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "rigid/dzhanibekov",
        params: &[0.0],
        frames: 500,
        readout: 2,
        exercise: "rigid/dzhanibekov",
        set: &["t_end=10"],
        key: "/final_body_omega/1",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "pbd/chain",
        params: &[10.0, 20.0, 1.0],
        frames: 60,
        readout: 1,
        exercise: "pbd/chain",
        set: &["links=10", "substeps=20", "iterations=1", "t_end=1"],
        key: "/max_joint_gap_mm",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "pbd/chain",
        params: &[5.0, 8.0, 2.0],
        frames: 90,
        readout: 2,
        exercise: "pbd/chain",
        set: &["links=5", "substeps=8", "iterations=2", "t_end=1.5"],
        key: "/energy_end_j",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "collision/sweep",
        params: &[100.0, 0.05],
        frames: 50,
        readout: 1,
        exercise: "collision/sweep-table",
        set: &["n_max=200", "steps=50"],
        key: "/coherence/0/overlapping_pairs",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "collision/sweep",
        params: &[100.0, 0.05],
        frames: 50,
        readout: 3,
        exercise: "collision/sweep-table",
        set: &["n_max=200", "steps=50"],
        key: "/coherence/0/exchanges_per_step",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "contact/drop",
        params: &[0.5, 0.5, 0.0],
        frames: 120,
        readout: 1,
        exercise: "contact/drop",
        set: &["seconds=2"],
        key: "/impacts",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "contact/drop",
        params: &[0.5, 0.5, 0.0],
        frames: 120,
        readout: 4,
        exercise: "contact/drop",
        set: &["seconds=2"],
        key: "/end_energy_j",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "cloth/drape",
        params: &[0.0, 8.0, 1000.0],
        frames: 60,
        readout: 3,
        exercise: "cloth/drape",
        // One step of 1/60 s a frame, written to the last digit of the f64.
        set: &["n=8", "h=0.016666666666666666", "t_end=1"],
        key: "/lowest_z_m",
        absolute: false,
        // The shear angle's acos and the hinge's atan2 (see `tolerance`): measured
        // 6e-11 relative after 60 steps.
        tolerance: 1e-9,
    },
    Agreement {
        demo: "cloth/drape",
        params: &[0.0, 8.0, 1000.0],
        frames: 60,
        readout: 4,
        exercise: "cloth/drape",
        set: &["n=8", "h=0.016666666666666666", "t_end=1"],
        key: "/max_penetration_mm",
        absolute: false,
        // The shear angle's acos and the hinge's atan2 (see `tolerance`): measured
        // 6e-11 relative after 60 steps.
        tolerance: 1e-9,
    },
    Agreement {
        demo: "interactive/feeder",
        params: &[0.02, 0.3, 4.0, 0.0, 8.0],
        // 2.5 s: the first block is out, in the first turn of the crank.
        frames: 150,
        readout: 1,
        exercise: "interactive/feeder",
        set: &["seconds=2.5"],
        key: "/blocks_fed",
        absolute: false,
        tolerance: 0.0,
    },
    Agreement {
        demo: "interactive/feeder",
        params: &[0.02, 0.3, 4.0, 0.0, 8.0],
        frames: 150,
        readout: 3,
        exercise: "interactive/feeder",
        set: &["seconds=2.5"],
        key: "/max_depth",
        absolute: false,
        // The crank's circle calls sin and cos (see above).
        tolerance: 0.05,
    },
    Agreement {
        demo: "interactive/jack",
        params: &[0.3, 3.0, 3.0, 0.02, 0.0],
        // One pump, 3 s: the rack a tooth up on each stroke.
        frames: 180,
        readout: 1,
        exercise: "interactive/jack",
        set: &["seconds=3"],
        key: "/lift_m",
        absolute: false,
        // The handle's arc calls sin and cos (see above).
        tolerance: 0.05,
    },
];
