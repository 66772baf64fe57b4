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
  ".wasm": "application/wasm",
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
    // A dot accent's ink (one to four dots: U+02D9, U+00A8, U+0307, U+0308, U+20DB,
    // U+20DC) clears its letter: Chromium's boxes of a MathML letter and of
    // an operator are their glyphs' ink, rounded out to whole pixels, so a dot set on
    // the letter's own height touches it (a gap of 0) or sinks into it.
    const dots = [...document.querySelectorAll("mover")].filter((m) =>
      /^[\u02D9\u00A8\u0307\u0308\u20DB\u20DC]$/.test(m.lastElementChild?.textContent.trim() ?? "")
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

// Weight: every page read from file:// by a reader who scrolls to its end: the HTML and every
// file it loads, uncompressed (their sizes on disk). From file:// a demo's module comes from
// demos/pbm-web.js (gzipped, as base64); each demo must start that way too. The math font,
// served as WOFF2, still stretches a fence, sets a radical and an accent (its MATH table).
const PAGE_BYTES = 500_000, DEMO_PAGE_BYTES = 1_500_000;
const weights = {
  plain: { bytes: 0, rel: "", files: [], over: 0, limit: PAGE_BYTES, what: "without a demo" },
  demo: { bytes: 0, rel: "", files: [], over: 0, limit: DEMO_PAGE_BYTES, what: "with a demo" },
};
{
  const { pathToFileURL } = await import("node:url");
  const withDemo = new Set(Object.values(demoPages));
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (e) => problems.push(`weight (file://): script error: ${e.message}`));
  let loaded = new Set();
  page.on("requestfinished", (r) => loaded.add(r.url()));
  for (const rel of pages) {
    loaded = new Set();
    const url = pathToFileURL(join(build, rel)).href;
    await page.goto(url, { waitUntil: "load" });
    await page.evaluate(async () => {
      for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
        scrollTo(0, y);
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      }
      await document.fonts.ready;
    });
    if (withDemo.has(rel)) {
      const ready = await page
        .waitForFunction(() => window.pbmDemosReady === true, null, { timeout: 15000 })
        .then(() => true, () => false);
      if (!ready) fail(rel, "its demos did not start from file:// (demos/pbm-web.js)");
    }
    await page.waitForLoadState("networkidle").catch(() => {});
    const timed = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
    const files = [];
    for (const u of new Set([url, ...loaded, ...timed])) {
      if (!u.startsWith("file:")) continue;
      const file = fileURLToPath(u.split(/[?#]/)[0]);
      const size = await stat(file).then((s) => (s.isFile() ? s.size : 0), () => 0);
      if (size > 0) files.push([size, file.slice(build.length + 1)]);
    }
    const bytes = files.reduce((sum, [size]) => sum + size, 0);
    const w = weights[withDemo.has(rel) ? "demo" : "plain"];
    if (bytes > w.limit) w.over += 1;
    if (bytes > w.bytes) Object.assign(w, { bytes, rel, files: files.sort((a, b) => b[0] - a[0]) });
  }
  for (const w of Object.values(weights)) {
    if (w.over > 0) {
      problems.push(`${w.over} pages ${w.what} weigh over ${w.limit / 1000} KB from file://; the heaviest, ${w.rel}, ${Math.round(w.bytes / 1000)} KB`);
    }
  }
  // The math font's MATH table at work: a fence around a fraction grows to its height, and a
  // radical and an accent are set (look at target/browser/math-font.png).
  const rel = pages.find((r) => r.startsWith("01-ode/")) ?? pages[0];
  await page.goto(pathToFileURL(join(build, rel)).href, { waitUntil: "load" });
  const math = await page.evaluate(async () => {
    const box = document.createElement("p");
    box.id = "pbm-math-font-check";
    box.innerHTML =
      '<math display="block"><mrow><mo>(</mo><mfrac><mrow><mn>1</mn><mo>+</mo><msup><mi>x</mi><mn>2</mn></msup></mrow>' +
      '<mrow><mn>1</mn><mo>+</mo><mfrac><mn>1</mn><mi>y</mi></mfrac></mrow></mfrac><mo>)</mo></mrow><mo>=</mo>' +
      '<msqrt><mfrac><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mi>c</mi></mfrac></msqrt><mo>+</mo>' +
      '<mover accent="true"><mi>𝐮</mi><mo>^</mo></mover><mo>+</mo><mover accent="true"><mi>𝐘</mi><mo>⃛</mo></mover></math>';
    document.querySelector("main").prepend(box);
    await document.fonts.ready;
    const [open, frac] = [box.querySelector("mrow > mo"), box.querySelector("mfrac")];
    return {
      font: document.fonts.check('16px "New Computer Modern Math"', "(") &&
        [...document.fonts].some((f) => f.family.includes("New Computer Modern Math") && f.status === "loaded"),
      fence: open.getBoundingClientRect().height,
      fraction: frac.getBoundingClientRect().height,
    };
  });
  await page.locator("#pbm-math-font-check").screenshot({ path: join(shots, "math-font.png") });
  if (!math.font) problems.push("the math font (fonts/NewCMMath-Regular.woff2) did not load from file://");
  if (math.fence < 0.9 * math.fraction) {
    problems.push(`a fence around a fraction does not stretch (${math.fence.toFixed(1)} px beside ${math.fraction.toFixed(1)} px): the math font lost its MATH table?`);
  }
  await page.close();
  const kb = (w) => `${Math.round(w.bytes / 1000)} KB (${w.rel}: ${w.files.slice(0, 3).map(([s, f]) => `${f} ${Math.round(s / 1000)} KB`).join(", ")})`;
  console.log(`page weight from file://: heaviest without a demo ${kb(weights.plain)}; with a demo ${kb(weights.demo)}; a stretched fence ${math.fence.toFixed(1)} px beside its fraction's ${math.fraction.toFixed(1)} px`);
}

// Demos a reader can read and hold (issue 73: D2, D3, D5, D6, D11, D13). Each check is a
// function of its own; they run after the demo checks above.
const demoBox = (page, id) => page.locator(`div.pbm-demo[data-demo="${id}"]`);
async function openDemo(page, url) {
  await page.goto(url, { waitUntil: "load" });
  return page
    .waitForFunction(() => window.pbmDemosReady === true, null, { timeout: 10000 })
    .then(() => true, () => false);
}

// Plots and readouts (D5, D6): every axis of every plot carries 4 to 6 tick labels, none
// cut by the canvas's edges; no readout is a long string of digits; after a slider
// change the plot keeps the run before it (or marks the moment, for a change the
// running demo takes), and the printed line's address carries the new setting (D13).
async function checkPlotsAndReadouts(page, id, rel) {
  const seen = await demoBox(page, id).evaluate((box, id) => {
    const demo = box.pbmDemo;
    demo.pausedByReader = true;
    demo.setPlaying(false);
    demo.setParams(demo.spec.params.map((p) => p.value));
    for (let k = 0; k < 60; k++) demo.advance(1);
    const ticks = demo.plotTicks ?? { width: 0, height: 0, axes: [] };
    const cut = [];
    for (const a of ticks.axes) for (const l of a.labels) {
      if (l.left < -0.5 || l.right > ticks.width + 0.5 || l.top < -0.5 || l.bottom > ticks.height + 0.5) cut.push(`${a.axis}: ${l.text}`);
    }
    const counts = ticks.axes.map((a) => ({ axis: a.axis, n: a.labels.length, labels: a.labels.map((l) => l.text) }));
    const long = [...box.querySelectorAll("table.pbm-demo-readouts td[data-value]")]
      .map((c) => c.textContent)
      .filter((t) => t.replace(/[−\-.]/g, "").length > 10);
    // A slider change, as a reader makes it.
    const input = box.querySelector("div.pbm-demo-controls input, div.pbm-demo-controls select");
    if (input.tagName === "SELECT") input.value = String((Number(input.value) + 1) % input.options.length);
    else input.value = String(Number(input.value) > 500 ? 300 : 700);
    input.dispatchEvent(new Event("input"));
    demo.advance(10);
    const kept = (demo.previous?.series?.x?.length ?? 0) >= 2 || (demo.marks?.length ?? 0) > 0;
    const param = input.dataset.param;
    const printed = box.querySelector("p.pbm-demo-print")?.textContent ?? "";
    const value = demo.values[demo.spec.params.findIndex((p) => p.name === param)];
    return { counts, cut, long, kept, printed, key: `${id}.${param}=${value}` };
  }, id);
  if (seen.counts.length < 2) fail(rel, `demo ${id}: its plot reports no ticks (plotTicks)`);
  for (const a of seen.counts) {
    if (!(a.n >= 4 && a.n <= 6)) fail(rel, `demo ${id}: the plot's axis "${a.axis}" has ${a.n} tick labels (${a.labels.join(", ")}), not 4 to 6`);
  }
  for (const c of seen.cut) fail(rel, `demo ${id}: the plot's tick label ${c} is cut by the canvas's edge`);
  for (const t of seen.long) fail(rel, `demo ${id}: the readout ${t} is a long string of digits`);
  if (!seen.kept) fail(rel, `demo ${id}: a slider change erased the plot (no faint run before it, no mark)`);
  if (!seen.printed.includes(seen.key)) fail(rel, `demo ${id}: the printed line "${seen.printed}" does not carry ${seen.key}`);
  return seen.counts;
}

// Sliders (D11): each says its value with its unit (aria-valuetext, as shown beside it),
// and an arrow key moves it by about 1 % of its range, to another value.
async function checkSliders(page, id, rel) {
  const sliders = demoBox(page, id).locator("div.pbm-demo-controls input[type=range]");
  for (let i = 0; i < (await sliders.count()); i++) {
    const slider = sliders.nth(i);
    const read = () => slider.evaluate((s) => ({
      position: Number(s.value),
      text: s.getAttribute("aria-valuetext"),
      shown: s.parentElement.querySelector("output")?.textContent.trim(),
      name: s.dataset.param,
    }));
    const before = await read();
    if (!before.text || before.text !== before.shown) {
      fail(rel, `demo ${id}: slider ${before.name} reads "${before.text}", shows "${before.shown}"`);
    }
    await slider.focus();
    await page.keyboard.press(before.position >= 990 ? "ArrowLeft" : "ArrowRight");
    const after = await read();
    const moved = Math.abs(after.position - before.position);
    // A whole-number slider moves on to its next value, however far that is.
    const whole = /^\d+ ?\S*$/.test(before.text ?? "") && !/\./.test(before.text ?? "");
    if (!(moved >= 5 && (moved <= 60 || whole)) || after.text === before.text) {
      fail(rel, `demo ${id}: an arrow key moved slider ${before.name} from ${before.position} (${before.text}) to ${after.position} (${after.text}), not about 1 % of 1000 to a new value`);
    }
  }
}

// Slow motion, not catch-up (D2): the pile of fifty with the exact solver plays in view;
// no display frame runs more than one demo frame beyond its simulation budget, the
// status line says "×0.3 slow motion" when a frame costs more than a display frame, and
// a click on Pause answers within one display frame.
async function checkSlowMotion(browser, origin, rel) {
  const id = "interactive/pile";
  const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
  if (!(await openDemo(page, `${origin}/${rel}?${id}.count=50&${id}.solver=1`))) {
    fail(rel, `demo ${id} did not start for the slow-motion check`);
    await page.close();
    return;
  }
  const box = demoBox(page, id);
  await box.evaluate((box) => box.scrollIntoView({ block: "start" }));
  // Every pbm_frame call of the demo, timed, and gathered per display frame.
  await box.evaluate((box) => {
    const demo = box.pbmDemo;
    const m = demo.api.m;
    const log = (window.pbmSim = { frames: [], now: { ms: 0, frames: 0, calls: 0 }, single: [] });
    const wrapped = Object.create(m);
    Object.defineProperty(wrapped, "pbm_frame", {
      value: (handle, frames) => {
        const t0 = performance.now();
        const status = m.pbm_frame(handle, frames);
        const ms = performance.now() - t0;
        if (handle === demo.handle) {
          log.now.ms += ms;
          log.now.frames += frames;
          log.now.calls += 1;
          log.single.push(ms / frames);
        }
        return status;
      },
    });
    demo.api.m = wrapped;
    const step = () => {
      if (log.now.calls > 0) log.frames.push(log.now);
      log.now = { ms: 0, frames: 0, calls: 0 };
      if (!log.stop) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
    demo.pausedByReader = false;
    demo.setPlaying(true);
  });
  await page.waitForTimeout(6000);
  // Clicks a reader makes on Pause and Play, each timed from the press's release to the
  // page's answer (the browser acknowledges an input once the page has handled it).
  const statusBefore = await box.locator("span.pbm-demo-status").textContent();
  const button = await box.locator("div.pbm-demo-buttons button").first().boundingBox();
  const answers = [];
  for (let k = 0; k < 3; k++) {
    const playing = await box.evaluate((box) => box.pbmDemo.playing);
    await page.mouse.move(button.x + button.width / 2, button.y + button.height / 2);
    await page.mouse.down();
    const t0 = Date.now();
    await page.mouse.up();
    answers.push({ ms: Date.now() - t0, was: playing, now: await box.evaluate((box) => box.pbmDemo.playing) });
    await page.waitForTimeout(k === 1 ? 3000 : 300);
  }
  await box.evaluate((box) => (window.pbmSim.framesAtClick = box.pbmDemo.framesRun));
  await page.waitForTimeout(500);
  const seen = await box.evaluate((box) => {
    const demo = box.pbmDemo;
    const log = window.pbmSim;
    log.stop = true;
    const single = log.single.slice().sort((a, b) => a - b);
    return {
      frames: log.frames, budget: demo.budget ?? 1000 / 60 / 2,
      playing: demo.playing, after: demo.framesRun - log.framesAtClick,
      median: single[Math.floor(single.length / 2)] ?? 0, worst: single[single.length - 1] ?? 0,
      p90: single[Math.floor(0.9 * single.length)] ?? 0,
      button: demo.playButton.textContent,
    };
  });
  await page.close();
  const over = seen.frames.filter((f) => f.frames > 1 && f.ms > 1.5 * seen.budget);
  if (seen.frames.length < 5) fail(rel, `demo ${id} (exact, 50): only ${seen.frames.length} display frames ran its simulation in 6 s`);
  if (over.length > 0) {
    const worst = over.reduce((a, f) => (f.ms > a.ms ? f : a));
    fail(rel, `demo ${id} (exact, 50): ${over.length} of ${seen.frames.length} display frames ran more than one demo frame beyond the ${seen.budget} ms budget (worst ${worst.frames} frames in ${worst.ms.toFixed(0)} ms)`);
  }
  // One display frame: a demo frame (at most one runs when behind) and the drawing.
  const limit = Math.max(50, 1.2 * seen.p90 + 1000 / 60);
  const toggled = answers.every((a) => a.was !== a.now) && answers[0].was === true;
  const answered = answers.map((a) => a.ms).sort((a, b) => a - b)[1];
  if (!(answered <= limit) || !toggled || seen.playing || seen.after !== 0 || seen.button !== "Play") {
    fail(rel, `demo ${id} (exact, 50): Pause and Play answered in ${answers.map((a) => `${a.ms} ms (${a.was} → ${a.now})`).join(", ")} (one display frame: ${limit.toFixed(0)} ms), ${seen.after} frames ran after the last Pause`);
  }
  const slow = /×0?\.\d+ slow motion/.test(statusBefore);
  if (seen.median > 1000 / 60 && !slow) fail(rel, `demo ${id} (exact, 50): frames of ${seen.median.toFixed(1)} ms, but the status line says "${statusBefore}", not slow motion`);
  if (seen.median < seen.budget / 2 && slow) fail(rel, `demo ${id} (exact, 50): frames of ${seen.median.toFixed(1)} ms, yet the status line says "${statusBefore}"`);
  console.log(
    `pile of fifty, exact solver, playing: a demo frame ${seen.median.toFixed(1)} ms (worst ${seen.worst.toFixed(0)}), ` +
    `${seen.frames.length} display frames ran it in 6 s, status "${statusBefore}", Pause/Play/Pause answered in ${answers.map((a) => a.ms).join("/")} ms`,
  );
}

// A phone's swipe (D3): on every demo that takes the pointer, a touch swipe that starts on
// an empty part of its canvas scrolls the page, and one that starts on a body does not.
// Bodies stay in view (D1): on every demo that takes the pointer, a real mouse grabs up to
// four of its bodies in turn and flicks each 400 px in 30 ms (the fastest a hand moves,
// pbm_prelim::demo::FLICK_PX_PER_S), each in the next of eight directions, and lets go
// while moving; a second of the demo later (60 of its frames), every body it lists
// (pbm_body_count, pbm_bodies: grip and bounds) must lie inside its view, as must all
// of them after five seconds more. tests/demos.rs throws harder and longer through the
// module's ABI alone; this is the same promise through the page's own hands.
async function checkThrows(browser, origin, demoPages) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const results = [];
  const bodies = (box) =>
    box.evaluate((box) => {
      const demo = box.pbmDemo;
      const m = demo.api.m;
      const n = m.pbm_body_count(demo.handle);
      const raw = n > 0 ? Array.from(new Float64Array(m.memory.buffer, m.pbm_bodies(), 6 * n)) : [];
      const [x0, x1, y0, y1] = demo.view;
      const list = [];
      for (let k = 0; k < n; k++) {
        const [gx, gy, a0, a1, b0, b1] = raw.slice(6 * k, 6 * k + 6);
        const inside = [a0, a1, b0, b1].every(Number.isFinite) && a0 >= x0 && a1 <= x1 && b0 >= y0 && b1 <= y1;
        list.push({ grip: [gx, gy], bounds: [a0, a1, b0, b1], inside });
      }
      return { list, view: demo.view, note: demo.api.text(m.pbm_note(demo.handle)) };
    });
  // Until the demo has run `frames` more of its frames (at most 10 s of page time).
  const runFrames = (box, frames) =>
    box.evaluate(async (box, frames) => {
      const demo = box.pbmDemo;
      const start = demo.framesRun;
      const t0 = performance.now();
      while (demo.framesRun - start < frames && performance.now() - t0 < 10000) {
        await new Promise((r) => requestAnimationFrame(r));
      }
      return demo.framesRun - start;
    }, frames);
  for (const [id, rel] of Object.entries(demoPages)) {
    if (!(await openDemo(page, `${origin}/${rel}`))) continue; // reported above
    const box = demoBox(page, id);
    const takes = await box.evaluate((box) => Boolean(box.pbmDemo.spec.drag));
    if (!takes) continue;
    await box.evaluate((box) => box.scrollIntoView({ block: "center" }));
    await box.evaluate((box) => box.pbmDemo.setPlaying(true));
    await runFrames(box, 30);
    const first = await bodies(box);
    if (first.list.length === 0) {
      fail(rel, `demo ${id} takes the pointer but lists no body (pbm_body_count)`);
      continue;
    }
    let lost = null, grabbed = 0;
    const throws = Math.min(first.list.length, 4);
    for (let t = 0; t < throws && !lost; t++) {
      const now = await bodies(box);
      if (now.note) break; // a demo that stopped a runaway, and says why, takes no more
      const body = now.list[t % now.list.length];
      const at = await box.evaluate((box, grip) => {
        const demo = box.pbmDemo;
        // The canvas pixel of a world point: toWorld inverted (it is affine, equal scales).
        const [ax, ay] = demo.toWorld(0, 0);
        const [bx] = demo.toWorld(1, 0);
        const scale = 1 / (bx - ax);
        const rect = demo.canvas.getBoundingClientRect();
        return { x: rect.left + (grip[0] - ax) * scale, y: rect.top + (ay - grip[1]) * scale };
      }, body.grip);
      const angle = (2 * Math.PI * ((3 * t + 2) % 8)) / 8;
      const [dx, dy] = [400 * Math.cos(angle), -400 * Math.sin(angle)];
      await page.mouse.move(at.x, at.y);
      await page.mouse.down();
      if (await box.evaluate((box) => box.pbmDemo.dragging === true)) grabbed += 1;
      await page.mouse.move(at.x + dx / 2, at.y + dy / 2);
      await page.waitForTimeout(15);
      await page.mouse.move(at.x + dx, at.y + dy);
      await page.waitForTimeout(15);
      await page.mouse.up();
      await runFrames(box, 60);
      const after = await bodies(box);
      const out = after.list.map((b, k) => ({ ...b, k })).filter((b) => !b.inside);
      if (out.length > 0) {
        lost = `a second after throw ${t} (body ${t % now.list.length}, ${angle.toFixed(2)} rad): ` +
          out.slice(0, 3).map((b) => `body ${b.k} at [${b.bounds.map((v) => v.toPrecision(3)).join(", ")}]`).join("; ") +
          ` outside the view [${after.view.map((v) => v.toPrecision(3)).join(", ")}]`;
      }
    }
    if (!lost) {
      await runFrames(box, 300);
      const later = await bodies(box);
      const out = later.list.filter((b) => !b.inside);
      if (out.length > 0) lost = `five seconds after the throws, ${out.length} bodies outside the view`;
    }
    if (lost) fail(rel, `demo ${id}: ${lost}`);
    if (grabbed === 0) fail(rel, `demo ${id}: no press on a body's grip point took it, so nothing was thrown`);
    results.push(`${id} ${grabbed} of ${throws} grabbed${lost ? ", lost" : ", in view"}`);
  }
  await page.close();
  console.log(`bodies flicked 400 px in 30 ms by the mouse, then a second and five more: ${results.join("; ")}`);
}

async function checkTouchSwipes(browser, origin, demoPages) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const results = [];
  for (const [id, rel] of Object.entries(demoPages)) {
    if (!(await openDemo(page, `${origin}/${rel}`))) continue; // reported above
    const box = demoBox(page, id);
    // Where the demo takes a press: a 24 × 24 grid over its canvas, from its first frame.
    const spots = await box.evaluate((box) => {
      const demo = box.pbmDemo;
      if (!demo.spec.drag) return null;
      demo.pausedByReader = true;
      demo.setPlaying(false);
      demo.reset();
      demo.draw();
      const m = demo.api.m;
      const w = demo.canvas.clientWidth, h = demo.canvas.clientHeight, n = 24;
      const taken = [];
      for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
        const [x, y] = demo.toWorld(((i + 0.5) * w) / n, ((j + 0.5) * h) / n);
        const hit = m.pbm_pointer(demo.handle, 0, x, y) === 1;
        if (hit) m.pbm_pointer(demo.handle, 2, x, y);
        taken.push(hit);
      }
      demo.reset();
      demo.draw();
      const at = (i, j) => i < 0 || j < 0 || i >= n || j >= n || taken[j * n + i];
      let empty = null, body = null;
      for (let j = 1; j < n - 1; j++) for (let i = 1; i < n - 1; i++) {
        const spot = { cx: ((i + 0.5) * w) / n, cy: ((j + 0.5) * h) / n, d: Math.abs(j - n / 2) + Math.abs(i - n / 2) / 2 };
        let clear = true;
        for (let dj = -1; dj <= 1; dj++) for (let di = -1; di <= 1; di++) if (at(i + di, j + dj)) clear = false;
        if (clear && (!empty || spot.d < empty.d)) empty = spot;
        let inside = true;
        for (let dj = -1; dj <= 1; dj++) for (let di = -1; di <= 1; di++) if (!at(i + di, j + dj)) inside = false;
        if (taken[j * n + i] && (!body || (inside && !body.inside))) body = { ...spot, inside };
      }
      return { empty, body };
    });
    if (!spots) continue;
    if (!spots.empty) {
      fail(rel, `demo ${id}: no empty part of its canvas to start a swipe on`);
      continue;
    }
    // The page at rest (a fling has ended): its scroll position.
    const settled = async () => {
      let last = await page.evaluate(() => window.scrollY);
      for (let k = 0; k < 40; k++) {
        await page.waitForTimeout(100);
        const now = await page.evaluate(() => window.scrollY);
        if (now === last) return now;
        last = now;
      }
      return last;
    };
    // The spot put at 60 % of the screen's height, and a 300 px swipe towards the
    // longer part of the page; returns how far the page scrolled.
    const swipe = async (spot) => {
      await settled();
      await box.evaluate((box, spot) => {
        const top = box.pbmDemo.canvas.getBoundingClientRect().top + window.scrollY + spot.cy;
        window.scrollTo(0, Math.max(0, top - 0.6 * window.innerHeight));
      }, spot);
      await settled();
      const start = await box.evaluate((box, spot) => {
        const rect = box.pbmDemo.canvas.getBoundingClientRect();
        const room = document.documentElement.scrollHeight - window.innerHeight - window.scrollY;
        return { scroll: window.scrollY, x: rect.left + spot.cx, y: rect.top + spot.cy, up: room > 320 };
      }, spot);
      const { x, y } = start;
      const dy = start.up ? -300 : 300;
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
      for (let k = 1; k <= 10; k++) {
        await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y: y + (k * dy) / 10 }] });
        await page.waitForTimeout(16);
      }
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      return Math.abs((await settled()) - start.scroll);
    };
    let held = null;
    if (spots.body) {
      held = await swipe(spots.body);
      if (held > 20) fail(rel, `demo ${id}: a touch swipe that grabbed a body scrolled the page ${held.toFixed(0)} px`);
      await box.evaluate((box) => {
        box.pbmDemo.setPlaying(false);
        box.pbmDemo.reset();
      });
    }
    const scrolled = await swipe(spots.empty);
    if (!(scrolled >= 100)) fail(rel, `demo ${id}: a touch swipe from an empty part of its canvas scrolled the page ${scrolled.toFixed(0)} px`);
    results.push(`${id} ${scrolled.toFixed(0)} px${held === null ? "" : ` (on a body ${held.toFixed(0)} px)`}`);
  }
  console.log(`touch swipes from an empty part of a draggable canvas scroll the page: ${results.join("; ")}`);
  await context.close();
}

{
  const counts = [];
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  for (const [id, rel] of Object.entries(demoPages)) {
    if (!(await openDemo(page, `${origin}/${rel}`))) continue; // reported above
    const axes = await checkPlotsAndReadouts(page, id, rel);
    counts.push(`${id} ${axes.map((a) => a.n).join("/")}`);
    await checkSliders(page, id, rel);
  }
  await page.close();
  console.log(`plot ticks per axis (time/panels): ${counts.join("; ")}`);
  if (demoPages["interactive/pile"]) await checkSlowMotion(browser, origin, demoPages["interactive/pile"]);
  await checkTouchSwipes(browser, origin, demoPages);
  await checkThrows(browser, origin, demoPages);
}

// Accessibility: axe-core on every page, in the light theme and in navy (mdBook's dark theme
// that the book's own colours have to pass too), after the page's demos have built their
// controls. Every serious or critical finding is a problem, named by rule, element and why;
// the summary counts the elements by rule for each theme.
{
  const { createRequire } = await import("node:module");
  const axeSource = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  const withDemo = new Set(Object.values(demoPages));
  const summary = [];
  let version = "";
  for (const theme of ["light", "navy"]) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
    await context.addInitScript((t) => localStorage.setItem("mdbook-theme", t), theme);
    const page = await context.newPage();
    const byRule = {};
    let pagesWith = 0;
    for (const rel of pages) {
      await page.goto(`${origin}/${rel}`, { waitUntil: "load" });
      if (withDemo.has(rel)) {
        await page.waitForFunction(() => window.pbmDemosReady === true, null, { timeout: 15000 }).catch(() => {});
      }
      await page.addScriptTag({ content: axeSource });
      const found = await page.evaluate(async () => {
        const { violations, testEngine } = await window.axe.run(document, { resultTypes: ["violations"] });
        return {
          version: testEngine.version,
          violations: violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => ({
              rule: v.id,
              impact: v.impact,
              targets: v.nodes.map((n) => n.target.join(" ")),
              why: (v.nodes[0]?.any[0] ?? v.nodes[0]?.all[0] ?? v.nodes[0]?.none[0])?.message ?? v.help,
            })),
        };
      });
      version = found.version;
      if (found.violations.length > 0) pagesWith += 1;
      for (const v of found.violations) {
        byRule[v.rule] = (byRule[v.rule] ?? 0) + v.targets.length;
        const some = v.targets.slice(0, 3).join(", ") + (v.targets.length > 3 ? ", …" : "");
        fail(rel, `axe (${theme}): ${v.rule} (${v.impact}) on ${v.targets.length} elements (${some}): ${v.why}`);
      }
    }
    const rules = Object.entries(byRule).map(([rule, n]) => `${rule} ${n}`).join(", ");
    summary.push(`${theme} ${Object.values(byRule).reduce((a, b) => a + b, 0)} on ${pagesWith} pages${rules ? ` (${rules})` : ""}`);
    await context.close();
  }
  console.log(`axe-core ${version}, serious or critical elements on ${pages.length} pages: ${summary.join("; ")}`);
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
  `page weight (file://, uncompressed): heaviest without a demo ${Math.round(weights.plain.bytes / 1000)} KB ` +
    `(${weights.plain.rel}, limit ${PAGE_BYTES / 1000} KB), with a demo ${Math.round(weights.demo.bytes / 1000)} KB ` +
    `(${weights.demo.rel}, limit ${DEMO_PAGE_BYTES / 1000} KB)`
);
console.log(
  `browser test: ${pages.length} pages, ${links} internal links, ${images} images, ` +
    `${maths} math elements (${boldMaths} with bold vectors, ${accents} dot accents), ${eqLinks} links to numbered equations, ` +
    `${listings} listings, ${figurePages.length} pages with figures, ${problems.length} problems`
);
process.exit(problems.length === 0 ? 0 : 1);
