import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { inject } from "vitest";
import { projectRoot } from "../../src/db/paths.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * This fork's server: vitest numbers its forks 1…N (VITEST_POOL_ID) and the global setup starts one
 * server per lane, so each fork keeps to its own.
 */
export function baseUrl(): string {
  const urls = inject("baseUrls");
  const fork = Math.max(1, Number(process.env.VITEST_POOL_ID ?? "1") || 1);
  return urls[(fork - 1) % urls.length]!;
}

/** `extraArgs`: e.g. Chromium's fake microphone for the audio consent test. */
export function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...extraArgs], headless: true });
}

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 860 } as const;

/** A fresh context (own cookies) that fails the test on any page error or console error. */
export async function newPage(
  browser: Browser,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport,
    baseURL: baseUrl(),
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  return { context, page, errors };
}

/**
 * Whether screenshots are saved: yes on a person's machine, no in CI (nobody looks at them there,
 * and ~125 full-page captures cost CPU the suite's budget needs). E2E_SCREENSHOTS=1 or 0 decides.
 */
export function screenshotsWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.E2E_SCREENSHOTS === "1") return true;
  if (env.E2E_SCREENSHOTS === "0") return false;
  return !env.CI;
}

/** Saves a screenshot (the whole page, or what the screen shows) under test-results/ for a person to look at. */
export async function snap(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
  if (!screenshotsWanted()) return;
  const dir = path.join(projectRoot, "test-results", "screenshots");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
}

/**
 * Resolves once the page has run the work already queued in it — React's render, commit and
 * effects after a state change, and what those start (each round is one message task, posted
 * behind the ones queued before it). An event-based yield: no timer, so it also works while
 * `page.clock` is paused.
 */
export async function pageTasksDone(page: Page, rounds = 4): Promise<void> {
  await page.evaluate(
    (total) =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        let round = 0;
        channel.port1.onmessage = () => {
          round += 1;
          if (round < total) channel.port2.postMessage(null);
          else {
            channel.port1.close();
            resolve();
          }
        };
        channel.port2.postMessage(null);
      }),
    rounds,
  );
}

/**
 * Holds the requests matching `url` (a slow connection) until `release()` is called; from then
 * on they go through.
 */
export async function holdRequests(page: Page, url: string | RegExp): Promise<{ release: () => void }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return { release };
}

/** How wide the page is (more than the viewport means it scrolls sideways). */
export const pageWidth = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth);

/**
 * Resolves once the animations and transitions running on the page (a dialog or sheet opening
 * or closing) have finished — before a screenshot. Endless ones (spinners, skeletons) are left out.
 */
export async function animationsFinished(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime ?? Infinity)))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}
