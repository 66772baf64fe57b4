// Opens every page of the built book (book/build) in headless Chromium, as a reader would, and
// checks what they would see: no console error, no request to another host, every image
// loaded, every internal link and anchor resolving, no raw LaTeX, bold vectors bold, search
// answering, no listing scrolling sideways at 1280 px, and every figure's smallest label at
// least 12 px as displayed, on a desktop (1280 px) and on a phone (390 px), where the page
// shows the figure's narrow drawing; and every live demo runs, responds and agrees with the CLI. Screenshots of a few pages go to target/browser/. Run after `cargo run --release`:
//
//     cd browser && npm ci && node check-book.mjs
//
// CHROMIUM may name the browser binary (default /usr/bin/chromium).

import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { readFile, readdir, mkdir, stat } from "node:fs/promises";
import { join, extname, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const build = join(root, "book", "build");
const shots = join(root, "target", "browser");
const types = {
  ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml",
  ".png": "image/png", ".woff2": "font/woff2", ".otf": "font/otf", ".json": "application/json",
};

// A static server for book/build on a free localhost port.
const server = createServer(async (req, res) => {
  const path = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
  let file = join(build, path);
  try {
    if ((await stat(file)).isDirectory()) file = join(file, "index.html");
    res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
    res.end(await readFile(file));
  } catch {
    res.writeHead(404);
    res.end("not found");
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const origin = `http://127.0.0.1:${server.address().port}`;

async function htmlPages(dir, prefix = "") {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) {
      if (!["figures", "fonts", "css", "FontAwesome", "output"].includes(entry.name)) {
        out.push(...(await htmlPages(join(dir, entry.name), rel + "/")));
      }
    } else if (rel.endsWith(".html") && !["print.html", "toc.html"].includes(rel)) {
      out.push(rel);
    }
  }
  return out.sort();
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
  ],
});
const problems = [];
const fail = (page, what) => problems.push(`${page}: ${what}`);
const pages = await htmlPages(build);
let links = 0, maths = 0, boldMaths = 0, images = 0, accents = 0, eqLinks = 0;
const figurePages = [];
const demoPages = {}; // demo id -> the page it is on
let listings = 0;
await mkdir(shots, { recursive: true });
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });

for (const rel of pages) {
  const page = await context.newPage();
  page.on("console", (m) => m.type() === "error" && fail(rel, `console error: ${m.text()}`));
  page.on("pageerror", (e) => fail(rel, `script error: ${e.message}`));
  page.on("request", (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith("data:")) {
      fail(rel, `request to another host: ${r.url()}`);
    }
  });
  page.on("requestfailed", (r) => fail(rel, `request failed: ${r.url()}`));
  const response = await page.goto(`${origin}/${rel}`, { waitUntil: "load" });
  if (!response?.ok()) fail(rel, `HTTP ${response?.status()}`);
  const seen = await page.evaluate(() => {
    const main = document.querySelector("main");
    const text = main ? main.innerText : "";
    const imgs = [...document.querySelectorAll("main img")].map((i) => ({
      src: i.getAttribute("src"), ok: i.complete && i.naturalWidth > 0,
    }));
    const hrefs = [...document.querySelectorAll("main a[href]")].map((a) => a.href);
    const math = [...document.querySelectorAll("math")];
    // A vector written \mathbf{x} is a Unicode bold letter in MathML Core.
    const bold = math.filter((m) => /[\u{1D400}-\u{1D433}]/u.test(m.textContent)).length;
    const rawTex = /\$\$|\\(frac|mathbf|dot|begin)\b/.test(
      text.replace(/```[\s\S]*?```/g, "")
    );
    const ids = [...document.querySelectorAll("[id]")].map((e) => e.id);
    const figures = document.querySelectorAll("picture.pbm-figure").length;
    // Listings that make a desktop reader scroll sideways.
    const codes = [...document.querySelectorAll("main pre > code")];
    const wide = codes
      .filter((c) => c.scrollWidth > c.clientWidth + 1)
      .map((c) => c.innerText.split("\n").reduce((a, l) => (l.length > a.length ? l : a), ""));
    const demos = [...document.querySelectorAll("div.pbm-demo")].map((d) => d.dataset.demo);
    // A dot accent's ink clears its letter: Chromium's boxes of a MathML letter and of
    // an operator are their glyphs' ink, rounded out to whole pixels, so a dot set on
    // the letter's own height touches it (a gap of 0) or sinks into it.
    const dots = [...document.querySelectorAll("mover")].filter((m) =>
      /^[\u02D9\u00A8\u0307\u0308]$/.test(m.lastElementChild?.textContent.trim() ?? "")
    );
    const touching = dots
      .map((m) => ({
        gap: m.firstElementChild.getBoundingClientRect().top - m.lastElementChild.getBoundingClientRect().bottom,
        base: m.firstElementChild.textContent,
      }))
      .filter((d) => !(d.gap >= 0.5));
    // Displays wider than the column (they would be cut off or scroll).
    const wideMath = [...document.querySelectorAll('main math[display="block"]')]
      .filter((m) => m.scrollWidth > m.clientWidth + 1)
      .map((m) => `${m.scrollWidth} px in ${m.clientWidth} px: ${m.textContent.slice(0, 40)}`);
    const eqLinks = [...document.querySelectorAll("main a[href]")].filter((a) => /#eq-\d+-\d+$/.test(a.getAttribute("href"))).length;
    return { imgs, hrefs, maths: math.length, bold, rawTex, ids, figures, listings: codes.length, wide, demos, dots: dots.length, touching, wideMath, eqLinks };
  });
  for (const img of seen.imgs) {
    images += 1;
    if (!img.ok) fail(rel, `image did not load: ${img.src}`);
  }
  maths += seen.maths;
  if (seen.figures > 0) figurePages.push(rel);
  for (const id of seen.demos) demoPages[id] = rel;
  listings += seen.listings;
  for (const line of seen.wide) fail(rel, `listing scrolls sideways at 1280 px: ${line.trim()}`);
  accents += seen.dots;
  for (const d of seen.touching) fail(rel, `a dot accent touches its letter ${d.base} (gap ${d.gap.toFixed(2)} px)`);
  for (const m of seen.wideMath) fail(rel, `display wider than the column at 1280 px: ${m}`);
  eqLinks += seen.eqLinks;
  boldMaths += seen.bold;
  if (seen.rawTex) fail(rel, "raw LaTeX in the text");
  for (const href of seen.hrefs) {
    const url = new URL(href);
    if (url.origin !== origin) continue;
    links += 1;
    const target = url.pathname.replace(/^\//, "") || "index.html";
    if (target === rel) {
      if (url.hash && !seen.ids.includes(decodeURIComponent(url.hash.slice(1)))) {
        fail(rel, `link to a missing anchor ${url.hash}`);
      }
      continue;
    }
    const other = await context.request.get(`${origin}/${target}`);
    if (!other.ok()) {
      fail(rel, `broken link ${href}`);
    } else if (url.hash && target.endsWith(".html")) {
      const body = await other.text();
      if (!body.includes(`id="${decodeURIComponent(url.hash.slice(1))}"`)) {
        fail(rel, `link to a missing anchor ${target}${url.hash}`);
      }
    }
  }
  await page.close();
}

// Figures are legible where they are shown: the smallest font size in the SVG the browser
// picked (wide or narrow), times the scale at which the page shows it.
const MIN_LABEL_PX = 12;
const smallest = {};
for (const width of [1280, 390]) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  let least = Infinity, figures = 0;
  for (const rel of figurePages) {
    await page.goto(`${origin}/${rel}`, { waitUntil: "load" });
    const shown = await page.evaluate(async () => {
      const out = [];
      for (const img of document.querySelectorAll("picture.pbm-figure img")) {
        img.scrollIntoView();
        const svg = await (await fetch(img.currentSrc)).text();
        const sizes = [...svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
        out.push({
          src: img.currentSrc.split("/figures/")[1],
          px: (Math.min(...sizes) * img.clientWidth) / img.naturalWidth,
        });
      }
      return out;
    });
    for (const { src, px } of shown) {
      figures += 1;
      least = Math.min(least, px);
      if (!(px >= MIN_LABEL_PX)) {
        fail(rel, `figure ${src} at ${width} px: smallest label ${px.toFixed(1)} px`);
      }
    }
  }
  smallest[width] = `${figures} figures, smallest label ${least.toFixed(1)} px`;
  await page.close();
}
console.log(`figures at 1280 px: ${smallest[1280]}; at 390 px: ${smallest[390]}`);

// Bold math is bold: at least one formula on chapter 1's first page has bold letters.
if (boldMaths === 0) problems.push("no formula anywhere has a bold vector");
// The book's key equations are numbered and cited.
const MIN_EQUATION_LINKS = 50;
if (eqLinks < MIN_EQUATION_LINKS) problems.push(`only ${eqLinks} links to numbered equations (#eq-…), fewer than ${MIN_EQUATION_LINKS}`);

// Search answers, offline.
{
  const page = await context.newPage();
  await page.goto(`${origin}/index.html`);
  await page.click("#mdbook-search-toggle");
  await page.type("#mdbook-searchbar", "Euler", { delay: 50 });
  await page
    .waitForSelector("#mdbook-searchresults li", { timeout: 5000 })
    .catch(() => {});
  const results = await page.$$eval("#mdbook-searchresults li", (l) => l.map((e) => e.innerText));
  if (results.length === 0) problems.push("search for `Euler` found nothing");
  console.log(`search "Euler": ${results.length} results; first: ${(results[0] ?? "").split("\n")[0]}`);
  await page.screenshot({ path: join(shots, "search-euler.png") });
  await page.close();
}

// Live demos: each loads, its picture moves, its sliders change its numbers, a frame of
// simulation fits well inside a 60 Hz frame, and the numbers it shares with an exercise are
// the CLI's to the last digit (each chapter's demos.rs: DEMOS.agreements).
const FRAME_BUDGET_MS = 4;
{
  const timings = [];
  let pointerDemos = 0;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const open = async (rel) => {
    await page.goto(`${origin}/${rel}`, { waitUntil: "load" });
    return page
      .waitForFunction(() => window.pbmDemosReady === true, null, { timeout: 10000 })
      .then(() => true, () => false);
  };
  for (const [id, rel] of Object.entries(demoPages)) {
    if (!(await open(rel))) {
      fail(rel, `demo ${id} did not start (was the book built with the wasm32 target?)`);
      continue;
    }
    const result = await page.evaluate((id) => {
      const box = [...document.querySelectorAll("div.pbm-demo")].find((d) => d.dataset.demo === id);
      const demo = box.pbmDemo;
      const shown = () => [...box.querySelectorAll("table.pbm-demo-readouts td[data-value]")].map((c) => c.dataset.value).join(" ");
      const before = demo.canvas.toDataURL();
      demo.advance(30);
      const moved = demo.canvas.toDataURL() !== before;
      demo.reset();
      demo.advance(10);
      const numbers = shown();
      // Move the first slider (or menu) to another position, as a reader would.
      const input = box.querySelector("div.pbm-demo-controls input, div.pbm-demo-controls select");
      if (input.tagName === "SELECT") input.value = String((Number(input.value) + 1) % input.options.length);
      else input.value = String(Number(input.value) > 500 ? 200 : 800);
      input.dispatchEvent(new Event("input"));
      demo.advance(10);
      const changed = shown() !== numbers;
      // Frame times from the defaults: 120 frames, one at a time.
      demo.setParams(demo.spec.params.map((p) => p.value));
      const times = [];
      for (let i = 0; i < 120; i++) {
        const t0 = performance.now();
        demo.advance(1);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      return { moved, changed, median: times[60], worst: times[119], error: demo.error };
    }, id);
    if (!result.moved) fail(rel, `demo ${id}: the canvas did not change over 30 frames`);
    if (!result.changed) fail(rel, `demo ${id}: moving a slider did not change the numbers`);
    if (result.error) fail(rel, `demo ${id}: ${result.error}`);
    if (!(result.median < FRAME_BUDGET_MS)) {
      fail(rel, `demo ${id}: ${result.median.toFixed(2)} ms per frame, over ${FRAME_BUDGET_MS} ms`);
    }
    timings.push(`${id} ${result.median.toFixed(2)} ms (worst ${result.worst.toFixed(1)})`);
    // The pile of fifty keeps up with the page: at least 60 steps of 10 ms per second
    // of wall time once its heap has formed (4 s in), by sequential impulses, the
    // demo's solver; the exact loop's rate on the same heap is reported beside it.
    if (id === "interactive/pile") {
      const rates = await page.evaluate(() => {
        const box = [...document.querySelectorAll("div.pbm-demo")].find((d) => d.dataset.demo === "interactive/pile");
        const demo = box.pbmDemo;
        demo.setPlaying(false);
        const solver = demo.spec.params.findIndex((p) => p.name === "solver");
        const count = demo.spec.params.findIndex((p) => p.name === "count");
        const rate = (choice) => {
          const values = demo.spec.params.map((p) => p.value);
          values[solver] = choice;
          values[count] = 50;
          demo.setParams(values);
          demo.advance(240);
          const [t0, w0] = [demo.readouts()[0], performance.now()];
          demo.advance(60);
          return (demo.readouts()[0] - t0) / 0.01 / ((performance.now() - w0) / 1000);
        };
        return { sequential: rate(0), exact: rate(1), error: demo.error };
      });
      console.log(
        `pile of fifty, steps/s once settled: sequential impulses ${rates.sequential.toFixed(0)}, exact ${rates.exact.toFixed(0)}`,
      );
      if (rates.error) fail(rel, `demo ${id}: ${rates.error}`);
      if (!(rates.sequential >= 60)) {
        fail(rel, `demo ${id}: ${rates.sequential.toFixed(1)} steps/s by sequential impulses, under 60`);
      }
    }
    // The plot beside the picture draws its curve: ink inside the axes.
    const plotted = await page.evaluate((id) => {
      const box = [...document.querySelectorAll("div.pbm-demo")].find((d) => d.dataset.demo === id);
      const demo = box.pbmDemo;
      demo.setPlaying(false);
      demo.reset();
      for (let k = 0; k < 40; k++) demo.advance(1);
      const c = demo.plotCanvas;
      const dpr = window.devicePixelRatio || 1;
      const g = c.getContext("2d");
      // Inside the axes, clear of the axis lines and of the legend above.
      const a = demo.plotArea;
      const [x0, y0] = [Math.round((a.left + 3) * dpr), Math.round(a.top * dpr)];
      const data = g.getImageData(x0, y0, Math.round((a.right - a.left - 3) * dpr), Math.round((a.bottom - a.top - 3) * dpr)).data;
      let inked = 0;
      for (let k = 3; k < data.length; k += 4) if (data[k] > 0) inked += 1;
      return { inked, points: demo.series.x.length };
    }, id);
    if (!(plotted.inked > 20 && plotted.points >= 2)) {
      fail(rel, `demo ${id}: its plot drew ${plotted.inked} pixels from ${plotted.points} points`);
    }
    // The simulation keeps time with the page, not with the display: a second of
    // display frames at 60 Hz and at 120 Hz runs the same sixty 1/60 s frames.
    const paced = await page.evaluate((id) => {
      const demo = [...document.querySelectorAll("div.pbm-demo")].find((d) => d.dataset.demo === id).pbmDemo;
      const run = (hz) => {
        demo.reset();
        demo.clock = undefined;
        for (let k = 0; k <= hz; k++) demo.pace((1000 * k) / hz);
        return demo.framesRun;
      };
      return [run(60), run(120), run(144)];
    }, id);
    if (!paced.every((n) => Math.abs(n - 60) <= 1)) {
      fail(rel, `demo ${id}: one second at 60, 120 and 144 Hz ran ${paced.join(", ")} frames, not 60`);
    }
    // A demo that offers the pointer takes a real drag (mouse events on its canvas), and
    // the drag changes it: its picture differs from the same frames run untouched.
    const hint = await page.evaluate((id) => {
      const box = [...document.querySelectorAll("div.pbm-demo")].find((d) => d.dataset.demo === id);
      const demo = box.pbmDemo;
      if (!demo.spec.drag) return null;
      demo.pausedByReader = true;
      demo.setPlaying(false);
      demo.reset();
      demo.draw();
      const m = demo.api.m;
      const w = demo.canvas.clientWidth, h = demo.canvas.clientHeight;
      for (let j = 0; j < 48; j++) for (let i = 0; i < 48; i++) {
        const [cx, cy] = [((i + 0.5) * w) / 48, ((j + 0.5) * h) / 48];
        const [x, y] = demo.toWorld(cx, cy);
        if (m.pbm_pointer(demo.handle, 0, x, y) === 1) {
          m.pbm_pointer(demo.handle, 2, x, y);
          demo.reset();
          demo.draw();
          return { cx, cy, w, h };
        }
      }
      return { none: true };
    }, id);
    if (hint?.none) fail(rel, `demo ${id} offers the pointer but took no press anywhere on its canvas`);
    if (hint && !hint.none) {
      pointerDemos += 1;
      const canvas = page.locator(`div.pbm-demo[data-demo="${id}"] canvas`).first();
      await canvas.scrollIntoViewIfNeeded();
      const at = await canvas.boundingBox();
      const [sx, sy] = [at.x + hint.cx, at.y + hint.cy];
      await page.mouse.move(sx, sy);
      await page.mouse.down();
      for (let k = 1; k <= 10; k++) {
        await page.mouse.move(sx + (k * 0.2 * hint.w) / 10, sy - (k * 0.2 * hint.h) / 10);
        await page.waitForTimeout(16);
      }
      await page.mouse.up();
      const changed = await page.evaluate((id) => {
        const demo = [...document.querySelectorAll("div.pbm-demo")].find((d) => d.dataset.demo === id).pbmDemo;
        demo.setPlaying(false);
        demo.advance(10);
        const m = demo.api.m;
        const picture = (h) => Array.from(new Float64Array(m.memory.buffer, m.pbm_draw(h), m.pbm_draw_len(h)));
        const ours = picture(demo.handle);
        const { handle } = demo.api.create(demo.index, demo.values);
        m.pbm_frame(handle, demo.framesRun);
        const theirs = picture(handle);
        m.pbm_drop(handle);
        return { frames: demo.framesRun, same: ours.length === theirs.length && ours.every((v, k) => v === theirs[k]) };
      }, id);
      if (changed.same) fail(rel, `demo ${id}: a drag on its canvas changed nothing (${changed.frames} frames)`);
    }
    await page.locator(`div.pbm-demo[data-demo="${id}"]`).screenshot({
      path: join(shots, `demo-${id.replace("/", "-")}-light-1280.png`),
    });
  }
  // A demo's parameters travel in the page's address: moving a slider writes them, and
  // opening the address restores them.
  {
    const [id, rel] = Object.entries(demoPages)[0];
    await open(rel);
    const url = await page.evaluate((id) => {
      const box = [...document.querySelectorAll("div.pbm-demo")].find((d) => d.dataset.demo === id);
      const input = box.querySelector("div.pbm-demo-controls input[type=range]");
      input.value = "900";
      input.dispatchEvent(new Event("input"));
      return { href: location.href, values: box.pbmDemo.values.slice() };
    }, id);
    await page.goto(url.href, { waitUntil: "load" });
    await page.waitForFunction(() => window.pbmDemosReady === true, null, { timeout: 10000 }).catch(() => {});
    const restored = await page.evaluate((id) => {
      const box = [...document.querySelectorAll("div.pbm-demo")].find((d) => d.dataset.demo === id);
      return box?.pbmDemo?.values ?? [];
    }, id);
    if (!url.href.includes("?") || JSON.stringify(restored) !== JSON.stringify(url.values)) {
      fail(rel, `demo ${id}: the address ${url.href} gave ${JSON.stringify(restored)}, not ${JSON.stringify(url.values)}`);
    }
    // On paper: the picture and plot, no controls, and the line saying where it runs.
    await page.emulateMedia({ media: "print" });
    const printed = await page.evaluate((id) => {
      const box = [...document.querySelectorAll("div.pbm-demo")].find((d) => d.dataset.demo === id);
      const shown = (sel) => getComputedStyle(box.querySelector(sel)).display !== "none";
      return { controls: shown("div.pbm-demo-controls"), line: shown("p.pbm-demo-print"), canvas: shown("canvas") };
    }, id);
    await page.emulateMedia({ media: "screen" });
    if (printed.controls || !printed.line || !printed.canvas) {
      fail(rel, `demo ${id} in print: ${JSON.stringify(printed)}`);
    }
  }
  // The same parameters and frames in the page and on the command line.
  const pbm = process.env.PBM ?? join(root, "target", "release", "pbm");
  const agreements = JSON.parse(await readFile(join(build, "demos", "agreements.json"), "utf8"));
  let agreed = 0;
  for (const a of agreements) {
    const rel = demoPages[a.demo];
    if (!rel) {
      problems.push(`demo ${a.demo} is on no page`);
      continue;
    }
    if (!(await open(rel))) continue; // reported above
    let shown = await page.evaluate((a) => {
      const box = [...document.querySelectorAll("div.pbm-demo")].find((d) => d.dataset.demo === a.demo);
      box.pbmDemo.setParams(a.params);
      box.pbmDemo.advance(a.frames);
      return box.pbmDemo.readouts()[a.readout];
    }, a);
    if (a.absolute) shown = Math.abs(shown);
    const result = JSON.parse(execFileSync(pbm, a.pbm_args, { encoding: "utf8" }));
    // a.key is a JSON Pointer: /name/0 ...
    const printed = a.key.split("/").slice(1).reduce((v, k) => v?.[k], result);
    // Exact unless the agreement allows for WebAssembly's own maths library (lib.rs).
    const close = a.tolerance > 0 && Math.abs(shown - printed) <= a.tolerance * Math.abs(printed);
    if (shown !== printed && !close) {
      fail(rel, `demo ${a.demo} shows ${shown}, \`pbm ${a.pbm_args.join(" ")}\` prints ${a.key} = ${printed}`);
    } else {
      agreed += 1;
    }
  }
  console.log(`demos: ${timings.join("; ")}; ${agreed} of ${agreements.length} numbers equal the CLI's; ${pointerDemos} take a drag`);
  const MIN_POINTER_DEMOS = 8;
  if (pointerDemos < MIN_POINTER_DEMOS) problems.push(`only ${pointerDemos} demos take the pointer, fewer than ${MIN_POINTER_DEMOS}`);
  await page.close();
  // Each demo as a phone in a dark theme shows it, after two seconds of play.
  const phone = await browser.newPage({ viewport: { width: 390, height: 1600 } });
  await phone.addInitScript(() => localStorage.setItem("mdbook-theme", "navy"));
  for (const [id, rel] of Object.entries(demoPages)) {
    await phone.goto(`${origin}/${rel}`, { waitUntil: "load" });
    const ready = await phone
      .waitForFunction(() => window.pbmDemosReady === true, null, { timeout: 10000 })
      .then(() => true, () => false);
    if (!ready) continue; // reported above
    await phone.evaluate((id) => {
      const box = [...document.querySelectorAll("div.pbm-demo")].find((d) => d.dataset.demo === id);
      box.pbmDemo.advance(120);
    }, id);
    const box = phone.locator(`div.pbm-demo[data-demo="${id}"]`);
    const width = await box.evaluate((b) => b.scrollWidth - b.clientWidth);
    if (width > 1) fail(rel, `demo ${id} is ${width} px wider than the column at 390 px`);
    await box.screenshot({ path: join(shots, `demo-${id.replace("/", "-")}-navy-390.png`) });
  }
  await phone.close();
}

// Screenshots to look at, light and dark, wide and narrow.
for (const [name, rel, width, theme] of [
  ["forces-light-1280", "02-particles/forces.html", 1280, "light"],
  ["forces-navy-1280", "02-particles/forces.html", 1280, "navy"],
  ["euler-light-390", "01-ode/euler.html", 390, "light"],
  ["euler-coal-390", "01-ode/euler.html", 390, "coal"],
  ["stiff-ayu-1280", "03-implicit/index.html", 1280, "ayu"],
  ["rigid-coal-1280", "06-rigid/index.html", 1280, "coal"],
  ["pbd-rigid-navy-390", "10-position-based/rigid.html", 390, "navy"],
]) {
  const page = await browser.newPage({ viewport: { width, height: 1600 } });
  await page.addInitScript((t) => localStorage.setItem("mdbook-theme", t), theme);
  await page.goto(`${origin}/${rel}`);
  await page.screenshot({ path: join(shots, `${name}.png`) });
  await page.close();
}

await browser.close();
server.close();
for (const p of problems) console.log(`problem: ${p}`);
console.log(
  `browser test: ${pages.length} pages, ${links} internal links, ${images} images, ` +
    `${maths} math elements (${boldMaths} with bold vectors, ${accents} dot accents), ${eqLinks} links to numbered equations, ` +
    `${listings} listings, ${figurePages.length} pages with figures, ${problems.length} problems`
);
process.exit(problems.length === 0 ? 0 : 1);
