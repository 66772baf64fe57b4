// The book's live demos (web/, book-tools/src/demos.rs). Each `{{#demo id}}` of a page becomes a
// <div class="pbm-demo" data-demo="id" data-sliders="…"> holding one line on how to
// get the live version (data-sliders: the labels and units of the sliders that set an
// exercise's parameter, from its declaration); when the book was built with the WebAssembly module, this loader replaces
// that line with the demo: a canvas, its sliders, play/pause/step/reset, and the
// numbers the chapter's own code computes.
//
// The module is the chapter crates compiled for wasm32-unknown-unknown with a small C
// ABI (web/src/abi.rs): numbers in, numbers out, strings as pointer and length. It is
// shipped as base64 in demos/pbm-web.js, a plain script, so that the book works from
// file:// as well as from a server (fetch() of a file:// URL is refused).
"use strict";

(function () {
  const boxes = document.querySelectorAll("div.pbm-demo");
  if (boxes.length === 0) return;
  const root = typeof path_to_root === "string" ? path_to_root : "";
  const script = document.createElement("script");
  script.src = root + "demos/pbm-web.js";
  script.onload = () => {
    if (!window.pbmWasm) return; // built without the module: the fallback line stays
    start(window.pbmWasm).catch((e) => {
      for (const box of boxes) fail(box, "the demo could not start: " + e);
    });
  };
  document.head.appendChild(script);

  function fail(box, why) {
    const line = document.createElement("p");
    line.className = "pbm-demo-error";
    line.textContent = why;
    box.appendChild(line);
  }

  async function start(base64) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const { instance } = await WebAssembly.instantiate(bytes, {});
    const m = instance.exports;
    const api = new Module(m);
    for (const box of boxes) {
      const index = api.ids.indexOf(box.dataset.demo);
      if (index < 0) {
        fail(box, `there is no demo ${box.dataset.demo}`);
        continue;
      }
      box.pbmDemo = new LiveDemo(api, index, box);
    }
    window.pbmDemosReady = true;
  }

  // The module's functions, with its strings and arrays read out of its memory.
  class Module {
    constructor(m) {
      this.m = m;
      this.decoder = new TextDecoder();
      this.ids = [];
      for (let d = 0; d < m.pbm_demo_count(); d++) this.ids.push(this.text(m.pbm_demo_id(d)));
    }
    text(ptr) {
      const len = this.m.pbm_text_len();
      return this.decoder.decode(new Uint8Array(this.m.memory.buffer, ptr, len));
    }
    numbers(ptr, count) {
      // A fresh view every time: the module's memory may have grown since.
      return Array.from(new Float64Array(this.m.memory.buffer, ptr, count));
    }
    spec(d) {
      const m = this.m;
      const params = [];
      for (let i = 0; i < m.pbm_param_count(d); i++) {
        const choices = [];
        for (let c = 0; c < m.pbm_param_number(d, i, 5); c++) {
          choices.push(this.text(m.pbm_param_choice(d, i, c)));
        }
        params.push({
          name: this.text(m.pbm_param_text(d, i, 0)),
          label: this.text(m.pbm_param_text(d, i, 1)),
          unit: this.text(m.pbm_param_text(d, i, 2)),
          value: m.pbm_param_number(d, i, 0),
          min: m.pbm_param_number(d, i, 1),
          max: m.pbm_param_number(d, i, 2),
          log: m.pbm_param_number(d, i, 3) === 1,
          whole: m.pbm_param_number(d, i, 4) === 1,
          choices,
        });
      }
      const readouts = [];
      for (let r = 0; r < m.pbm_readout_count(d); r++) {
        readouts.push({
          label: this.text(m.pbm_readout_text(d, r, 0)),
          unit: this.text(m.pbm_readout_text(d, r, 1)),
          ink: m.pbm_readout_ink(d, r),
        });
      }
      const drag = this.text(m.pbm_demo_drag(d));
      const plot = { x: m.pbm_plot(d, 0), log: m.pbm_plot(d, 1) === 1, ys: [] };
      for (let i = 0; i < m.pbm_plot(d, 2); i++) plot.ys.push(m.pbm_plot(d, 3 + i));
      return { title: this.text(m.pbm_demo_title(d)), params, readouts, drag, plot };
    }
    writeParams(values) {
      const view = new Float64Array(this.m.memory.buffer, this.m.pbm_params(), values.length);
      view.set(values);
    }
    // New parameters for a running demo: true if it took them as it runs, false if
    // it must be started afresh.
    retune(d, handle, values) {
      this.writeParams(values);
      const taken = this.m.pbm_retune(d, handle);
      if (taken < 0) throw new Error(this.text(this.m.pbm_error()));
      return taken === 1;
    }
    create(d, values) {
      this.writeParams(values);
      const view = this.numbers(this.m.pbm_view(d), 4);
      const handle = this.m.pbm_create(d);
      if (handle < 0) throw new Error(this.text(this.m.pbm_error()));
      return { handle, view };
    }
  }

  // Slider positions: 0..STEPS, mapped linearly or logarithmically onto [min, max].
  const STEPS = 1000;
  function toValue(p, position) {
    const f = position / STEPS;
    let v = p.log ? p.min * Math.pow(p.max / p.min, f) : p.min + f * (p.max - p.min);
    if (p.whole) v = Math.round(v);
    // Three significant digits: values a reader can type into the CLI.
    return p.whole ? v : Number(v.toPrecision(3));
  }
  function toPosition(p, v) {
    const f = p.log ? Math.log(v / p.min) / Math.log(p.max / p.min) : (v - p.min) / (p.max - p.min);
    return Math.round(f * STEPS);
  }
  // A number as a reader reads it: four significant digits, and rounding noise (a
  // difference of two nearly equal numbers, 8.9e-16) shown as what it means.
  function show(v) {
    if (Number.isNaN(v)) return "–";
    if (!Number.isFinite(v)) return String(v);
    if (Number.isInteger(v) && Math.abs(v) < 1e9) return String(v);
    if (Math.abs(v) < 1e-12) return "< 1e-12";
    return Number(v.toPrecision(4)).toString();
  }

  // The simulation's clock: a demo frame is 1/60 s of the page, whatever the display's
  // refresh rate; each display frame runs the whole demo frames that have come due.
  const FRAME_MS = 1000 / 60;
  // A longer pause (a hidden tab, a debugger) is not caught up.
  const MAX_CATCH_UP_MS = 100;
  // The most points a plot keeps: beyond it every other point is dropped.
  const PLOT_POINTS = 2000;
  const reducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

  // A demo's parameters in the page's address: `?ode/euler-spiral.h=0.25`.
  const urlKey = (id, p) => `${id}.${p.name}`;
  function fromUrl(id, params) {
    const query = new URLSearchParams(location.search);
    return params.map((p) => {
      const text = query.get(urlKey(id, p));
      const v = text === null ? NaN : Number(text);
      const whole = !(p.whole || p.choices.length > 0) || Number.isInteger(v);
      return Number.isFinite(v) && v >= p.min && v <= p.max && whole ? v : p.value;
    });
  }
  function toUrl(id, params, values) {
    const url = new URL(location.href);
    params.forEach((p, i) => {
      if (values[i] === p.value) url.searchParams.delete(urlKey(id, p));
      else url.searchParams.set(urlKey(id, p), String(values[i]));
    });
    history.replaceState(history.state, "", url);
  }

  // The series' colours, in the order of the drawing's inks First, Second, Third.
  const PALETTE = ["#2f7fc1", "#e07b24", "#3a9a4a"];

  // `canvas` sized to width × height CSS pixels at the screen's pixel density, cleared,
  // its 2-D context drawing in CSS pixels.
  function surface(canvas, width, height) {
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
      canvas.style.height = height + "px";
    }
    const g = canvas.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, width, height);
    return g;
  }

  function themeForeground() {
    const style = getComputedStyle(document.documentElement);
    return style.getPropertyValue("--fg").trim() || "#333";
  }

  function element(tag, className, parent, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  class LiveDemo {
    constructor(api, index, box) {
      this.api = api;
      this.index = index;
      this.spec = api.spec(index);
      // A slider of an exercise's parameter takes its label and unit from the
      // parameter's declaration, which the page carries.
      const sliders = JSON.parse(box.dataset.sliders || "{}");
      for (const p of this.spec.params) Object.assign(p, sliders[p.name] || {});
      this.id = box.dataset.demo;
      this.values = fromUrl(this.id, this.spec.params);
      this.playing = false;
      this.pausedByReader = false;
      this.framesRun = 0;
      this.handle = -1;
      this.frameTimes = [];
      box.replaceChildren();
      element("p", "pbm-demo-title", box, "Live: " + this.spec.title);
      this.canvas = element("canvas", null, box);
      this.canvas.setAttribute("role", "img");
      this.canvas.setAttribute("aria-label", this.spec.title);
      if (this.spec.drag) {
        element("p", "pbm-demo-hint", box, this.spec.drag);
        this.listen();
      }
      this.plotCanvas = element("canvas", "pbm-demo-plot", box);
      this.plotCanvas.setAttribute("role", "img");
      const plotted = this.spec.plot.ys.map((y) => this.spec.readouts[y].label).join(", ");
      this.plotCanvas.setAttribute("aria-label", `${plotted} over time`);
      element("p", "pbm-demo-print", box, `This demo runs live, with its sliders, in the online book: ${location.href.split("?")[0]}`);
      const controls = element("div", "pbm-demo-controls", box);
      this.inputs = this.spec.params.map((p, i) => this.control(controls, p, i));
      const buttons = element("div", "pbm-demo-buttons", box);
      this.playButton = element("button", null, buttons, "Play");
      this.playButton.onclick = () => {
        this.pausedByReader = this.playing;
        this.setPlaying(!this.playing);
      };
      element("button", null, buttons, "Step").onclick = () => {
        this.pausedByReader = true;
        this.setPlaying(false);
        this.advance(1);
      };
      element("button", null, buttons, "Reset").onclick = () => this.reset();
      this.status = element("span", "pbm-demo-status", buttons);
      const table = element("table", "pbm-demo-readouts", box);
      this.cells = this.spec.readouts.map((r) => {
        const row = element("tr", null, table);
        const label = element("th", null, row, r.label);
        if (r.ink >= 0) label.dataset.ink = String(r.ink);
        const cell = element("td", null, row);
        element("td", null, row, r.unit);
        return cell;
      });
      this.note = element("p", "pbm-demo-note", box);
      // The canvas's width and the theme's colour are read when they change, not every
      // frame: reading them after the readouts were written would make the browser lay
      // out and restyle the page once a frame.
      this.width = this.canvas.clientWidth;
      this.foreground = themeForeground();
      this.reset();
      // Play while on screen (unless the reader paused it or asks for less motion).
      new IntersectionObserver(
        (entries) => {
          const visible = entries[entries.length - 1].isIntersecting;
          if (!visible) this.setPlaying(false);
          else if (!this.pausedByReader && !reducedMotion) this.setPlaying(true);
        },
        { threshold: 0.35 }
      ).observe(this.canvas);
      new ResizeObserver((entries) => {
        this.width = entries[entries.length - 1].contentRect.width;
        this.draw();
        this.drawPlot();
      }).observe(this.canvas);
      // Redraw when the reader changes the theme.
      new MutationObserver(() => {
        this.foreground = themeForeground();
        this.draw();
        this.drawPlot();
      }).observe(document.documentElement, {
        attributes: true,
        attributeFilter: ["class"],
      });
    }

    // The reader's pointer, in world coordinates, for demos that take it: a press
    // the demo takes starts the simulation and captures the pointer until let go.
    listen() {
      const canvas = this.canvas;
      canvas.style.touchAction = "none";
      canvas.style.cursor = "grab";
      const send = (event, e) => {
        if (this.handle < 0 || this.error || !this.toWorld) return false;
        const rect = canvas.getBoundingClientRect();
        const [x, y] = this.toWorld(e.clientX - rect.left, e.clientY - rect.top);
        const taken = this.api.m.pbm_pointer(this.handle, event, x, y) === 1;
        if (taken) this.draw();
        return taken;
      };
      canvas.addEventListener("pointerdown", (e) => {
        if (!send(0, e)) return;
        this.dragging = true;
        canvas.setPointerCapture(e.pointerId);
        canvas.style.cursor = "grabbing";
        this.setPlaying(true);
        e.preventDefault();
      });
      canvas.addEventListener("pointermove", (e) => {
        if (this.dragging) send(1, e);
      });
      const release = (e) => {
        if (!this.dragging) return;
        this.dragging = false;
        canvas.style.cursor = "grab";
        send(2, e);
      };
      canvas.addEventListener("pointerup", release);
      canvas.addEventListener("pointercancel", release);
    }

    control(parent, p, i) {
      const label = element("label", null, parent);
      element("span", "pbm-demo-label", label, p.label + " ");
      let input;
      if (p.choices.length > 0) {
        input = element("select", null, label);
        p.choices.forEach((c, k) => {
          const option = element("option", null, input, c);
          option.value = String(k);
        });
        input.value = String(this.values[i]);
        input.oninput = () => this.set(i, Number(input.value));
      } else {
        input = element("input", null, label);
        input.type = "range";
        input.min = "0";
        input.max = String(STEPS);
        input.value = String(toPosition(p, this.values[i]));
        input.setAttribute("aria-label", p.label);
        const shown = element("output", null, label);
        const update = () => (shown.textContent = ` ${show(this.values[i])} ${p.unit}`);
        input.oninput = () => {
          this.set(i, toValue(p, Number(input.value)));
          update();
        };
        input.pbmUpdate = update;
        update();
      }
      input.dataset.param = p.name;
      return input;
    }

    // A change the running demo can take (the world's order, in chapter 11) goes on
    // from where it is; any other starts it afresh.
    set(i, value) {
      this.values[i] = value;
      toUrl(this.id, this.spec.params, this.values);
      if (this.handle >= 0 && !this.error) {
        try {
          if (this.api.retune(this.index, this.handle, this.values)) {
            this.refresh();
            return;
          }
        } catch (e) {
          this.error = String(e.message);
          this.refresh();
          return;
        }
      }
      this.reset();
    }

    // The test's hook: set every parameter at once (exact values, not slider steps).
    setParams(values) {
      this.values = values.slice();
      this.inputs.forEach((input, i) => {
        const p = this.spec.params[i];
        input.value = p.choices.length > 0 ? String(values[i]) : String(toPosition(p, values[i]));
        if (input.pbmUpdate) input.pbmUpdate();
      });
      this.reset();
    }

    reset() {
      this.dragging = false;
      this.series = { x: [], ys: this.spec.plot.ys.map(() => []) };
      this.framesRun = 0;
      if (this.handle >= 0) this.api.m.pbm_drop(this.handle);
      this.handle = -1;
      this.error = "";
      try {
        const { handle, view } = this.api.create(this.index, this.values);
        this.handle = handle;
        this.view = view;
      } catch (e) {
        this.error = String(e.message);
      }
      this.refresh();
    }

    setPlaying(playing) {
      const was = this.playing;
      this.playing = playing && this.handle >= 0 && !this.error;
      this.playButton.textContent = this.playing ? "Pause" : "Play";
      if (this.playing && !was) {
        this.clock = undefined;
        requestAnimationFrame((t) => this.tick(t));
      }
    }

    tick(now) {
      if (!this.playing) return;
      this.pace(now);
      if (this.playing) requestAnimationFrame((t) => this.tick(t));
    }

    // Runs the demo frames due at display time `now` (ms): as many 1/60 s frames as
    // have passed since the last display frame, so that a 120 Hz screen runs at real
    // time too, every other display frame running none. Returns how many ran.
    pace(now) {
      if (this.clock === undefined) {
        this.clock = { last: now, owed: 0, hz: 60 };
      }
      const c = this.clock;
      const dt = now - c.last;
      c.last = now;
      if (dt > 0) c.hz += 0.1 * (1000 / dt - c.hz);
      c.owed += Math.min(Math.max(dt, 0), MAX_CATCH_UP_MS);
      const due = Math.floor(c.owed / FRAME_MS + 1e-9);
      c.owed -= due * FRAME_MS;
      if (due > 0) this.advance(due);
      // The display's rate, and the 1/60 s simulation frames this display frame ran.
      const text = `display ${Math.round(c.hz)} Hz · ran ${due} × 1/60 s`;
      if (this.status.textContent !== text) this.status.textContent = text;
      return due;
    }

    // Runs `frames` frames of the simulation; returns the time they took (ms).
    advance(frames) {
      if (this.handle < 0 || this.error) return 0;
      const t0 = performance.now();
      const status = this.api.m.pbm_frame(this.handle, frames);
      const ms = performance.now() - t0;
      this.framesRun += frames;
      this.frameTimes.push(ms / frames);
      if (this.frameTimes.length > 600) this.frameTimes.shift();
      if (status < 0) {
        this.error = this.api.text(this.api.m.pbm_error());
        this.setPlaying(false);
      }
      this.refresh();
      return ms;
    }

    readouts() {
      if (this.handle < 0) return [];
      return this.api.numbers(this.api.m.pbm_readouts(this.handle), this.spec.readouts.length);
    }

    // The plotted readouts after a frame.
    record(values) {
      const { x, ys } = this.series;
      const plot = this.spec.plot;
      if (values.length === 0 || (x.length > 0 && values[plot.x] === x[x.length - 1])) return;
      x.push(values[plot.x]);
      plot.ys.forEach((y, k) => ys[k].push(values[y]));
      if (x.length > PLOT_POINTS) {
        const half = (a) => a.filter((_, i) => i % 2 === 0);
        this.series = { x: half(x), ys: ys.map(half) };
      }
    }

    refresh() {
      const values = this.readouts();
      this.record(values);
      this.cells.forEach((cell, r) => {
        const v = r < values.length ? values[r] : NaN;
        const text = show(v);
        if (cell.textContent !== text) cell.textContent = text;
        cell.dataset.value = String(v);
      });
      let note = this.handle >= 0 ? this.api.text(this.api.m.pbm_note(this.handle)) : "";
      if (this.error) note = this.error;
      this.note.textContent = note;
      this.note.classList.toggle("pbm-demo-error", this.error !== "");
      this.draw();
      this.drawPlot();
    }

    // The plotted readouts against time (or steps), each in its readout's ink, with
    // the axes' ranges written at their ends. Readouts that share a unit share a
    // panel and its vertical scale; a readout of another unit (an overlap in metres
    // beside an energy in joules) gets a panel of its own below, on its own scale.
    drawPlot() {
      const canvas = this.plotCanvas;
      const width = this.width;
      if (!width) return;
      const spec = this.spec;
      const plot = spec.plot;
      const inkOf = (k) => {
        const ink = spec.readouts[plot.ys[k]].ink;
        return ink >= 2 ? PALETTE[ink - 2] : ink >= 0 && plot.ys.length === 1 ? PALETTE[0] : PALETTE[k % 3];
      };
      const panels = [];
      plot.ys.forEach((y, k) => {
        const unit = spec.readouts[y].unit;
        const panel = panels.find((p) => p.unit === unit);
        if (panel) panel.ks.push(k);
        else panels.push({ unit, ks: [k] });
      });
      const left = 62, right = 10, axis = 26, gap = 10;
      // The legends, laid out first: their lines decide where each panel's axes begin.
      const measure = canvas.getContext("2d");
      measure.font = "12px sans-serif";
      let height = 0;
      panels.forEach((panel, i) => {
        panel.legend = [];
        let at = left, line = 0;
        for (const k of panel.ks) {
          const r = spec.readouts[plot.ys[k]];
          const label = `${r.label}${r.unit ? ` (${r.unit})` : ""}${plot.log ? ", log scale" : ""}`;
          const w = measure.measureText(label).width;
          if (at > left && at + w > width - right) { at = left; line += 1; }
          panel.legend.push({ label, x: at, y: height + 3 + 15 * line, ink: inkOf(k) });
          at += w + 14;
        }
        const last = i === panels.length - 1;
        panel.top = height + 22 + 15 * line;
        panel.bottom = panel.top + 102 + 15 * Math.max(0, panel.ks.length - 1);
        height = panel.bottom + (last ? axis : gap);
      });
      const g = surface(canvas, width, height);
      const fg = this.foreground;
      const { x, ys } = this.series;
      const scale = plot.log ? (v) => (v > 0 ? Math.log10(v) : NaN) : (v) => v;
      const x0 = x.length ? x[0] : 0, x1 = x.length > 1 ? x[x.length - 1] : x0 + 1;
      const px = (v) => left + ((v - x0) / (x1 - x0 || 1)) * (width - left - right);
      // An axis's ends to three digits: they say where the scale is, not a reading.
      const short = (v) => (Math.abs(v) < 1e-12 ? "0" : String(Number(v.toPrecision(3))));
      const tick = (u) => short(plot.log ? Math.pow(10, u) : u);
      g.font = "12px sans-serif";
      for (const panel of panels) {
        const { top, bottom: floor } = panel;
        let lo = Infinity, hi = -Infinity;
        for (const k of panel.ks) for (const v of ys[k]) {
          const u = scale(v);
          if (Number.isFinite(u)) { lo = Math.min(lo, u); hi = Math.max(hi, u); }
        }
        if (!(hi >= lo)) { lo = 0; hi = 1; }
        if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) { lo -= 0.5; hi += 0.5; }
        // A margin, so that no curve runs along an axis or the frame's top.
        const pad = 0.06 * (hi - lo);
        lo -= pad;
        hi += pad;
        const py = (u) => top + (1 - (u - lo) / (hi - lo)) * (floor - top);
        g.fillStyle = fg;
        g.strokeStyle = fg;
        g.globalAlpha = 0.5;
        g.lineWidth = 1;
        g.beginPath();
        g.moveTo(left, top);
        g.lineTo(left, floor);
        g.lineTo(width - right, floor);
        g.stroke();
        g.globalAlpha = 1;
        g.textAlign = "right";
        g.textBaseline = "top";
        g.fillText(tick(hi), left - 4, top - 2);
        g.textBaseline = "bottom";
        g.fillText(tick(lo), left - 4, floor + 2);
        // The legend: each plotted readout's label in its ink, with its unit.
        g.textAlign = "left";
        g.textBaseline = "top";
        for (const item of panel.legend) {
          g.fillStyle = item.ink;
          g.fillText(item.label, item.x, item.y);
        }
        g.lineWidth = 1.5;
        for (const k of panel.ks) {
          g.strokeStyle = inkOf(k);
          g.beginPath();
          let pen = false;
          ys[k].forEach((v, i) => {
            const u = scale(v);
            if (!Number.isFinite(u)) { pen = false; return; }
            if (pen) g.lineTo(px(x[i]), py(u));
            else g.moveTo(px(x[i]), py(u));
            pen = true;
          });
          g.stroke();
        }
      }
      // Where the first panel's curves are drawn, for the browser test.
      const first = panels[0];
      this.plotArea = { left, top: first.top, right: width - right, bottom: first.bottom };
      // The time axis, under the last panel.
      const floor = panels[panels.length - 1].bottom;
      const xr = spec.readouts[plot.x];
      g.fillStyle = fg;
      g.textBaseline = "top";
      g.textAlign = "left";
      g.fillText(short(x0), left, floor + 4);
      g.textAlign = "right";
      g.fillText(`${short(x1)} ${xr.unit}`.trim(), width - right, floor + 4);
      g.textAlign = "center";
      g.fillText(xr.unit ? "time" : "steps", (left + width - right) / 2, floor + 4);
    }

    draw() {
      const canvas = this.canvas;
      const width = this.width;
      if (width === 0 || !this.view) return;
      const [x0, x1, y0, y1] = this.view;
      const height = Math.round(Math.min(width * ((y1 - y0) / (x1 - x0)), 480));
      const g = surface(canvas, width, height);
      // Equal scales on both axes, centred.
      const scale = Math.min(width / (x1 - x0), height / (y1 - y0));
      const ox = width / 2 - (scale * (x0 + x1)) / 2;
      const oy = height / 2 + (scale * (y0 + y1)) / 2;
      const px = (x) => ox + scale * x;
      const py = (y) => oy - scale * y;
      this.toWorld = (cx, cy) => [(cx - ox) / scale, (oy - cy) / scale];
      const fg = this.foreground;
      // Muted is the foreground, faint (drawn at reduced opacity below).
      const inks = [fg, fg, ...PALETTE];
      const alpha = [1, 0.35, 1, 1, 1];
      if (this.handle < 0) return;
      const n = this.api.m.pbm_draw_len(this.handle);
      // A view of the module's memory, not a copy (it is read before any other call).
      const d = new Float64Array(this.api.m.memory.buffer, this.api.m.pbm_draw(this.handle), n);
      g.lineWidth = 2;
      g.lineJoin = "round";
      let k = 0;
      while (k < d.length) {
        const op = d[k];
        const ink = inks[d[k + 1]] || fg;
        g.globalAlpha = alpha[d[k + 1]] ?? 1;
        if (op === 1 || op === 3) {
          const count = d[k + 2];
          g.beginPath();
          for (let j = 0; j < count; j++) {
            const x = px(d[k + 3 + 2 * j]);
            const y = py(d[k + 4 + 2 * j]);
            if (j === 0) g.moveTo(x, y);
            else g.lineTo(x, y);
          }
          if (op === 3) {
            g.closePath();
            g.fillStyle = ink;
            g.globalAlpha *= 0.35;
            g.fill();
            g.globalAlpha = alpha[d[k + 1]] ?? 1;
          }
          g.strokeStyle = ink;
          g.stroke();
          k += 3 + 2 * count;
        } else if (op === 2) {
          g.beginPath();
          g.arc(px(d[k + 2]), py(d[k + 3]), d[k + 4], 0, 2 * Math.PI);
          g.fillStyle = ink;
          g.fill();
          k += 5;
        } else if (op === 4) {
          const count = d[k + 4];
          let text = "";
          for (let j = 0; j < count; j++) text += String.fromCodePoint(d[k + 5 + j]);
          g.font = "italic 15px serif";
          g.fillStyle = ink;
          g.fillText(text, px(d[k + 2]), py(d[k + 3]));
          k += 5 + count;
        } else {
          break; // an opcode this loader does not know: draw nothing more
        }
      }
    }
  }
})();
