// An engineer's first minutes with their own config, at 1280 × 800 and on a 390 × 844 phone,
// light and dark: a whole nginx.conf opens on the upstream that hashes, an import is one
// step Undo takes back, a followed key rides in the link, two clients' split is drawn on the
// ring, and an Envoy ring says where its extra moves went.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, open, settle, engine, SHOTS, axeViolations } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const SIZES = [[1280, 800], [390, 844]];
const names = (page) => page.$$eval("#legend tbody tr td.name", (tds) => tds.map((td) => td.textContent));

// As nginx.conf files are: an upstream of another method first, the hashed one after it.
const NGINX_CONF = `user nginx;
events { worker_connections 1024; }
http {
    upstream app {
        least_conn;
        server 10.0.2.1:80;
        server 10.0.2.2:80;
    }
    upstream cache {
        hash $request_uri consistent;
        server 10.0.0.1:80;
        server 10.0.0.2:80 weight=2;
        server 10.0.0.3:80;
    }
    server {
        listen 80;
        location / { proxy_pass http://app; }
        location /static/ { proxy_pass http://cache; }
    }
}
`;

for (const [width, height] of SIZES) {
  for (const colorScheme of ["light", "dark"]) {
    const name = `${width} × ${height}, ${colorScheme}`;

    test(`a whole nginx.conf opens on the upstream that hashes; Undo takes the import back (${name})`, async () => {
      const { page, problems, context } = await open(chrome.browser, { viewport: { width, height }, colorScheme });
      const defaultLink = await page.evaluate(() => location.hash);
      const defaultNames = await names(page);
      await page.click("#import summary");
      await page.selectOption("#import-kind", "nginx");
      await page.fill("#import-text", NGINX_CONF);
      await page.locator("#import-pick").waitFor({ state: "visible" });
      assert.equal(await page.inputValue("#import-section"), "cache", "the picker opens on the upstream that hashes");
      assert.equal(await page.textContent("#import-report .error").catch(() => ""), "", "no refusal shown for the text");
      await page.click("#import-load");
      await settle(page);
      assert.equal(await page.textContent("#import-error"), "");
      assert.deepEqual(await names(page), ["10.0.0.1:80", "10.0.0.2:80", "10.0.0.3:80"]);
      const imported = await page.evaluate(() => location.hash);
      const direct = await engine(page, (mod, text) => {
        const s = mod.Session.fromConfig("nginx", text, { section: "cache" });
        try {
          return s.link();
        } finally {
          s.free();
        }
      }, NGINX_CONF);
      assert.equal(imported, direct, "the same ring as the engine reads from the upstream that hashes");
      assert.match(await page.textContent("#last-change"), /^Imported 3 servers from your nginx upstream block \(“cache”, one of 2 in your text\)\./);
      assert.match(await page.getAttribute("#undo", "title"), /^Undo: Imported 3 servers/);
      assert.deepEqual(await axeViolations(page, "#import"), []);
      await page.locator("#import").screenshot({ path: join(SHOTS, `journey-import-${width}-${colorScheme}.png`) });
      // Undo: the ring before the import, link and all; Redo: the import again.
      await page.click("#undo");
      await settle(page);
      assert.equal(await page.evaluate(() => location.hash), defaultLink);
      assert.deepEqual(await names(page), defaultNames);
      await page.click("#redo");
      await settle(page);
      assert.equal(await page.evaluate(() => location.hash), imported);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

for (const [width, height] of SIZES) {
  test(`a followed key rides in the link and walks again where it is opened (${width} × ${height})`, async () => {
    const { page, problems, context } = await open(chrome.browser, { viewport: { width, height } });
    await page.fill("#follow-key", "user:42 ü&f");
    await page.press("#follow-key", "Enter");
    await settle(page);
    const walk = await page.textContent("#follow-out");
    assert.ok(walk.length > 0);
    const link = await page.evaluate(() => location.hash);
    const reopened = await engine(page, (mod, link) => {
      const s = mod.Session.fromLink(link);
      try {
        return { key: s.linkedKey(), follow: s.frame({ follow: s.linkedKey() }).follow?.text };
      } finally {
        s.free();
      }
    }, link);
    assert.deepEqual(reopened, { key: "user:42 ü&f", follow: walk }, link);
    // Opened in a new page: the key is in the box, its walk in words and on the ring.
    const again = await open(chrome.browser, { viewport: { width, height } }, link);
    await settle(again.page);
    assert.equal(await again.page.inputValue("#follow-key"), "user:42 ü&f");
    assert.equal(await again.page.textContent("#follow-out"), walk);
    assert.ok(await again.page.evaluate(() => window.__ringlab.view.walk !== null), "the walk is drawn");
    assert.equal(await again.page.evaluate(() => location.hash), link, "the link stays the one opened");
    // Clearing the key takes it out of the link.
    await again.page.fill("#follow-key", "");
    await again.page.press("#follow-key", "Enter");
    await settle(again.page);
    assert.ok(!(await again.page.evaluate(() => location.hash)).includes("&f="));
    assert.deepEqual([...problems, ...again.problems], []);
    await again.context.close();
    await context.close();
  });
}

for (const [width, height] of SIZES) {
  for (const colorScheme of ["light", "dark"]) {
    test(`two clients' split is drawn on the ring, as the engine places it (${width} × ${height}, ${colorScheme})`, async () => {
      const { page, problems, context } = await open(chrome.browser, { viewport: { width, height }, colorScheme });
      await page.selectOption("#algorithm", "libketama");
      await settle(page);
      await page.click("#agreement summary");
      await page.locator("#agree-with option").first().waitFor({ state: "attached" });
      const link = await page.evaluate(() => location.hash);
      // A client whose continuum lies on this ring's circle and splits some of it from libketama's.
      const a = await engine(page, (mod, link) => {
        const s = mod.Session.fromLink(link);
        try {
          for (const other of s.agreementMatrix().algorithms) {
            const a = s.agreement(other, null, "libketama");
            if (a.onRing && a.apart.length) return { with: other, apart: a.apart, onRing: a.onRing, ringText: a.ringText, disagree: a.disagree };
          }
          return null;
        } finally {
          s.free();
        }
      }, link);
      assert.ok(a, "some client splits arcs of libketama's circle");
      await page.selectOption("#agree-from", "libketama");
      await page.selectOption("#agree-with", a.with);
      await settle(page);
      assert.ok(a.onRing && a.apart.length > 0 && a.disagree > 0, JSON.stringify({ ...a, apart: a.apart.length }));
      const drawn = await page.evaluate(() => window.__ringlab.view.apart);
      assert.deepEqual(drawn, a.apart, "the view draws the engine's arcs");
      assert.equal(await page.textContent("#agree-ring"), a.ringText);
      // A client that places no keys on a circle: nothing drawn, and the words say why.
      await page.selectOption("#agree-with", "pymemcache");
      await settle(page);
      await page.waitForFunction(() => window.__ringlab.view.apart === null, null, { timeout: 5000 });
      assert.match(await page.textContent("#agree-ring"), /not drawn/);
      // Closing the drawer takes the arcs off the ring.
      await page.selectOption("#agree-with", a.with);
      await settle(page);
      await page.locator("#ring").screenshot({ path: join(SHOTS, `journey-apart-${width}-${colorScheme}.png`) });
      await page.click("#agreement summary");
      // (The drawer's toggle event comes in a task after the click.)
      await page.waitForFunction(() => window.__ringlab.view.apart === null, null, { timeout: 5000 });
      assert.deepEqual(await axeViolations(page, "#agreement"), []);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

test("an Envoy ring says how much moved between hosts that stayed", async () => {
  const { page, problems, context } = await open(chrome.browser, { viewport: { width: 1280, height: 800 } });
  await page.click("#import summary");
  await page.selectOption("#import-kind", "envoy");
  await page.click("#import-example");
  await page.click("#import-load");
  await settle(page);
  await page.click("#add-node");
  await settle(page);
  await page.click("#last-change .why summary");
  const detail = await page.textContent("#last-change .why");
  const m = detail.match(/The least any placement could have moved: ([\d.]+)% \(ideal\)\. The other ([\d.]+)% moved between servers that stayed/);
  assert.ok(m, detail);
  const exactly = (await page.textContent("#last-change .line")).match(/exactly ([\d.]+)% of the key space/);
  assert.ok(Math.abs(Number(m[1]) + Number(m[2]) - Number(exactly[1])) <= 0.011, `${m[0]} / ${exactly[0]}`);
  assert.deepEqual(problems, []);
  await context.close();
});
