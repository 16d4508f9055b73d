import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

let axeSource: string | undefined;

/**
 * Loads axe-core into the page. Evaluated through the DevTools protocol rather than added as a
 * <script> element: the app's Content-Security-Policy (script-src 'self') rightly refuses inline
 * scripts, and the tests must run under the real policy.
 */
export async function injectAxe(page: Page): Promise<void> {
  axeSource ??= readFileSync('node_modules/axe-core/axe.min.js', 'utf8');
  await page.evaluate(axeSource);
}
