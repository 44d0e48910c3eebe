import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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

/** A headless Chromium with a fresh profile (removed again by `close`). */
export async function launchChromium(): Promise<ChromiumSession> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'trove-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
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
