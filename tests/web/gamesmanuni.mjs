// GamesmanUni against `sicher serve`: the end-to-end check of the Universal Web API.
// GamesmanUni is built from its own repository with only its API address changed
// (scripts/gamesmanuni.sh does that, outside this repository: it is AGPL and none of it
// is kept here). This drives that build in headless Chromium: the games page lists
// sicher's games, and whole games of Nim and Kayles in both conventions are played on
// GamesmanUni's text board by clicking the first move listed, reading the position and
// the value GamesmanUni shows, until the game ends. No error about the API may be logged
// and no alert shown.
//
//   node tests/web/gamesmanuni.mjs http://127.0.0.1:PORT/uni/

import { chromium } from "playwright-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const base = process.argv[2];
const profile = mkdtempSync(join(tmpdir(), "sicher-gamesmanuni-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1300, height: 1000 },
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = context.pages()[0];
const problems = [];
// GamesmanUni also asks GitHub and Google Fonts, which a machine without the internet
// cannot reach: only what concerns the game API counts.
page.on("console", (m) => {
  if (m.type() === "error" && /uwapi|Failed to load data|Returned error/.test(m.text())) problems.push(m.text());
});
page.on("dialog", (d) => { problems.push(`alert: ${d.message()}`); d.dismiss(); });

async function playThrough(game, variant) {
  await page.goto(`${base}games/${game}/variants/${variant}`);
  await page.waitForSelector("#listed-moves .move", { timeout: 20000 });
  let plies = 0;
  for (;;) {
    const position = (await page.textContent("pre")).trim();
    const moves = await page.$$eval("#listed-moves .move", (ds) => ds.length);
    if (!moves) break;
    await page.click("#listed-moves .move >> nth=0");
    plies += 1;
    await page.waitForFunction((p) => document.querySelector("pre")?.textContent.trim() !== p, position, { timeout: 15000 });
    if (plies > 100) throw new Error("the game does not end");
  }
  const said = (await page.textContent("body")).match(/Player [12] has\s*(won|lost)/)?.[0];
  if (!said) throw new Error(`${game} ${variant}: GamesmanUni does not say who won`);
  console.log(`ok - ${game} ${variant}: ${plies} moves on GamesmanUni's board, "${said.replace(/\s+/g, " ")}"`);
}

try {
  await page.goto(`${base}games`);
  await page.waitForSelector('a[href$="/games/kayles/variants"]', { timeout: 20000 });
  const listed = await page.$$eval('a[href*="/games/"]', (as) => as.filter((a) => /sicher/.test(a.textContent)).length);
  if (listed < 10) throw new Error(`only ${listed} of sicher's games listed`);
  console.log(`ok - GamesmanUni lists ${listed} of sicher's games`);
  for (const game of ["nim", "kayles"]) {
    for (const variant of ["normal", "misere"]) await playThrough(game, variant);
  }
  if (problems.length) throw new Error(problems.join("\n"));
  console.log("ok - no API error logged, no alert");
} catch (e) {
  console.error(`FAILED: ${e.message}`);
  await page.screenshot({ path: "gamesmanuni-failure.png" }).catch(() => {});
  process.exitCode = 1;
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
