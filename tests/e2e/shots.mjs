// Screenshots of the playground's states at a desktop and a phone size, for people to look
// at (not a test): `node tests/e2e/shots.mjs` with RINGLAB_URL set; writes to RINGLAB_SCREENSHOTS.
import { join } from "node:path";
import { launch, open, settle, SHOTS } from "./browser.mjs";

const chrome = await launch();
for (const [name, viewport, scheme] of [["desktop", { width: 1280, height: 800 }, "light"], ["phone", { width: 390, height: 844 }, "light"], ["desktop-dark", { width: 1280, height: 800 }, "dark"], ["phone-dark", { width: 390, height: 844 }, "dark"]]) {
  const { page, context } = await open(chrome.browser, { viewport, colorScheme: scheme, deviceScaleFactor: 1 });
  const shot = async (state) => {
    await settle(page);
    await page.screenshot({ path: join(SHOTS, `ui-${name}-${state}.png`) });
  };
  await shot("0-start");
  await page.click("#add-node");
  await page.waitForTimeout(450);
  await shot("1-add-mid");
  await page.locator("#legend tbody tr").nth(2).locator("button", { hasText: "Down" }).click();
  await page.waitForTimeout(1200);
  await shot("2-down");
  // Tap an arc: the point at the top of the band.
  const box = await page.locator("#ring").boundingBox();
  const g = await page.evaluate(() => window.__ringlab.view.geometry());
  await page.mouse.click(box.x + g.cx + 3, box.y + g.cy - g.r);
  await page.waitForTimeout(300);
  await shot("3-popover");
  await page.keyboard.press("Escape");
  await page.fill("#vnodes-number", "160");
  await page.press("#vnodes-number", "Enter");
  await page.waitForTimeout(1200);
  await shot("4-vnodes");
  await page.selectOption("#algorithm", "jump");
  await page.waitForTimeout(1200);
  await shot("5-jump");
  await page.evaluate(() => window.scrollTo(0, document.querySelector(".charts").offsetTop));
  await page.waitForTimeout(3000);
  await settle(page);
  await page.screenshot({ path: join(SHOTS, `ui-${name}-6-charts.png`), fullPage: false });
  await page.screenshot({ path: join(SHOTS, `ui-${name}-7-full.png`), fullPage: true });
  await context.close();
}
await chrome.close();
