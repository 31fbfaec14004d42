/**
 * Debian's Chromium through playwright-core, with the flags of this machine's kind (no sandbox as
 * root, no GPU, no background traffic: there is no internet). Free of vitest, so the benchmarks
 * (bench/lib/app-browser.ts) launch it the same way the browser tests do (tests/helpers/browser.ts).
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_BASE_ARGS } from '../../cli/review/draw.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = CHROMIUM_BASE_ARGS;

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium fonts-noto-cjk (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
