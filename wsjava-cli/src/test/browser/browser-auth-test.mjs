// The page of `wsjava serve --token` and `--basic-auth` in a real headless Chromium (Debian's
// /usr/bin/chromium, through playwright-core):
//   node browser-auth-test.mjs TOKEN-URL NAME TOKEN BASIC-URL USER PASSWORD
// For the token server: the chat field asks for a token (a password field); a wrong one is told
// "not admitted"; the right one joins, the page learns the name the token gives and marks its own
// message. For the Basic server the same with user:password. Prints one line per check and exits
// 0 when all pass, 1 otherwise (2 for a usage error).
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
if (args.length !== 6) {
  console.error('usage: node browser-auth-test.mjs TOKEN-URL NAME TOKEN BASIC-URL USER PASSWORD');
  process.exit(2);
}
const [tokenUrl, name, token, basicUrl, user, password] = args;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
setTimeout(() => { console.error('FAIL browser auth test did not finish in 90 s'); process.exit(1); }, 90_000).unref();

let failures = 0;
function check(ok, what) {
  console.log((ok ? 'ok   ' : 'FAIL ') + what);
  if (!ok) failures++;
}

const profile = mkdtempSync(join(tmpdir(), 'wsjava-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run',
    '--disable-component-update', '--disable-sync'],
});
context.setDefaultTimeout(20_000);
const runs = [
  () => joinWith(tokenUrl, 'token', 'wrong-' + token, token, name),
  () => joinWith(basicUrl, 'basic', user + ':wrong', user + ':' + password, user),
];
for (const run of runs) {
  await run().catch(e => check(false, 'unexpected failure: ' + (e.stack || e)));
}
await context.close();
rmSync(profile, { recursive: true, force: true });
console.log(failures === 0 ? 'all checks passed' : failures + ' check(s) failed');
process.exit(failures === 0 ? 0 : 1);

async function joinWith(url, kind, wrong, right, expectedName) {
  const page = await context.newPage();
  page.on('pageerror', e => check(false, `${kind}: script error on the page: ${e.message}`));
  await page.goto(url);
  check(await page.getAttribute('#chat-nick', 'type') === 'password',
    `${kind}: the chat field hides what is typed (a secret, not a nickname)`);
  const placeholder = await page.getAttribute('#chat-nick', 'placeholder');
  check(placeholder === (kind === 'token' ? 'token' : 'user:password'),
    `${kind}: the chat field asks for ${placeholder}`);

  await page.fill('#chat-nick', wrong);
  await page.press('#chat-nick', 'Enter');
  await page.waitForFunction(() => document.getElementById('chat-state').classList.contains('bad'));
  const refused = await page.textContent('#chat-state');
  check(refused.startsWith('not admitted'), `${kind}: a wrong secret is told "${refused}"`);

  await page.fill('#chat-nick', right);
  await page.press('#chat-nick', 'Enter');
  await page.waitForFunction(n => document.getElementById('chat-state').textContent === 'open as ' + n, expectedName);
  check(true, `${kind}: the right secret joins, named ${expectedName} by the server`);
  await page.fill('#chat-text', 'hello as ' + kind);
  await page.press('#chat-text', 'Enter');
  await page.waitForFunction(t => [...document.querySelectorAll('#chat-log .mine')]
    .some(d => d.textContent.includes(t)), 'hello as ' + kind);
  check(true, `${kind}: the page shows its own message as its own`);
  check(!(await page.evaluate(() => localStorage.getItem('wsjava-nick') || '')).includes(right.slice(-4)),
    `${kind}: the secret is not kept in the browser's storage`);
  await page.close();
}
