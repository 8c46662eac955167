import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { collectPageErrors, LAPTOP, PHONE } from './support/browser.ts';
import { useE2eEnvironment } from './support/environment.ts';
import { expectAccessible, hasSidewaysScroll, saveScreenshot } from './support/fixtures.ts';
import { signUpJourneyMemberInPage } from './support/dating.ts';
import type { E2eServer } from './support/server.ts';

/**
 * Curated matches in Chromium (decision 140): two members sign up, each saves preferences on
 * /dating/app (one on a phone, one on a laptop), each sees the other suggested with photos and
 * answers, both say "Yes" and both see the match; a report with a reason hides them from each
 * other. Axe and no sideways scroll at 375 px.
 */
let server: E2eServer;
let browser: Browser;

useE2eEnvironment('dating-matches', (environment) => ({ server, browser } = environment));

async function newMember(viewport: { width: number; height: number }, person: { name: string; dob: string }): Promise<Page> {
  const context = await browser.newContext({ viewport, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/dating`);
  await signUpJourneyMemberInPage(page, person);
  await page.goto(`${server.baseUrl}/dating/app`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return page;
}

/** Fills and saves the preferences form: ages 25-40, Indiranagar, Friday late, the default intent. */
async function savePreferences(page: Page) {
  const form = page.getByRole('region', { name: "What you're looking for" });
  await form.getByLabel("Youngest age you'd like to meet").fill('25');
  await form.getByLabel('Oldest').fill('40');
  await form.getByRole('button', { name: 'Indiranagar' }).click();
  await form.getByRole('button', { name: 'Fri 8–10:30 pm' }).click();
  await form.getByRole('radio', { name: 'Something long-term' }).check();
  await form.getByRole('button', { name: 'Save preferences' }).click();
  await page.getByText('Preferences saved').first().waitFor();
}

describe('curated matches', () => {
  it('two members save preferences, see each other suggested, both say yes and see the match', async () => {
    const asha = await newMember(PHONE, { name: 'Asha Rao', dob: '1994-05-01' });
    const ravi = await newMember(LAPTOP, { name: 'Ravi Kumar', dob: '1992-02-02' });
    const ashaErrors = collectPageErrors(asha);
    const raviErrors = collectPageErrors(ravi);

    // Before any preferences: the empty state says what is missing.
    await asha.getByText("Tell us your neighbourhoods and the evenings you're free").waitFor();
    await savePreferences(asha);
    // Asha alone: nobody fits yet.
    await asha.getByText('No one new today.').waitFor();
    await savePreferences(ravi);

    const ashaCard = ravi
      .getByRole('list', { name: 'Suggested members' })
      .getByRole('listitem')
      .filter({ has: ravi.getByRole('heading', { name: 'Asha, 32' }) });
    await ashaCard.waitFor();
    // The photos load lazily: the preferences form (now with who you are and who you want to meet)
    // pushes the suggestions below the fold, so Ravi scrolls to Asha's card as a member would.
    await ashaCard.scrollIntoViewIfNeeded();
    await expect
      .poll(() => ashaCard.getByRole('img').evaluateAll((images) => (images as HTMLImageElement[]).filter((image) => image.naturalWidth > 0).length))
      .toBe(3);
    await ashaCard.getByText('Someone who reads the menu like a novel').waitFor();
    await ashaCard.getByRole('button', { name: 'Yes' }).click();
    await ashaCard.getByText('You said yes.').waitFor();

    await asha.reload();
    const raviCard = asha
      .getByRole('list', { name: 'Suggested members' })
      .getByRole('listitem')
      .filter({ has: asha.getByRole('heading', { name: 'Ravi, 34' }) });
    await raviCard.waitFor();
    expect(await hasSidewaysScroll(asha)).toBe(false);
    await expectAccessible(asha, '/dating/app with a suggestion at 375');
    await saveScreenshot(asha, 'dating-suggestion-375');
    await raviCard.getByRole('button', { name: 'Yes' }).click();
    await asha.getByText("It's a match: you and Ravi both said yes").first().waitFor();
    await raviCard.getByText("It's a match: you both said yes.").waitFor();

    await ravi.reload();
    await ravi.getByText("It's a match: you both said yes.").waitFor();
    await expectAccessible(ravi, '/dating/app with a match at 1280');
    await saveScreenshot(ravi, 'dating-match-1280', { dismissToasts: true });

    // Report (with a reason) from the card: the two never see each other again.
    const card = ravi.getByRole('list', { name: 'Suggested members' }).getByRole('listitem').first();
    await card.getByRole('button', { name: 'Report' }).click();
    await card.getByLabel('Why are you reporting Asha?').selectOption('FAKE_PROFILE');
    await card.getByRole('button', { name: 'Send report' }).click();
    await ravi.getByText('Asha is reported to our moderators').first().waitFor();
    await ravi.getByText('No one new today.').waitFor();
    await asha.reload();
    await asha.getByText('No one new today.').waitFor();
    expect(ashaErrors).toEqual([]);
    expect(raviErrors).toEqual([]);
  });
});
