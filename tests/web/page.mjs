// The page of `sicher serve` in a real headless Chromium: Debian's /usr/bin/chromium,
// driven by playwright-core (its own browsers are not downloaded). It loads the page,
// picks a game, makes moves by clicking tokens and the move list, sees the values,
// remoteness, chart and why panel change, undoes and redoes, follows a shared link, and
// checks that the page logged no error. On failure a screenshot is saved under
// target/web-shots/; with SHOTS=DIR, screenshots of the page for the docs go there.
//
//   node tests/web/page.mjs [path/to/sicher]      (default: target/release/sicher)

import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { chromium } from "playwright-core";

const root = resolve(new URL("../..", import.meta.url).pathname);
const binary = process.argv[2] || process.env.SICHER_BIN || join(root, "target/release/sicher");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
const failures = join(root, "target/web-shots");
const shots = process.env.SHOTS;

function check(condition, what) {
  if (!condition) throw new Error(`not so: ${what}`);
  console.log(`ok - ${what}`);
}

async function startServer() {
  const server = spawn(binary, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise((done, fail) => {
    const lines = createInterface({ input: server.stdout });
    lines.once("line", done);
    server.once("exit", (code) => fail(new Error(`sicher serve exited with ${code}`)));
  });
  const url = line.split(/\s+/).find((w) => w.startsWith("http://"));
  if (!url || !url.startsWith("http://127.0.0.1:")) throw new Error(`no loopback address in: ${line}`);
  return { server, url };
}

const count = (page, selector) => page.locator(selector).count();

async function waitForPly(page, plies) {
  // The chart draws one mark per position once its value is known.
  await page.waitForFunction(
    (n) => document.querySelectorAll("#chart [data-ply]").length === n,
    plies, { timeout: 15000 });
}

async function main() {
  const { server, url } = await startServer();
  const profile = mkdtempSync(join(tmpdir(), "sicher-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browserPath,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const errors = [];
  const page = context.pages()[0] || await context.newPage();
  const watch = (p) => {
    p.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
    p.on("pageerror", (e) => errors.push(`page: ${e.message}`));
    // A picture whose game was changed before it arrived is aborted, not failed.
    p.on("requestfailed", (r) => {
      if (r.failure()?.errorText !== "net::ERR_ABORTED") errors.push(`request failed: ${r.url()}`);
    });
    // Nothing but the server on 127.0.0.1 is ever asked for.
    p.on("request", (r) => {
      if (!r.url().startsWith(url) && !r.url().startsWith("data:")) errors.push(`request elsewhere: ${r.url()}`);
    });
  };
  watch(page);
  try {
    await page.goto(url);
    await page.waitForSelector("#game option[value=kayles]", { state: "attached" });
    check(await page.title() !== "", "the page loads");

    // Kayles from 3, 4, 5, two people.
    await page.selectOption("#game", "kayles");
    await page.fill("#start", "3,4,5");
    await page.selectOption("#play", "normal");
    await page.click("#new-game");
    await waitForPly(page, 1);
    await page.waitForSelector("#moves button.move");
    const status0 = await page.textContent("#status");
    check(/Player 1 to move: a win in \d+ moves/.test(status0), `status says who wins and in how many: ${status0}`);
    const first = await page.textContent("#moves li:first-child .value");
    check(/✔ win in \d+/.test(first), `best move first, with its value in words: ${first}`);
    check(/Nim-values/.test(await page.textContent("#why")), "the why panel gives nim-values and their XOR");
    check(await count(page, ".row") === 3, "three heaps drawn as rows");
    check(await count(page, ".token") === 12, "twelve tokens");
    if (shots) await page.screenshot({ path: join(shots, "web-kayles.png") });

    // A click on the second token of the heap of 4, taking one: 1 and 2 are left.
    await page.check("#take-bar input[value='1']");
    await page.click(".token[data-row='1'][data-token='1']");
    await waitForPly(page, 2);
    const rows1 = await page.$$eval(".row .heap-label", (ls) => ls.map((l) => l.textContent));
    check(JSON.stringify(rows1) === JSON.stringify(["heap 1: 3", "heap 2: 1", "heap 3: 2", "heap 4: 5"]),
      `the heap splits where it was clicked: ${rows1}`);
    const status1 = await page.textContent("#status");
    check(status1.startsWith("Player 2 to move") && status1 !== status0, `the status moves on: ${status1}`);
    check(page.url().includes("h=3.4.5_3.1.2.5"), `the URL holds the game: ${page.url()}`);

    // The best move from the list.
    await page.click("#moves li:first-child button");
    await waitForPly(page, 3);
    check((await page.textContent("#status")).startsWith("Player 1 to move"), "a move from the list");

    // Hints colour the tokens.
    await page.check("#hint");
    check(await count(page, ".token.hint-win, .token.hint-lose") > 0, "hints colour the tokens");

    // Undo and redo.
    await page.click("#undo");
    await waitForPly(page, 2);
    check((await page.textContent("#status")) === status1, "undo goes back one move");
    await page.click("#redo");
    await waitForPly(page, 3);
    check(await page.isEnabled("#undo") && !(await page.isEnabled("#redo")), "redo goes forward again");

    // The history as text.
    await page.click("#export");
    const exported = await page.textContent("#export-text");
    check(/1\. player 1: 4 → 1 \+ 2/.test(exported) && /2\. player 2/.test(exported), `the history exports as text:\n${exported}`);

    // The pictures are drawn.
    await page.waitForFunction(() => ["map-img", "plot-img"].every((id) => {
      const img = document.getElementById(id);
      return img.complete && img.naturalWidth > 0;
    }), null, { timeout: 20000 });
    check(true, "the P-position map and the nim-sequence plot are shown");

    // The shared link, in a fresh page: the same game at the same move.
    const shared = page.url();
    const other = await context.newPage();
    watch(other);
    await other.goto(shared);
    await waitForPly(other, 3);
    const sameRows = await other.$$eval(".row .heap-label", (ls) => ls.map((l) => l.textContent));
    const rows3 = await page.$$eval(".row .heap-label", (ls) => ls.map((l) => l.textContent));
    check(JSON.stringify(sameRows) === JSON.stringify(rows3), "a shared link shows the same position");
    check((await other.textContent("#status")) === (await page.textContent("#status")), "and the same status");
    await other.close();

    // Misère play: the panel speaks of the misère quotient or its rule.
    await page.selectOption("#play", "misere");
    await page.selectOption("#game", "dawson-kayles");
    await page.fill("#start", "3,4,5");
    await page.click("#new-game");
    await waitForPly(page, 1);
    await page.waitForFunction(() => /quotient/i.test(document.getElementById("why").textContent), null, { timeout: 15000 });
    check(true, "misère play is explained by the misère quotient");

    // Against the computer: it answers a move by itself.
    await page.selectOption("#game", "nim");
    await page.fill("#start", "2,3");
    await page.selectOption("#play", "normal");
    await page.selectOption("#opponent", "computer");
    await page.click("#new-game");
    await waitForPly(page, 1);
    await page.click("#moves li:first-child button");
    await waitForPly(page, 3);
    check((await page.textContent("#status")).startsWith("Player 1"), "the computer replied");
    if (shots) await page.screenshot({ path: join(shots, "web-nim-computer.png") });

    // A typed spec.
    await page.selectOption("#opponent", "people");
    await page.selectOption("#game", "__spec");
    await page.fill("#spec", "octal:0.137");
    await page.fill("#start", "6,9");
    await page.click("#new-game");
    await waitForPly(page, 1);
    check(page.url().includes("game=octal%3A0.137"), "a typed spec is played and kept in the URL");

    // A partizan game (issue 33): the class, each side's own moves and winning moves,
    // and play against the computer as Left, Right the computer.
    await page.selectOption("#game", "partizan-subtraction:1,3/2,3");
    check(await page.isVisible("#first"), "a partizan game offers who moves first");
    await page.fill("#start", "9");
    await page.selectOption("#opponent", "computer");
    await page.selectOption("#side", "2");
    await page.selectOption("#first", "left");
    await page.click("#new-game");
    await page.waitForSelector("#pz-moves button");
    check(await page.isHidden("main"), "the impartial board steps aside");
    const pzStatus = await page.textContent("#pz-status");
    check(/Left to move \(you\): wins in 3 with best play/.test(pzStatus), `the side to move and its verdict: ${pzStatus}`);
    check(/Outcome class L: Left wins whoever starts/.test(await page.textContent("#pz-class")), "the outcome class in words");
    check((await page.textContent("#pz-moves-title")) === "Left's moves", "the moves are Left's own");
    const pzMoves = await page.$$eval("#pz-moves li", (ls) => ls.map((l) => l.textContent));
    check(JSON.stringify(pzMoves) === JSON.stringify(["to 6 ✔ win", "to 8 ✔ win"]), `Left takes 1 or 3, each valued: ${pzMoves}`);
    check(/Left: to 6, to 8/.test(await page.textContent("#pz-left-winning")), "Left's winning moves");
    check(/Right: none/.test(await page.textContent("#pz-right-winning")), "Right has no winning move at 9");
    if (shots) await page.screenshot({ path: join(shots, "web-partizan.png") });
    await page.click("#pz-moves li:first-child button");
    // The computer (Right) answers by itself: Left is to move again.
    await page.waitForFunction(() => /^Left to move \(you\)/.test(document.getElementById("pz-status").textContent)
      && /h=9_6_\d/.test(location.search), null, { timeout: 15000 });
    check(page.url().includes("first=left"), `the URL keeps who moved first: ${page.url()}`);
    const pzAfter = await page.$$eval("#pz-heaps .heap", (hs) => hs.map((h) => h.textContent));
    check(pzAfter.length === 1 && ["3", "4"].includes(pzAfter[0]), `Right took 2 or 3 of 6: ${pzAfter}`);
    await page.click("#pz-undo");
    await page.waitForFunction(() => /h=9($|&)/.test(location.search) || /h=9$/.test(location.search), null, { timeout: 15000 });
    check(true, "undo goes back to your own turn");
    // A typed partizan spec, Right starting, two people.
    await page.selectOption("#opponent", "people");
    await page.selectOption("#game", "__spec");
    await page.fill("#spec", "partizan-octal:0.7/0.07");
    await page.fill("#start", "4,5");
    await page.selectOption("#first", "right");
    await page.click("#new-game");
    await page.waitForFunction(() => /^Right to move/.test(document.getElementById("pz-status").textContent), null, { timeout: 15000 });
    check((await page.textContent("#pz-moves-title")) === "Right's moves", "a typed partizan spec, Right first");

    check(errors.length === 0, `no error logged${errors.length ? ":\n" + errors.join("\n") : ""}`);
  } catch (e) {
    mkdirSync(failures, { recursive: true });
    const shot = join(failures, `failure-${Date.now()}.png`);
    await page.screenshot({ path: shot, fullPage: true }).catch(() => {});
    console.error(`FAILED: ${e.message}\nerrors logged: ${errors.join("\n") || "none"}\nscreenshot: ${shot}`);
    process.exitCode = 1;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    server.kill("SIGINT");
  }
}

main();
