// Playwright's AI snapshot of a page that another client drives, for axsnap's side-by-side
// workflow figures: both read the same page in the same state.
//
//   node follow.mjs WS_ENDPOINT URL_PART
//
// Connects to the running browser over CDP, then answers each line read on stdin with one JSON
// line on stdout: {"snapshot"} of the first page whose URL contains URL_PART, taken with the
// public `page.ariaSnapshot({ mode: 'ai' })` (playwright-core >= 1.64), or {"error"}. The first
// line says which playwright-core made the snapshots. Ends at the end of stdin.

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

async function main() {
  const [endpoint, part] = process.argv.slice(2);
  if (!endpoint || !part) throw new Error('usage: follow.mjs WS_ENDPOINT URL_PART');
  const pkg = JSON.parse(readFileSync(new URL('./node_modules/playwright-core/package.json', import.meta.url)));
  const out = (v) => process.stdout.write(JSON.stringify(v) + '\n');
  const browser = await chromium.connectOverCDP(endpoint);
  out({ playwright_core: pkg.version, api: "page.ariaSnapshot({ mode: 'ai' })" });
  const lines = createInterface({ input: process.stdin });
  for await (const _ of lines) {
    try {
      const pages = browser.contexts().flatMap((c) => c.pages());
      const page = pages.find((p) => p.url().includes(part));
      if (!page) throw new Error(`no page with ${part} in its URL (${pages.map((p) => p.url()).join(', ')})`);
      out({ snapshot: await page.ariaSnapshot({ mode: 'ai' }) });
    } catch (e) {
      out({ error: String(e && e.message ? e.message : e) });
    }
  }
  // Leaves the browser running: it belongs to the client that drives it.
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`follow.mjs: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
