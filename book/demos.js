// The book's live demos (web/, book-tools/src/demos.rs). Each `{{#demo id}}` of a page becomes a
// <div class="pbm-demo" data-demo="id"> holding one line on how to get the live
// version; when the book was built with the WebAssembly module, this loader replaces
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
      return { title: this.text(m.pbm_demo_title(d)), params, readouts, drag };
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
  function show(v) {
    if (Number.isNaN(v)) return "–";
    if (!Number.isFinite(v)) return String(v);
    if (Number.isInteger(v) && Math.abs(v) < 1e9) return String(v);
    return Number(v.toPrecision(6)).toString();
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
      this.values = this.spec.params.map((p) => p.value);
      this.playing = false;
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
      const controls = element("div", "pbm-demo-controls", box);
      this.inputs = this.spec.params.map((p, i) => this.control(controls, p, i));
      const buttons = element("div", "pbm-demo-buttons", box);
      this.playButton = element("button", null, buttons, "Play");
      this.playButton.onclick = () => this.setPlaying(!this.playing);
      element("button", null, buttons, "Step").onclick = () => {
        this.setPlaying(false);
        this.advance(1);
      };
      element("button", null, buttons, "Reset").onclick = () => this.reset();
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
      new ResizeObserver((entries) => {
        this.width = entries[entries.length - 1].contentRect.width;
        this.draw();
      }).observe(this.canvas);
      // Redraw when the reader changes the theme.
      new MutationObserver(() => {
        this.foreground = themeForeground();
        this.draw();
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
        input.value = String(p.value);
        input.oninput = () => this.set(i, Number(input.value));
      } else {
        input = element("input", null, label);
        input.type = "range";
        input.min = "0";
        input.max = String(STEPS);
        input.value = String(toPosition(p, p.value));
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
      this.playing = playing && this.handle >= 0 && !this.error;
      this.playButton.textContent = this.playing ? "Pause" : "Play";
      if (this.playing) requestAnimationFrame(() => this.tick());
    }

    tick() {
      if (!this.playing) return;
      this.advance(1);
      if (this.playing) requestAnimationFrame(() => this.tick());
    }

    // Runs `frames` frames of the simulation; returns the time they took (ms).
    advance(frames) {
      if (this.handle < 0 || this.error) return 0;
      const t0 = performance.now();
      const status = this.api.m.pbm_frame(this.handle, frames);
      const ms = performance.now() - t0;
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

    refresh() {
      const values = this.readouts();
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
    }

    draw() {
      const canvas = this.canvas;
      const width = this.width;
      if (width === 0 || !this.view) return;
      const [x0, x1, y0, y1] = this.view;
      const height = Math.round(Math.min(width * ((y1 - y0) / (x1 - x0)), 480));
      const dpr = window.devicePixelRatio || 1;
      if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
        canvas.width = Math.round(width * dpr);
        canvas.height = Math.round(height * dpr);
        canvas.style.height = height + "px";
      }
      const g = canvas.getContext("2d");
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      g.clearRect(0, 0, width, height);
      // Equal scales on both axes, centred.
      const scale = Math.min(width / (x1 - x0), height / (y1 - y0));
      const ox = width / 2 - (scale * (x0 + x1)) / 2;
      const oy = height / 2 + (scale * (y0 + y1)) / 2;
      const px = (x) => ox + scale * x;
      const py = (y) => oy - scale * y;
      this.toWorld = (cx, cy) => [(cx - ox) / scale, (oy - cy) / scale];
      const fg = this.foreground;
      // Muted is the foreground, faint (drawn at reduced opacity below).
      const inks = [fg, fg, "#2f7fc1", "#e07b24", "#3a9a4a"];
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
        } else {
          break; // an opcode this loader does not know: draw nothing more
        }
      }
    }
  }
})();
