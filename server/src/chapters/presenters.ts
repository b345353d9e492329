import type { AccessGroup, ChapterSummary } from '@olympe/contract';
import type { accessGroups, chapters } from '../db/schema.js';
import { isChapterPublished } from './publication.js';

/** Chapters as the contract shapes them (docs/architecture.md « Response shaping »). */

type ChapterRow = typeof chapters.$inferSelect;
type AccessRow = typeof accessGroups.$inferSelect;

/** A chapter in the list of GET /chapter. */
export const presentSummary = (c: ChapterRow): ChapterSummary => ({
  _id: c.id,
  title: c.title,
  analysis: isChapterPublished(c),
  offline: c.offline,
});

/** An access group, as admins and members read it in GET /chapter/{id}. */
export function presentAccessGroup(g: AccessRow): AccessGroup {
  return {
    name: g.name,
    authorizedGenders: g.authorizedGenders as AccessGroup['authorizedGenders'],
    authorizedGrades: g.authorizedGrades as AccessGroup['authorizedGrades'],
    birthDateMin: g.birthDateMin,
    birthDateMax: g.birthDateMax,
    timeDuration: g.timeDuration,
    accessStart: g.accessStart?.toISOString() ?? null,
    accessEnd: g.accessEnd?.toISOString() ?? null,
    requiredSelectionId: g.requiredSelectionId,
  };
}
