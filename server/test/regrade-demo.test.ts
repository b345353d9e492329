import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedRegradeDemo } from '../src/regrade/demo.js';
import { getChapterStats } from '../src/stats/service.js';
import { buildTestApp, createUser, PUPIL_PROFILE, type TestApp } from './helpers.js';

/**
 * The demo's statistics flag one version only, whatever versions the pupils' random ids draw: the wrong
 * answers are counted within each version, so a version drawn by one or two pupils is never flagged by chance.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

it('flags the planted wrong corrigé and nothing else, for 40 draws of six pupils', async () => {
  const grader = await createUser(t, 'member');
  for (let draw = 0; draw < 40; draw++) {
    const pupils = await Promise.all(Array.from({ length: 6 }, () => createUser(t, 'pupil', PUPIL_PROFILE)));
    const { chapterId } = await seedRegradeDemo(t.database.db, {
      pupilId: pupils[0].id,
      pupilIds: pupils.slice(1).map((p) => p.id),
      graderId: grader.id,
    });
    const stats = await getChapterStats(t.database.db, chapterId);
    const [first, second] = stats.exercises;
    const flagged = (e: typeof first) => e.versions.filter((v) => v.flagged).map((v) => v.version);
    // Version 0 of the first exercise is flagged when a pupil drew it; nothing else ever is.
    expect(flagged(first)).toEqual(first.versions.some((v) => v.version === 0 && v.pupils > 0) ? [0] : []);
    expect(flagged(second)).toEqual([]);
  }
}, 120_000);
