//! The functions the page calls. Demos are numbered by their place in
//! [`crate::demos`], running instances by the handle [`pbm_create`] returns. A
//! function returning text returns a pointer to UTF-8 bytes whose length
//! [`pbm_text_len`] gives; a function returning numbers returns a pointer to f64s
//! whose count the caller knows (parameters, readouts) or [`pbm_draw_len`] gives.
//! Pointers stay valid until the next call.

use crate::demo::{Demo, DemoSpec, Drawing, Pointer};
use std::cell::RefCell;

/// The most parameters a demo may have.
pub const MAX_PARAMS: usize = 16;

struct Instance {
    demo: Box<dyn Demo>,
    readouts: Vec<f64>,
    drawing: Drawing,
    note: String,
}

#[derive(Default)]
struct State {
    params: [f64; MAX_PARAMS],
    instances: Vec<Option<Instance>>,
    text_len: usize,
    error: String,
    view: [f64; 4],
    /// What the last [`pbm_body_count`] found.
    bodies: Vec<f64>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

fn text(s: &str) -> *const u8 {
    STATE.with_borrow_mut(|st| st.text_len = s.len());
    s.as_ptr()
}

fn spec(demo: u32) -> Option<&'static DemoSpec> {
    crate::demos().nth(demo as usize)
}

/// Bytes of the text the last text function returned.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_text_len() -> u32 {
    STATE.with_borrow(|st| st.text_len as u32)
}

/// Number of demos.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_demo_count() -> u32 {
    crate::demos().count() as u32
}

/// A demo's id, e.g. `ode/euler-spiral`.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_demo_id(demo: u32) -> *const u8 {
    text(spec(demo).map_or("", |d| d.id))
}

/// A demo's title.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_demo_title(demo: u32) -> *const u8 {
    text(spec(demo).map_or("", |d| d.title))
}

/// What the reader can drag in a demo, or empty text if it takes no pointer.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_demo_drag(demo: u32) -> *const u8 {
    text(spec(demo).and_then(|d| d.drag).unwrap_or(""))
}

/// Number of a demo's parameters.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_param_count(demo: u32) -> u32 {
    spec(demo).map_or(0, |d| d.params.len() as u32)
}

/// What a parameter is: `field` 0 its name, 1 its label, 2 its unit.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_param_text(demo: u32, param: u32, field: u32) -> *const u8 {
    let p = spec(demo).and_then(|d| d.params.get(param as usize));
    text(p.map_or("", |p| match field {
        0 => p.name,
        1 => p.label,
        2 => p.unit,
        _ => "",
    }))
}

/// A number of a parameter: `field` 0 its default, 1 its minimum, 2 its maximum,
/// 3 whether it is logarithmic, 4 whether it is whole, 5 how many choices it has.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_param_number(demo: u32, param: u32, field: u32) -> f64 {
    let Some(p) = spec(demo).and_then(|d| d.params.get(param as usize)) else {
        return f64::NAN;
    };
    match field {
        0 => p.default,
        1 => p.min,
        2 => p.max,
        3 => f64::from(u8::from(p.log)),
        4 => f64::from(u8::from(p.whole)),
        5 => p.choices.len() as f64,
        _ => f64::NAN,
    }
}

/// The name of a menu parameter's `choice`.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_param_choice(demo: u32, param: u32, choice: u32) -> *const u8 {
    let p = spec(demo).and_then(|d| d.params.get(param as usize));
    text(p.and_then(|p| p.choices.get(choice as usize)).copied().unwrap_or(""))
}

/// Number of a demo's readouts.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_readout_count(demo: u32) -> u32 {
    spec(demo).map_or(0, |d| d.readouts.len() as u32)
}

/// What a readout is: `field` 0 its label, 1 its unit.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_readout_text(demo: u32, readout: u32, field: u32) -> *const u8 {
    let r = spec(demo).and_then(|d| d.readouts.get(readout as usize));
    text(r.map_or("", |r| if field == 0 { r.label } else { r.unit }))
}

/// The [`crate::demo::Ink`] of a readout, or −1 if it has none.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_readout_ink(demo: u32, readout: u32) -> i32 {
    let r = spec(demo).and_then(|d| d.readouts.get(readout as usize));
    r.and_then(|r| r.ink).map_or(-1, |ink| ink as i32)
}

/// What a demo plots over time: `field` 0 the readout along the horizontal axis, 1
/// whether the vertical axis is logarithmic (1) or not (0), 2 how many readouts are
/// plotted, 3 + i the i-th of them (readouts by their place in the demo's list);
/// −1 for a field or demo that does not exist, or a plot naming a readout the demo
/// does not have (`tests/demos.rs` checks that none does).
#[unsafe(no_mangle)]
pub extern "C" fn pbm_plot(demo: u32, field: u32) -> i32 {
    let Some(d) = spec(demo) else {
        return -1;
    };
    let Ok((x, ys)) = d.plotted() else {
        return -1;
    };
    match field {
        0 => x as i32,
        1 => d.plot.log as i32,
        2 => ys.len() as i32,
        n => ys.get(n as usize - 3).map_or(-1, |&y| y as i32),
    }
}

/// Where the page writes parameter values before [`pbm_create`] or [`pbm_view`]:
/// [`MAX_PARAMS`] f64s.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_params() -> *mut f64 {
    STATE.with_borrow_mut(|st| st.params.as_mut_ptr())
}

/// The world rectangle (x_min, x_max, y_min, y_max) of a demo with the parameters
/// in [`pbm_params`].
#[unsafe(no_mangle)]
pub extern "C" fn pbm_view(demo: u32) -> *const f64 {
    STATE.with_borrow_mut(|st| {
        // Out-of-range values keep the last view: the page checks them on create.
        if let Some(view) = spec(demo).and_then(|d| {
            d.view_of(&st.params[..d.params.len().min(MAX_PARAMS)]).ok()
        }) {
            st.view = view;
        }
        st.view.as_ptr()
    })
}

/// Starts a demo with the parameters in [`pbm_params`]. Returns its handle, or −1
/// with the reason in [`pbm_error`].
#[unsafe(no_mangle)]
pub extern "C" fn pbm_create(demo: u32) -> i32 {
    STATE.with_borrow_mut(|st| {
        let Some(d) = spec(demo) else {
            st.error = format!("there is no demo {demo}");
            return -1;
        };
        let n = d.params.len().min(MAX_PARAMS);
        match d.create(&st.params[..n]) {
            Ok(demo) => {
                let mut instance = Instance {
                    readouts: demo.readouts(),
                    drawing: Drawing::default(),
                    note: String::new(),
                    demo,
                };
                instance.demo.draw(&mut instance.drawing);
                let slot = st.instances.iter().position(Option::is_none);
                let handle = slot.unwrap_or(st.instances.len());
                if handle == st.instances.len() {
                    st.instances.push(None);
                }
                st.instances[handle] = Some(instance);
                handle as i32
            }
            Err(e) => {
                st.error = e.to_string();
                -1
            }
        }
    })
}

/// Advances a demo by `frames` frames and refreshes its readouts and drawing.
/// Returns 0, or −1 with the reason in [`pbm_error`] (the demo then stays where its
/// failing frame began).
#[unsafe(no_mangle)]
pub extern "C" fn pbm_frame(handle: u32, frames: u32) -> i32 {
    STATE.with_borrow_mut(|st| {
        let Some(Some(instance)) = st.instances.get_mut(handle as usize) else {
            st.error = format!("there is no running demo {handle}");
            return -1;
        };
        let mut outcome = Ok(());
        for _ in 0..frames {
            outcome = instance.demo.frame();
            if outcome.is_err() {
                break;
            }
        }
        instance.readouts = instance.demo.readouts();
        instance.drawing.clear();
        instance.demo.draw(&mut instance.drawing);
        instance.note = instance.demo.note().unwrap_or_default();
        match outcome {
            Ok(()) => 0,
            Err(e) => {
                st.error = e.to_string();
                -1
            }
        }
    })
}

/// New parameters (in [`pbm_params`]) for running demo `handle` of demo `demo`.
/// Returns 1 if the demo took them as it runs (and then redraws), 0 if it must be
/// started afresh with them, −1 with the reason in [`pbm_error`] if there is no
/// such demo or a parameter is out of its range.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_retune(demo: u32, handle: u32) -> i32 {
    STATE.with_borrow_mut(|st| {
        let Some(d) = spec(demo) else {
            st.error = format!("there is no demo {demo}");
            return -1;
        };
        let n = d.params.len().min(MAX_PARAMS);
        let checked = match d.check(&st.params[..n]) {
            Ok(checked) => checked,
            Err(e) => {
                st.error = e.to_string();
                return -1;
            }
        };
        let Some(Some(instance)) = st.instances.get_mut(handle as usize) else {
            st.error = format!("there is no running demo {handle}");
            return -1;
        };
        let taken = instance.demo.retune(&checked);
        if taken {
            instance.readouts = instance.demo.readouts();
            instance.drawing.clear();
            instance.demo.draw(&mut instance.drawing);
        }
        i32::from(taken)
    })
}

/// The reader's pointer on a running demo: `event` 0 pressed, 1 moved, 2 let go, at
/// world point (`x`, `y`). Returns 1 if the demo took it (and then redraws), 0 if
/// not, −1 with the reason in [`pbm_error`] if there is no such demo or event.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_pointer(handle: u32, event: u32, x: f64, y: f64) -> i32 {
    STATE.with_borrow_mut(|st| {
        let Some(Some(instance)) = st.instances.get_mut(handle as usize) else {
            st.error = format!("there is no running demo {handle}");
            return -1;
        };
        let Some(event) = Pointer::from_code(event) else {
            st.error = format!("there is no pointer event {event}");
            return -1;
        };
        if !(x.is_finite() && y.is_finite()) {
            st.error = format!("the pointer is not at a finite point ({x}, {y})");
            return -1;
        }
        let taken = instance.demo.pointer(event, [x, y]);
        if taken {
            instance.drawing.clear();
            instance.demo.draw(&mut instance.drawing);
        }
        i32::from(taken)
    })
}

/// A running demo's readouts, as many as [`pbm_readout_count`] says.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_readouts(handle: u32) -> *const f64 {
    STATE.with_borrow(|st| match st.instances.get(handle as usize) {
        Some(Some(i)) => i.readouts.as_ptr(),
        _ => std::ptr::null(),
    })
}

/// A running demo's drawing ([`Drawing`]'s encoding); [`pbm_draw_len`] f64s.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_draw(handle: u32) -> *const f64 {
    STATE.with_borrow(|st| match st.instances.get(handle as usize) {
        Some(Some(i)) => i.drawing.data.as_ptr(),
        _ => std::ptr::null(),
    })
}

/// Number of f64s of a running demo's drawing.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_draw_len(handle: u32) -> u32 {
    STATE.with_borrow(|st| match st.instances.get(handle as usize) {
        Some(Some(i)) => i.drawing.data.len() as u32,
        _ => 0,
    })
}

/// Where the bodies the reader can grab in running demo `handle` are now
/// ([`Demo::bodies`]): returns how many, and keeps six f64s for each, the grip's x
/// and y and the bounds' x_min, x_max, y_min, y_max, for [`pbm_bodies`]; −1 with
/// the reason in [`pbm_error`] if there is no such demo.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_body_count(handle: u32) -> i32 {
    STATE.with_borrow_mut(|st| {
        let Some(Some(instance)) = st.instances.get(handle as usize) else {
            st.error = format!("there is no running demo {handle}");
            return -1;
        };
        let bodies = instance.demo.bodies();
        st.bodies =
            bodies.iter().flat_map(|b| b.grip.into_iter().chain(b.bounds)).collect();
        bodies.len() as i32
    })
}

/// The numbers the last [`pbm_body_count`] kept: six f64s a body.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_bodies() -> *const f64 {
    STATE.with_borrow(|st| st.bodies.as_ptr())
}

/// A running demo's note (empty if none).
#[unsafe(no_mangle)]
pub extern "C" fn pbm_note(handle: u32) -> *const u8 {
    STATE.with_borrow_mut(|st| {
        let note = match st.instances.get(handle as usize) {
            Some(Some(i)) => i.note.as_str(),
            _ => "",
        };
        st.text_len = note.len();
        note.as_ptr()
    })
}

/// Why the last call that failed failed.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_error() -> *const u8 {
    STATE.with_borrow_mut(|st| {
        st.text_len = st.error.len();
        st.error.as_ptr()
    })
}

/// Stops a demo and frees it.
#[unsafe(no_mangle)]
pub extern "C" fn pbm_drop(handle: u32) {
    STATE.with_borrow_mut(|st| {
        if let Some(slot) = st.instances.get_mut(handle as usize) {
            *slot = None;
        }
    });
}
