import { isReservedGroupName, type GroupSummary } from '@olympe/contract';

/** A row of the /groups table: `_id` and `savedName` once saved. */
export interface GroupRow {
  key: string;
  _id?: string;
  name: string;
  savedName?: string;
}

export interface GroupSavePlan {
  deletes: GroupSummary[];
  creates: string[];
  renames: Array<{ _id: string; name: string }>;
}

/**
 * What "Enregistrer" sends, or the first problem found before any call (so a bad table changes
 * nothing): blank names, names used twice, and the reserved names teachers/members.
 */
export function planGroupSave(rows: readonly GroupRow[], deleted: readonly GroupSummary[]): GroupSavePlan | { error: string } {
  const seen = new Set<string>();
  for (const row of rows) {
    const name = row.name.trim();
    if (!name) return { error: 'Un groupe doit avoir un nom.' };
    if (name.length > 100) return { error: `Nom de groupe trop long (100 caractères au plus) : « ${name.slice(0, 30)}… ».` };
    const key = name.toLowerCase();
    if (seen.has(key)) return { error: `Deux groupes s’appellent « ${name} ».` };
    seen.add(key);
    if (isReservedGroupName(name) && row.savedName !== name) return { error: `Le nom « ${name} » est réservé à un groupe du système.` };
  }
  return {
    deletes: [...deleted],
    creates: rows.filter((r) => !r._id).map((r) => r.name.trim()),
    renames: rows
      .filter((r): r is GroupRow & { _id: string } => !!r._id && r.name.trim() !== r.savedName)
      .map((r) => ({ _id: r._id, name: r.name.trim() })),
  };
}
