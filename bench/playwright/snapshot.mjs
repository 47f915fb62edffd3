// Prints Playwright's AI snapshot of pages, for axsnap's side-by-side figures.
//
//   node snapshot.mjs [--browser PATH] [--runs N] [--viewport WxH] URL...
//
// Output: JSON lines on stdout. The first line says which playwright-core and which API made the
// snapshots; then one line per URL: {"url", "snapshot", "times_ms"}. `snapshot` is the text of
// the last run; `times_ms` holds the wall time of each run of the snapshot call alone (the page
// was loaded before the first run). Errors go to stderr with a non-zero exit code.
//
// The API is the public `page.ariaSnapshot({ mode: 'ai' })` (playwright-core >= 1.64): the
// snapshot with `[ref=eN]` markers and iframes inlined, the form Playwright gives agents.

import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

// The same flags axsnap's launcher gives Chromium: without them it reaches for the network and
// stalls on a machine that has none. Playwright adds its own fresh profile and --headless.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function parseArgs(argv) {
  const opts = { browser: '/usr/bin/chromium', runs: 1, viewport: { width: 1280, height: 800 }, urls: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--browser') opts.browser = value();
    else if (a === '--runs') {
      opts.runs = Number.parseInt(value(), 10);
      if (!(opts.runs >= 1)) throw new Error('--runs must be a positive integer');
    } else if (a === '--viewport') {
      const m = /^(\d+)x(\d+)$/.exec(value());
      if (!m) throw new Error('--viewport must be WIDTHxHEIGHT');
      opts.viewport = { width: Number(m[1]), height: Number(m[2]) };
    } else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else opts.urls.push(a);
  }
  if (opts.urls.length === 0) throw new Error('give at least one URL');
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const pkg = JSON.parse(readFileSync(new URL('./node_modules/playwright-core/package.json', import.meta.url)));
  const out = (v) => process.stdout.write(JSON.stringify(v) + '\n');
  out({ playwright_core: pkg.version, api: "page.ariaSnapshot({ mode: 'ai' })" });
  const browser = await chromium.launch({ executablePath: opts.browser, args: ARGS, headless: true });
  try {
    const context = await browser.newContext({ viewport: opts.viewport });
    for (const url of opts.urls) {
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load' });
      const times = [];
      let snapshot = '';
      for (let r = 0; r < opts.runs; r++) {
        const t0 = performance.now();
        snapshot = await page.ariaSnapshot({ mode: 'ai' });
        times.push(performance.now() - t0);
      }
      out({ url, snapshot, times_ms: times });
      await page.close();
    }
    await context.close();
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  process.stderr.write(`snapshot.mjs: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
