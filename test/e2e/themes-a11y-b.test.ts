import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditThemes, startThemeSite, stopThemeSite, type ThemeSite } from './theme-helpers.js';

// Half the themes here, half in themes-a11y-a.test.ts: the two files run side by side.
const THEMES = ['rustic', 'modern', 'blush', 'midnight'] as const;

let site: ThemeSite;
before(async () => {
  site = await startThemeSite();
});
after(() => stopThemeSite(site));

test(`themes ${THEMES.join(', ')} pass axe (WCAG 2.2 AA) on /, /live, /gallery and /wall at 390 and 1440 px, with no request leaving the site`, async () => {
  assert.deepEqual(await auditThemes(site, THEMES), []);
  assert.deepEqual(site.external, [], 'requests to other hosts');
});
