// The book's live demos (web/, book-tools/src/demos.rs). Each `{{#demo id}}` of a page becomes a
// <div class="pbm-demo" data-demo="id" data-sliders="…"> holding one line on how to
// get the live version (data-sliders: the labels and units of the sliders that set an
// exercise's parameter, from its declaration); when the book was built with the WebAssembly module, this loader replaces
// that line with the demo: a canvas, its sliders, play/pause/step/reset, and the
// numbers the chapter's own code computes.
//
// The module is the chapter crates compiled for wasm32-unknown-unknown with a small C
// ABI (web/src/abi.rs): numbers in, numbers out, strings as pointer and length. Only a
// page with a demo loads it: demos/pbm-web.wasm, compiled while it downloads. A page read
// from file:// may not fetch, so there it comes from demos/pbm-web.js, a plain script with
// the same bytes gzipped and as base64, which the browser inflates.
"use strict";

(function () {
  const boxes = document.querySelectorAll("div.pbm-demo");
  if (boxes.length === 0) return;
  const root = typeof path_to_root === "string" ? path_to_root : "";
  instantiate()
    .then((instance) => instance && start(instance)) // null: built without the module, the fallback line stays
    .catch((e) => {
      for (const box of boxes) fail(box, "the demo could not start: " + e);
    });

  // The module's instance: streamed from demos/pbm-web.wasm where the page was served, else
  // from the script demos/pbm-web.js (file://, or a server without the .wasm); null if the
  // book was built without it.
  async function instantiate() {
    if (location.protocol !== "file:") {
      const response = await fetch(root + "demos/pbm-web.wasm").catch(() => null);
      if (response && response.ok) {
        const type = response.headers.get("content-type") || "";
        if (WebAssembly.instantiateStreaming && type.startsWith("application/wasm")) {
          return (await WebAssembly.instantiateStreaming(response, {})).instance;
        }
        return (await WebAssembly.instantiate(await response.arrayBuffer(), {})).instance;
      }
    }
    const base64 = await new Promise((loaded, failed) => {
      const script = document.createElement("script");
      script.src = root + "demos/pbm-web.js";
      script.onload = () => loaded(window.pbmWasm);
      script.onerror = () => failed(new Error("demos/pbm-web.js did not load"));
      document.head.appendChild(script);
    });
    if (!base64) return null;
    let bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      bytes = await new Response(inflated).arrayBuffer();
    }
    return (await WebAssembly.instantiate(bytes, {})).instance;
  }

  function fail(box, why) {
    const line = document.createElement("p");
    line.className = "pbm-demo-error";
    line.textContent = why;
    box.appendChild(line);
  }

  function start(instance) {
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
  // How far an arrow key moves a slider: 1 % of the range.
  const ARROW_STEPS = STEPS / 100;
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
    if (Math.abs(v) < 1e-12 && v !== 0) return "< 10⁻¹²";
    return numberText(v, 4);
  }
  // Tick values for a plot's axis: 4 to 6 round numbers (steps of 1, 2 or 5 times a
  // power of ten) whose first and last bound [lo, hi]. Returns { ticks, step }.
  function linearTicks(lo, hi) {
    const e = Math.floor(Math.log10(hi - lo));
    let best = null;
    for (let k = e - 2; k <= e + 1; k++) {
      for (const m of [1, 2, 5]) {
        const step = m * Math.pow(10, k);
        const a = Math.floor(lo / step + 1e-9), b = Math.ceil(hi / step - 1e-9);
        const count = b - a + 1;
        const score = count >= 4 && count <= 6 ? Math.abs(count - 5) : count < 4 ? 100 + (4 - count) : 10 + count;
        if (best === null || score < best.score || (score === best.score && step > best.step)) {
          best = { score, step, a, b };
        }
      }
    }
    const ticks = [];
    for (let j = best.a; j <= best.b; j++) ticks.push(Number((j * best.step).toPrecision(12)));
    return { ticks, step: best.step };
  }
  // The same on a log scale, in log10 units: whole decades (every one, or every 2nd,
  // 5th …) where the axis spans enough of them, else 1–2–5 or 1…9 times the decades,
  // else round values spaced evenly. Returns { ticks, decades } (decades: the ticks
  // that are powers of ten).
  function logTicks(lo, hi) {
    const candidates = [];
    for (const m of [1, 2, 5, 10, 20, 50, 100]) {
      const ticks = [];
      for (let k = Math.floor(lo / m + 1e-9); k <= Math.ceil(hi / m - 1e-9); k++) ticks.push(k * m);
      candidates.push(ticks);
    }
    for (const mantissas of [[1, 2, 5], [1, 2, 3, 4, 5, 6, 7, 8, 9]]) {
      const all = [];
      for (let k = Math.floor(lo) - 1; k <= Math.ceil(hi); k++) for (const m of mantissas) all.push(k + Math.log10(m));
      const first = all.filter((t) => t <= lo + 1e-9).pop();
      const last = all.find((t) => t >= hi - 1e-9);
      candidates.push(all.filter((t) => t >= first && t <= last));
    }
    const even = linearTicks(Math.pow(10, lo), Math.pow(10, hi)).ticks;
    if (even[0] > 0) candidates.push(even.map(Math.log10));
    const ticks = candidates.find((t) => t.length >= 4 && t.length <= 6) ??
      candidates.filter((t) => t.length >= 4).sort((a, b) => a.length - b.length)[0] ?? candidates[0];
    return { ticks, decades: ticks.filter((t) => Math.abs(t - Math.round(t)) < 1e-9) };
  }
  // A tick's label: as many digits as the step between ticks needs, and in the notation
  // of the axis's largest tick (`largest`), so that one axis does not mix the two.
  function tickText(v, step, largest) {
    if (Math.abs(v) < step * 1e-9) return "0";
    const digits = Math.floor(Math.log10(Math.abs(v))) - Math.floor(Math.log10(step) + 1e-9) + 1;
    const big = Math.abs(largest);
    return numberText(v, Math.min(12, Math.max(1, digits)), big >= 1e5 || big < 1e-3);
  }
  // `v` to `digits` significant digits, in the page's notation: plain from 0.001 to
  // 99 999, and beyond either end a mantissa times a power of ten (2.46×10¹⁶, 10⁻⁶),
  // which no label or cell has to cut. Readouts and the plots' ticks share it.
  const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };
  function numberText(v, digits, powers) {
    if (v === 0) return "0";
    const a = Math.abs(Number(v.toPrecision(digits)));
    if (powers === undefined ? a >= 1e-3 && a < 1e5 : !powers) return String(Number(v.toPrecision(digits))).replace("-", "−");
    let [mantissa, exponent] = v.toExponential(digits - 1).split("e");
    mantissa = String(Number(mantissa));
    const power = "10" + [...String(Number(exponent))].map((c) => SUPERSCRIPT[c]).join("");
    if (mantissa === "1") return power;
    if (mantissa === "-1") return "−" + power;
    return `${mantissa.replace("-", "−")}×${power}`;
  }

  // The simulation's clock: a demo frame is 1/60 s of the page, whatever the display's
  // refresh rate; each display frame runs the whole demo frames that have come due, as
  // many as fit its budget.
  const FRAME_MS = 1000 / 60;
  // A longer pause (a hidden tab, a debugger) is not caught up.
  const MAX_CATCH_UP_MS = 100;
  // The simulation one display frame may run (ms): half a 60 Hz frame, the rest left to
  // drawing and to the page. A demo whose frames cost more runs fewer of them (one a
  // display frame at least) and says it plays in slow motion: it never queues frames up
  // to catch up, which would freeze the page and keep a click on Pause waiting.
  const SIM_BUDGET_MS = 8;
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
  // The page's address with this demo's settings alone (those not at their defaults).
  function demoUrl(id, params, values) {
    const url = new URL(location.href.split("#")[0].split("?")[0]);
    params.forEach((p, i) => {
      if (values[i] !== p.value) url.searchParams.set(urlKey(id, p), String(values[i]));
    });
    return decodeURIComponent(url.href);
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
  // The series' inks for the theme in use: `--pbm-ink-1` … `--pbm-ink-3` of book/pbm.css
  // where the theme defines them (each theme its own, for contrast), else PALETTE.
  function themePalette() {
    const style = getComputedStyle(document.documentElement);
    return PALETTE.map((fallback, i) => style.getPropertyValue(`--pbm-ink-${i + 1}`).trim() || fallback);
  }

  // `colour` (any CSS colour) darkened to `shade` (0 black, 1 itself), read back in
  // the canvas's own spelling of it: #rrggbb, or rgba(r, g, b, a).
  function shaded(g, colour, shade) {
    g.fillStyle = colour;
    const c = g.fillStyle;
    const rgb = c[0] === "#"
      ? [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16))
      : c.match(/[\d.]+/g).slice(0, 3).map(Number);
    return `rgb(${rgb.map((v) => Math.round(v * shade)).join(", ")})`;
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
      // The simulation a display frame may run (ms), and what a demo frame has lately
      // cost (ms, 0 before the first), for `pace` and the browser test.
      this.budget = SIM_BUDGET_MS;
      this.cost = 0;
      this.speed = 1;
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
      this.printLine = element("p", "pbm-demo-print", box);
      this.writePrintLine();
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
      this.palette = themePalette();
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
        this.palette = themePalette();
        this.draw();
        this.drawPlot();
      }).observe(document.documentElement, {
        attributes: true,
        attributeFilter: ["class"],
      });
    }

    // The reader's pointer, in world coordinates, for demos that take it: a press
    // the demo takes starts the simulation and captures the pointer until let go.
    // Only such a press is the demo's: a finger that lands on empty canvas scrolls
    // the page, so the canvas keeps the browser's `touch-action` and cancels a touch
    // (its `touchstart`, which follows the `pointerdown`) only when the demo took it.
    listen() {
      const canvas = this.canvas;
      canvas.style.cursor = "grab";
      const hold = (e) => {
        if (this.dragging && e.cancelable) e.preventDefault();
      };
      canvas.addEventListener("touchstart", hold, { passive: false });
      canvas.addEventListener("touchmove", hold, { passive: false });
      const send = (event, e) => {
        if (this.handle < 0 || this.error || !this.toWorld) return false;
        const rect = canvas.getBoundingClientRect();
        const [x, y] = this.toWorld(e.clientX - rect.left, e.clientY - rect.top);
        const taken = this.api.m.pbm_pointer(this.handle, event, x, y) === 1;
        if (taken) this.draw();
        return taken;
      };
      canvas.addEventListener("pointerdown", (e) => {
        if (!send(0, e)) {
          // A mouse press on empty space of a 3-D demo turns its view ("view"
          // slider); a finger there scrolls the page, and the slider turns it.
          const view = this.spec.params.findIndex((p) => p.name === "view");
          if (view < 0 || e.pointerType !== "mouse") return;
          this.orbiting = { x: e.clientX, from: this.values[view], view };
          canvas.setPointerCapture(e.pointerId);
          canvas.style.cursor = "grabbing";
          e.preventDefault();
          return;
        }
        this.dragging = true;
        canvas.setPointerCapture(e.pointerId);
        canvas.style.cursor = "grabbing";
        this.setPlaying(true);
        e.preventDefault();
      });
      canvas.addEventListener("pointermove", (e) => {
        if (this.dragging) {
          send(1, e);
        } else if (this.orbiting) {
          const { x, from, view } = this.orbiting;
          const turned = from - (360 * (e.clientX - x)) / this.width;
          const v = Math.round((((turned + 180) % 360) + 360) % 360 - 180);
          if (v === this.values[view]) return;
          this.set(view, v);
          const input = this.inputs[view];
          input.value = String(toPosition(this.spec.params[view], v));
          if (input.pbmUpdate) input.pbmUpdate();
        }
      });
      const release = (e) => {
        if (this.orbiting) {
          this.orbiting = null;
          canvas.style.cursor = "grab";
          return;
        }
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
        // The value beside the slider is the slider's own (`aria-valuetext`, "0.1 s"):
        // read once, with the slider, not again as a live region.
        const shown = element("output", null, label);
        shown.setAttribute("aria-hidden", "true");
        const update = () => {
          const text = `${show(this.values[i])} ${p.unit}`.trim();
          shown.textContent = " " + text;
          input.setAttribute("aria-valuetext", text);
        };
        input.oninput = () => {
          this.set(i, toValue(p, Number(input.value)));
          update();
        };
        // An arrow key moves about 1 % of the range (the browser's step is 1/STEPS),
        // and at least to the next value the slider shows.
        input.addEventListener("keydown", (e) => {
          const sign = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[e.key];
          if (!sign) return;
          e.preventDefault();
          let at = Number(input.value);
          const from = toValue(p, at);
          do at = Math.min(STEPS, Math.max(0, at + sign * ARROW_STEPS));
          while (toValue(p, at) === from && at > 0 && at < STEPS);
          if (toValue(p, at) === from) return;
          input.value = String(at);
          input.oninput();
        });
        input.pbmUpdate = update;
        update();
      }
      input.dataset.param = p.name;
      return input;
    }

    // On paper, the line on where the demo runs live carries its settings.
    writePrintLine() {
      const url = demoUrl(this.id, this.spec.params, this.values);
      this.printLine.textContent = `This demo runs live, with its sliders, in the online book: ${url}`;
    }

    // A change the running demo can take (the world's order, in chapter 11) goes on
    // from where it is; any other starts it afresh.
    set(i, value) {
      this.values[i] = value;
      toUrl(this.id, this.spec.params, this.values);
      this.writePrintLine();
      const p = this.spec.params[i];
      const change = `${p.label} → ${p.choices.length > 0 ? p.choices[value] : `${show(value)} ${p.unit}`.trim()}`;
      if (this.handle >= 0 && !this.error) {
        try {
          if (this.api.retune(this.index, this.handle, this.values)) {
            // The plot marks the moment (one mark for a slider dragged through values).
            const { x } = this.series;
            const at = x.length ? x[x.length - 1] : 0;
            const last = this.marks[this.marks.length - 1];
            if (last && last.x === at) last.label = change;
            else this.marks.push({ x: at, label: change });
            this.refresh();
            return;
          }
        } catch (e) {
          this.error = String(e.message);
          this.refresh();
          return;
        }
      }
      this.reset(change);
    }

    // The test's hook: set every parameter at once (exact values, not slider steps).
    setParams(values) {
      this.values = values.slice();
      this.writePrintLine();
      this.inputs.forEach((input, i) => {
        const p = this.spec.params[i];
        input.value = p.choices.length > 0 ? String(values[i]) : String(toPosition(p, values[i]));
        if (input.pbmUpdate) input.pbmUpdate();
      });
      this.reset();
    }

    // Starts the demo afresh. After a slider's `change` the plot keeps the run before
    // it, faint, and marks where it was changed; a run too short to compare (a slider
    // being dragged through its values) is not kept.
    reset(change) {
      this.dragging = false;
      if (change === undefined) this.previous = null;
      else if (this.series && this.series.x.length >= 30) {
        const { x } = this.series;
        this.previous = { series: this.series, at: x[x.length - 1], label: change };
      } else if (this.previous) this.previous.label = change;
      this.marks = [];
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
    // time too, every other display frame running none; but no more than fit
    // SIM_BUDGET_MS (`advanceWithin`), and one when even one does not fit. Frames
    // that do not fit are dropped, not owed: the demo plays in slow motion, at the
    // ratio its status line shows. Returns how many ran.
    pace(now) {
      if (this.clock === undefined) {
        this.clock = { last: now, owed: 0, hz: 60, due: 0, ran: 0 };
      }
      const c = this.clock;
      const dt = now - c.last;
      c.last = now;
      if (dt > 0) c.hz += 0.1 * (1000 / dt - c.hz);
      c.owed += Math.min(Math.max(dt, 0), MAX_CATCH_UP_MS);
      const due = Math.floor(c.owed / FRAME_MS + 1e-9);
      c.owed -= due * FRAME_MS;
      // No catch-up after a stall: a display frame runs at most the demo frames its
      // display's steady rate needs (one at 60 Hz or faster, two at 30 Hz), so a frame
      // held up by anything (the page, the collector, a dear frame) is dropped, never
      // run late beside the next one, whose cost nothing yet has shown.
      const steady = Math.max(1, Math.ceil(1000 / FRAME_MS / c.hz - 0.25));
      // Behind (frames were dropped last time) and still too dear: one frame at most.
      const most = Math.min(
        steady,
        c.behind && 1.25 * this.cost * due > this.budget ? Math.min(due, 1) : due,
      );
      const { ran, ms } = most > 0 ? this.advanceWithin(most, this.budget) : { ran: 0, ms: 0 };
      c.behind = ran < due;
      // What this display frame ran, for the browser test.
      this.lastPaced = { due, ran, ms };
      // The speed over about the last second of page time: demo time run over demo
      // time due.
      const fade = Math.exp(-Math.max(dt, 0) / 1000);
      c.due = fade * c.due + due;
      c.ran = fade * c.ran + ran;
      this.speed = c.due > 0 ? c.ran / c.due : 1;
      const display = `${Math.round(c.hz)} Hz display`;
      let text = `real time · ${display}`;
      let title = "each 1/60 s of the page runs 1/60 s of the simulation";
      if (this.speed < 0.9) {
        const ratio = this.speed >= 0.1 ? this.speed.toFixed(1) : this.speed.toPrecision(1);
        text = `×${ratio} slow motion · ${display}`;
        title = `a 1/60 s frame of this simulation takes ${show(Number(this.cost.toPrecision(2)))} ms here, more than the ${SIM_BUDGET_MS} ms a display frame can give it: it runs fewer frames, slower than real time`;
      }
      if (this.status.textContent !== text) this.status.textContent = text;
      if (this.status.title !== title) this.status.title = title;
      return ran;
    }

    // Runs up to `frames` frames of the simulation, one at a time, and another only
    // while the time they have taken and one more frame's fit `budget` (ms); the first
    // always runs. One more frame is priced at the dearest of the last 30 (with a
    // margin), not their mean: a pile's frames cost little while it rests and many
    // times more when its contacts change, and a second frame priced at the mean would
    // overrun the display frame exactly then. Returns { ran, ms }.
    advanceWithin(frames, budget) {
      if (this.handle < 0 || this.error) return { ran: 0, ms: 0 };
      const t0 = performance.now();
      let ran = 0, status = 0, one = 0;
      let dearest = this.cost;
      for (let k = Math.max(0, this.frameTimes.length - 30); k < this.frameTimes.length; k++) {
        dearest = Math.max(dearest, this.frameTimes[k]);
      }
      while (ran < frames && status >= 0) {
        if (ran > 0 && performance.now() - t0 + 1.25 * Math.max(one, dearest) > budget) break;
        const t = performance.now();
        status = this.api.m.pbm_frame(this.handle, 1);
        one = performance.now() - t;
        ran += 1;
        this.frameTimes.push(one);
        if (this.frameTimes.length > 600) this.frameTimes.shift();
        dearest = Math.max(dearest, one);
        this.cost = this.cost > 0 ? 0.7 * this.cost + 0.3 * one : one;
      }
      const ms = performance.now() - t0;
      this.framesRun += ran;
      if (status < 0) {
        this.error = this.api.text(this.api.m.pbm_error());
        this.setPlaying(false);
      }
      this.refresh();
      return { ran, ms };
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
      // The recent cost of one frame (ms), which paces the next display frames.
      this.cost = this.cost > 0 ? 0.7 * this.cost + 0.3 * (ms / frames) : ms / frames;
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

    // The plotted readouts against time (or steps), each in its readout's ink, on
    // axes with 4 to 6 round ticks and their gridlines. Readouts that share a unit
    // share a panel and its vertical scale; a readout of another unit (an overlap in
    // metres beside an energy in joules) gets a panel of its own below, on its own
    // scale. A panel whose values are never negative starts at 0 (unless they stay
    // far from it), and a zero line marks 0 inside one that crosses it. The run before
    // the last slider change stays as a faint curve, with a dashed line at the moment
    // of the change.
    drawPlot() {
      const canvas = this.plotCanvas;
      const width = this.width;
      if (!width) return;
      const spec = this.spec;
      const plot = spec.plot;
      const palette = this.palette || PALETTE;
      const inkOf = (k) => {
        const ink = spec.readouts[plot.ys[k]].ink;
        return ink >= 2 ? palette[ink - 2] : ink >= 0 && plot.ys.length === 1 ? palette[0] : palette[k % 3];
      };
      const before = this.previous;
      const runs = before ? [this.series, before.series] : [this.series];
      const scale = plot.log ? (v) => (v > 0 ? Math.log10(v) : NaN) : (v) => v;
      const measure = canvas.getContext("2d");
      measure.font = "12px sans-serif";
      const textWidth = (t) => measure.measureText(t).width;
      // Each panel's range and ticks, first: the widest label sets the left margin.
      const panels = [];
      plot.ys.forEach((y, k) => {
        const unit = spec.readouts[y].unit;
        const panel = panels.find((p) => p.unit === unit);
        if (panel) panel.ks.push(k);
        else panels.push({ unit, ks: [k] });
      });
      for (const panel of panels) {
        let lo = Infinity, hi = -Infinity;
        for (const run of runs) for (const k of panel.ks) for (const v of run.ys[k]) {
          const u = scale(v);
          if (Number.isFinite(u)) { lo = Math.min(lo, u); hi = Math.max(hi, u); }
        }
        if (!(hi >= lo)) { lo = 0; hi = 1; }
        if (plot.log) {
          if (hi - lo < 1e-9) { lo -= 0.5; hi += 0.5; }
          const { ticks, decades } = logTicks(lo, hi);
          panel.ticks = ticks;
          panel.decades = decades;
          panel.labels = ticks.map((t) => numberText(Number(Math.pow(10, t).toPrecision(4)), 4));
        } else {
          if (lo >= 0 && lo <= 0.5 * hi) lo = 0;
          if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) {
            const d = Math.max(0.5 * Math.abs(hi), 1e-12);
            hi += d;
            lo = lo >= 0 ? Math.max(0, lo - d) : lo - d;
          }
          const { ticks, step } = linearTicks(lo, hi);
          panel.ticks = ticks;
          panel.decades = [];
          const largest = Math.max(...ticks.map(Math.abs));
          panel.labels = ticks.map((t) => tickText(t, step, largest));
        }
        panel.lo = panel.ticks[0];
        panel.hi = panel.ticks[panel.ticks.length - 1];
      }
      const right = 12, axis = 36, gap = 12;
      const left = Math.max(40, 8 + Math.max(...panels.flatMap((p) => p.labels.map(textWidth))));
      // The legends: their lines decide where each panel's axes begin.
      let height = 0;
      panels.forEach((panel, i) => {
        panel.legend = [];
        let at = left, line = 0;
        for (const k of panel.ks) {
          const r = spec.readouts[plot.ys[k]];
          const text = `${r.label}${r.unit ? ` (${r.unit})` : ""}${plot.log ? ", log scale" : ""}`;
          const w = textWidth(text);
          if (at > left && at + w > width - right) { at = left; line += 1; }
          panel.legend.push({ label: text, x: at, y: height + 3 + 15 * line, ink: inkOf(k) });
          at += w + 14;
        }
        const last = i === panels.length - 1;
        panel.top = height + 24 + 15 * line;
        panel.bottom = panel.top + 102 + 15 * Math.max(0, panel.ks.length - 1);
        height = panel.bottom + (last ? axis : gap);
      });
      const g = surface(canvas, width, height);
      const fg = this.foreground;
      // The time axis: from the first time of either run to the last.
      let t0 = Infinity, t1 = -Infinity;
      for (const run of runs) if (run.x.length) {
        t0 = Math.min(t0, run.x[0]);
        t1 = Math.max(t1, run.x[run.x.length - 1]);
      }
      if (!(t0 < Infinity)) t0 = 0;
      if (!(t1 > t0)) t1 = t0 + 1;
      const time = linearTicks(t0, t1);
      const x0 = time.ticks[0], x1 = time.ticks[time.ticks.length - 1];
      const px = (v) => left + ((v - x0) / (x1 - x0)) * (width - left - right);
      // What the browser test reads: each axis's tick labels and where they were written.
      const axes = [];
      const label = (list, text, x, y, align, baseline) => {
        g.textAlign = align;
        g.textBaseline = baseline;
        g.fillText(text, x, y);
        const w = textWidth(text);
        const from = align === "right" ? x - w : align === "center" ? x - w / 2 : x;
        const top = baseline === "top" ? y : baseline === "bottom" ? y - 14 : y - 7;
        list.push({ text, left: from, right: from + w, top, bottom: top + 14 });
      };
      g.font = "12px sans-serif";
      g.lineWidth = 1;
      for (const panel of panels) {
        const { top, bottom: floor, lo, hi } = panel;
        const py = (u) => top + (1 - (u - lo) / (hi - lo)) * (floor - top);
        const labels = [];
        // Gridlines: faint, a decade of a log scale less so, and the zero line firm.
        g.strokeStyle = fg;
        panel.ticks.forEach((t, j) => {
          const decade = panel.decades.includes(t);
          const zero = !plot.log && t === 0 && j > 0;
          g.globalAlpha = zero ? 0.6 : decade ? 0.3 : 0.13;
          g.beginPath();
          g.moveTo(left, Math.round(py(t)) + 0.5);
          g.lineTo(width - right, Math.round(py(t)) + 0.5);
          g.stroke();
          g.globalAlpha = 1;
          g.fillStyle = fg;
          label(labels, panel.labels[j], left - 5, py(t), "right", "middle");
        });
        for (const t of time.ticks) {
          g.globalAlpha = 0.13;
          g.beginPath();
          g.moveTo(Math.round(px(t)) + 0.5, top);
          g.lineTo(Math.round(px(t)) + 0.5, floor);
          g.stroke();
        }
        // The axes.
        g.globalAlpha = 0.6;
        g.beginPath();
        g.moveTo(left + 0.5, top);
        g.lineTo(left + 0.5, floor + 0.5);
        g.lineTo(width - right, floor + 0.5);
        g.stroke();
        g.globalAlpha = 1;
        axes.push({ axis: panel.legend.map((l) => l.label).join(", "), labels });
        // The legend: each plotted readout's label in its ink, with its unit.
        g.textAlign = "left";
        g.textBaseline = "top";
        for (const item of panel.legend) {
          g.fillStyle = item.ink;
          g.fillText(item.label, item.x, item.y);
        }
        // The curves: the run before the change faint, then the current one.
        g.save();
        g.beginPath();
        g.rect(left, top - 1, width - left - right, floor - top + 2);
        g.clip();
        g.lineWidth = 1.5;
        for (const [run, alpha] of before ? [[before.series, 0.3], [this.series, 1]] : [[this.series, 1]]) {
          g.globalAlpha = alpha;
          for (const k of panel.ks) {
            g.strokeStyle = inkOf(k);
            g.beginPath();
            let pen = false;
            run.ys[k].forEach((v, i) => {
              const u = scale(v);
              if (!Number.isFinite(u)) { pen = false; return; }
              if (pen) g.lineTo(px(run.x[i]), py(u));
              else g.moveTo(px(run.x[i]), py(u));
              pen = true;
            });
            g.stroke();
          }
        }
        g.restore();
        g.globalAlpha = 1;
      }
      // Where the first panel's curves are drawn, for the browser test.
      const first = panels[0];
      this.plotArea = { left, top: first.top, right: width - right, bottom: first.bottom };
      // The moment of the last change: a dashed line through every panel, and what changed.
      const marks = (this.marks || []).slice();
      if (before) marks.push({ x: before.at, label: before.label });
      for (const mark of marks) {
        const at = Math.round(px(mark.x)) + 0.5;
        g.strokeStyle = fg;
        g.globalAlpha = 0.7;
        g.setLineDash([4, 3]);
        for (const panel of panels) {
          g.beginPath();
          g.moveTo(at, panel.top);
          g.lineTo(at, panel.bottom);
          g.stroke();
        }
        g.setLineDash([]);
        g.globalAlpha = 1;
        g.fillStyle = fg;
        g.textBaseline = "top";
        const w = textWidth(mark.label);
        const fits = at + 4 + w <= width - right;
        g.textAlign = fits ? "left" : "right";
        g.fillText(mark.label, fits ? at + 4 : at - 4, first.top + 2);
      }
      // The time axis, under the last panel.
      const floor = panels[panels.length - 1].bottom;
      const xr = spec.readouts[plot.x];
      g.fillStyle = fg;
      const timeLabels = [];
      for (const t of time.ticks) {
        const text = tickText(t, time.step, Math.max(...time.ticks.map(Math.abs)));
        const half = textWidth(text) / 2;
        label(timeLabels, text, Math.min(width - half, Math.max(half, px(t))), floor + 4, "center", "top");
      }
      axes.unshift({ axis: "time", labels: timeLabels });
      label([], xr.unit ? `time (${xr.unit})` : "steps", (left + width - right) / 2, floor + 19, "center", "top");
      this.plotTicks = { width, height, axes };
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
      const inks = [fg, fg, ...this.palette];
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
        } else if (op === 5) {
          // A face: filled in its ink darkened to its shade, its edge in the same
          // colour so neighbouring faces leave no hairline between them.
          const count = d[k + 3];
          g.beginPath();
          for (let j = 0; j < count; j++) {
            const x = px(d[k + 4 + 2 * j]), y = py(d[k + 5 + 2 * j]);
            if (j === 0) g.moveTo(x, y); else g.lineTo(x, y);
          }
          g.closePath();
          const colour = shaded(g, ink, d[k + 2]);
          g.fillStyle = colour;
          g.fill();
          if (g.globalAlpha === 1) {
            g.lineWidth = 0.75;
            g.strokeStyle = colour;
            g.stroke();
            g.lineWidth = 2;
          }
          k += 4 + 2 * count;
        } else {
          break; // an opcode this loader does not know: draw nothing more
        }
      }
    }
  }
})();
