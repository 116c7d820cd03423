// Drives the page that `wsjava serve` serves in a real headless Chromium (Debian's
// /usr/bin/chromium, through playwright-core), once per URL given:
//   node browser-test.mjs http://127.0.0.1:PORT/ https://127.0.0.1:PORT/
// For each: the echo socket opens with permessage-deflate; text and binary messages of several
// sizes come back byte for byte (through the page's own echo function, and through its buttons);
// two chat pages see each other's messages; a screenshot goes to wsjava-cli/target/browser/.
// Then the first page once more in a window 420 px wide: nothing cut off at the side. With
// --recovery, a chat page on one server of a cluster whose socket drops comes back with the id of
// the last message it saw and shows what a page on the other server said meanwhile, once each.
// Prints one line per check and exits 0 when all pass, 1 otherwise (2 for a usage error).
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const cut = args.indexOf('--recovery');
const urls = cut < 0 ? args : args.slice(0, cut);
const cluster = cut < 0 ? [] : args.slice(cut + 1);
if (urls.length === 0 || (cut >= 0 && cluster.length !== 2)) {
  console.error('usage: node browser-test.mjs URL... [--recovery URL1 URL2]  (the page of wsjava serve,'
    + ' http:// or https://; URL1 and URL2: two servers of one Redis cluster with --history)');
  process.exit(2);
}
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SHOTS = fileURLToPath(new URL('../../../target/browser/', import.meta.url));
const SIZES = [0, 1, 125, 126, 65535, 65536, 1 << 20];
const STEP_MS = 30_000;

// The whole run is bounded, whatever hangs.
setTimeout(() => { console.error('FAIL browser test did not finish in 150 s'); process.exit(1); }, 150_000).unref();

let failures = 0;
function check(ok, what) {
  console.log((ok ? 'ok   ' : 'FAIL ') + what);
  if (!ok) failures++;
}

mkdirSync(SHOTS, { recursive: true });
const profile = mkdtempSync(join(tmpdir(), 'wsjava-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  ignoreHTTPSErrors: true,
  viewport: { width: 1280, height: 860 },
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
    '--no-first-run', '--disable-component-update', '--disable-sync',
    '--ignore-certificate-errors', // the wss:// run serves a self-signed development certificate
  ],
});
context.setDefaultTimeout(STEP_MS);
try {
  for (const url of urls) {
    await testPage(url);
  }
  await testNarrowPage(urls[0]);
  if (cluster.length === 2) await testRecovery(cluster[0], cluster[1]);
} catch (e) {
  check(false, 'unexpected failure: ' + (e.stack || e));
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(failures === 0 ? 'all checks passed' : failures + ' check(s) failed');
process.exit(failures === 0 ? 0 : 1);

async function testPage(url) {
  const scheme = url.startsWith('https:') ? 'wss' : 'ws';
  const page = await context.newPage();
  page.on('pageerror', e => check(false, `${scheme}: script error on the page: ${e.message}`));
  await page.goto(url);
  await page.waitForFunction(() => window.wsjava && window.wsjava.echo.ws.readyState === WebSocket.OPEN);

  const echoUrl = await page.evaluate(() => window.wsjava.echo.ws.url);
  check(echoUrl.startsWith(scheme + '://'), `${scheme}: the page's echo socket is ${echoUrl}`);
  const extensions = await page.evaluate(() => window.wsjava.echo.ws.extensions);
  check(extensions.includes('permessage-deflate'), `${scheme}: permessage-deflate negotiated (extensions: "${extensions}")`);
  check((await page.textContent('#echo-ext')) === 'permessage-deflate', `${scheme}: the page shows permessage-deflate`);
  check((await page.textContent('#echo-state')) === 'open', `${scheme}: the page shows the connection open`);

  // Every size, binary and text, through the page's own echo function; compared in the page.
  const results = await page.evaluate(async sizes => {
    function bytes(n, seed) {
      const out = new Uint8Array(n);
      let x = (seed * 2654435761) >>> 0 || 1;
      for (let i = 0; i < n; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; out[i] = x & 0xff; }
      return out;
    }
    function text(n, seed) { // n UTF-16 units: ASCII, 2-, 3- and 4-byte UTF-8, never a split pair
      const parts = ['a', 'é', '日', '😀', 'Z', ' ', '~', 'ß'];
      let s = '';
      let i = seed;
      while (s.length < n) {
        const p = parts[i++ % parts.length];
        s += s.length + p.length <= n ? p : 'x';
      }
      return s;
    }
    const out = [];
    for (const n of sizes) {
      const sent = bytes(n, n + 1);
      const r = await window.wsjava.echo.send(sent);
      const got = r.data instanceof ArrayBuffer ? new Uint8Array(r.data) : null; // checked here too
      let diff = got && got.length === n ? -1 : 0;
      for (let i = 0; got && diff < 0 && i < n; i++) if (got[i] !== sent[i]) diff = i;
      out.push({ kind: 'binary', n, ok: got !== null && got.length === n && diff < 0, got: got ? got.length : typeof r.data, diff, ms: r.ms });
      const t = text(n, n);
      const rt = await window.wsjava.echo.send(t);
      out.push({ kind: 'text', n, ok: rt.data === t, got: typeof rt.data === 'string' ? rt.data.length : typeof rt.data, diff: -1, ms: rt.ms });
    }
    return out;
  }, SIZES);
  for (const r of results) {
    check(r.ok, `${scheme}: ${r.kind} message of ${r.n} ${r.kind === 'text' ? 'chars' : 'bytes'} echoed byte for byte`
      + (r.ok ? ` (${r.ms.toFixed(1)} ms)` : ` — got ${r.got}, first difference at ${r.diff}`));
  }

  // The buttons: a 1 MiB random blob and a typed text, checked by the page itself.
  await page.selectOption('#echo-size', String(1 << 20));
  await page.click('#echo-binary');
  await page.fill('#echo-text', 'typed into the page ✓');
  await page.press('#echo-text', 'Enter');
  const echoed = results.length + 2;
  await page.waitForFunction(n => document.getElementById('echo-count').textContent === String(n), echoed);
  check((await page.textContent('#echo-bad')) === '0', `${scheme}: the page found no mismatch in ${echoed} echoes`);
  const log = await page.textContent('#echo-log');
  check(log.includes('← same binary 1 MiB'), `${scheme}: the 1 MiB blob sent by the button came back`);
  check(log.includes('← same text "typed into the page ✓"'), `${scheme}: the typed text came back`);

  // Chat: two pages, each sees the other's message.
  const other = await context.newPage();
  await other.goto(url);
  await joinChat(page, 'alice');
  await joinChat(other, 'bob');
  // The server adds a member after its handshake: both are in once alice hears bob join.
  await page.waitForFunction(() => document.getElementById('chat-log').textContent.includes('bob joined'));
  await page.fill('#chat-text', 'hello from alice');
  await page.press('#chat-text', 'Enter');
  await other.fill('#chat-text', 'hi alice, bob here');
  await other.click('#chat-send');
  for (const [p, who] of [[page, 'alice'], [other, 'bob']]) {
    await p.waitForFunction(() => document.getElementById('chat-log').textContent.includes('hi alice, bob here'));
    const chat = await p.textContent('#chat-log');
    check(chat.includes('alice: hello from alice') && chat.includes('bob: hi alice, bob here'),
      `${scheme}: ${who}'s chat shows both messages`);
  }
  check((await page.textContent('#chat-online')) === '2 online', `${scheme}: the chat counts 2 online`);
  check((await page.textContent('#chat-ext')) === 'permessage-deflate', `${scheme}: the chat socket negotiated permessage-deflate`);
  await other.close();
  await page.waitForFunction(() => document.getElementById('chat-log').textContent.includes('bob left'));

  const shot = join(SHOTS, scheme + '.png');
  await page.screenshot({ path: shot, fullPage: true });
  console.log(`     ${scheme}: screenshot ${shot}`);
  await page.close();
}

// A phone-sized window, 420 px wide: nothing sticks out sideways (every button and the URL chip
// lie wholly inside the viewport, the page does not scroll sideways), and the chat log keeps its
// distance from the nickname field above it.
async function testNarrowPage(url) {
  const width = 420;
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 860 });
  await page.goto(url);
  await page.waitForFunction(() => window.wsjava && window.wsjava.echo.ws.readyState === WebSocket.OPEN);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  check(scrollWidth <= width, `${width} px: the page is no wider than the window (scroll width ${scrollWidth} px)`);
  const boxes = [
    ['the URL chip', '#echo-url'], ['Send text', '#echo-text-form button'],
    ['Send binary', '#echo-binary'], ['Join', '#chat-join'], ['Send', '#chat-send'],
  ];
  for (const [name, selector] of boxes) {
    const box = await page.locator(selector).boundingBox();
    const inside = box !== null && box.x >= 0 && box.x + box.width <= width && box.width > 0;
    check(inside, `${width} px: ${name} lies inside the window`
      + (box ? ` (x ${box.x.toFixed(0)} to ${(box.x + box.width).toFixed(0)})` : ' (not shown)'));
  }
  const nick = await page.locator('#chat-nick').boundingBox();
  const log = await page.locator('#chat-log').boundingBox();
  const gap = log.y - (nick.y + nick.height);
  check(gap >= 6, `${width} px: the chat log keeps clear of the nickname field (gap ${gap.toFixed(0)} px)`);
  await page.screenshot({ path: join(SHOTS, 'narrow.png'), fullPage: true });
  await page.close();
}

// Two servers sharing a Redis with a history: alice's socket drops (the page's test hook closes it
// with 4000 and opens it again 3 s later); meanwhile bob, on the other server, hears her leave and
// says three things; alice's page comes back with ?last=ID and shows them once each, in order,
// before the announcement of her return.
async function testRecovery(one, two) {
  const alice = await context.newPage();
  alice.on('pageerror', e => check(false, `recovery: script error on the page: ${e.message}`));
  await alice.goto(one);
  await joinChat(alice, 'alice');
  const bob = await context.newPage();
  await bob.goto(two);
  await joinChat(bob, 'bob');
  // A server subscribes to Redis as its first member joins: alice talks until bob hears her.
  let heard = false;
  for (let i = 0; i < 50 && !heard; i++) {
    await alice.evaluate(t => window.wsjava.chat.send(t), 'ping ' + i);
    heard = await bob.waitForFunction(t => window.wsjava.chat.messages.includes(t), 'alice: ping ' + i,
      { timeout: 300 }).then(() => true, () => false);
  }
  check(heard, 'recovery: bob, on the other server, hears alice');
  const lastId = await alice.evaluate(() => window.wsjava.chat.lastId);
  check(/^\d+-\d+$/.test(lastId ?? ''), `recovery: the page keeps the id of the last message (${lastId})`);
  await alice.evaluate(() => window.wsjava.chat.drop(3000));
  await bob.waitForFunction(() => window.wsjava.chat.messages.includes('* alice left (0 online)'));
  for (const text of ['missed 1', 'missed 2', 'missed 3']) {
    await bob.evaluate(t => window.wsjava.chat.send(t), text);
  }
  await alice.waitForFunction(() => window.wsjava.chat.messages.includes('bob: missed 3'));
  await alice.waitForFunction(() => document.getElementById('chat-state').textContent === 'open as alice');
  await alice.waitForFunction(() => window.wsjava.chat.messages.filter(m => m === '* alice joined (1 online)').length === 2);
  const got = await alice.evaluate(() => window.wsjava.chat.messages);
  const missed = got.filter(m => m.startsWith('bob: missed'));
  check(JSON.stringify(missed) === JSON.stringify(['bob: missed 1', 'bob: missed 2', 'bob: missed 3']),
    `recovery: alice's page shows the three messages said while it was away, once each, in order (${JSON.stringify(missed)})`);
  check(got.lastIndexOf('* alice joined (1 online)') > got.indexOf('bob: missed 3'),
    'recovery: what it missed comes before the announcement of its return');
  check(!(await alice.textContent('#chat-log')).includes('messages were missed'), 'recovery: no gap signal');
  await bob.close();
  await alice.close();
}

async function joinChat(page, nick) {
  await page.fill('#chat-nick', nick);
  await page.click('#chat-join');
  await page.waitForFunction(n => document.getElementById('chat-state').textContent === 'open as ' + n, nick);
}
