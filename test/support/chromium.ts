import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, which `.ci/run` installs when it is missing. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags for a headless Chromium on a machine without outside network. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ChromiumSession {
  context: BrowserContext;
  page: Page;
  /** Console messages of every page, as `<type>: <text>`. */
  console: string[];
  close(): Promise<void>;
}

export interface ChromiumOptions {
  /** A Y4M video that the browser's camera shows (see `writeFakeCameraVideo`), granted at once. */
  fakeCamera?: string;
  /** The window's size; 1280×800 unless said. */
  viewport?: { width: number; height: number };
}

/** A headless Chromium with a fresh profile (removed again by `close`). */
export async function launchChromium(options: ChromiumOptions = {}): Promise<ChromiumSession> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'trove-chromium-'));
  const camera = options.fakeCamera
    ? [
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${options.fakeCamera}`,
      ]
    : [];
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, ...camera],
      viewport: options.viewport ?? { width: 1280, height: 800 },
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  const messages: string[] = [];
  const watch = (page: Page): void => {
    page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    console: messages,
    close: async () => {
      try {
        await context.close();
      } finally {
        await rm(profile, { recursive: true, force: true });
      }
    },
  };
}

/** The console messages that report a Content-Security-Policy violation. */
export const cspViolations = (messages: readonly string[]): string[] =>
  messages.filter((message) => /Content Security Policy|Content-Security-Policy/i.test(message));

/** What axe-core finds on the page as it is now, of serious or critical impact. */
export async function seriousAccessibilityProblems(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}: ` +
        violation.nodes.map((node) => node.target.join(' ')).join(', '),
    );
}
