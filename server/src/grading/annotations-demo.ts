import type { Annotation } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';
import { commentBank } from '../db/schema.js';

const REMARKS = ['Récurrence mal initialisée.', 'Justifiez ce passage.', 'Cas particulier oublié.'];

/** One corrector's marks on a copy: a tick, a box around a passage, a note, a stroke and a bank remark. */
function marksOf(bankId: string, seed: number): Annotation[] {
  const dy = (seed % 3) * 0.05;
  return [
    { id: `demo-tick-${seed}`, page: 0, kind: 'tick', x: 0.82, y: 0.18 + dy },
    { id: `demo-box-${seed}`, page: 0, kind: 'box', x: 0.1, y: 0.3 + dy, w: 0.6, h: 0.12 },
    { id: `demo-note-${seed}`, page: 0, kind: 'note', x: 0.72, y: 0.36 + dy, text: 'Pourquoi cette inégalité ?' },
    {
      id: `demo-ink-${seed}`,
      page: 0,
      kind: 'ink',
      color: 'red',
      points: [
        [0.12, 0.5 + dy],
        [0.3, 0.52 + dy],
        [0.5, 0.51 + dy],
        [0.66, 0.53 + dy],
      ],
    },
    { id: `demo-bank-${seed}`, page: 0, kind: 'bank', x: 0.55, y: 0.62 + dy, bankId, text: REMARKS[0]! },
  ];
}

/**
 * Decisions 159–160: each demo paper exercise has a comment bank, and every grading of its copies carries marks and
 * the remark it applied, so the desk, the arbiter's two layers and the statistics' counts show them.
 */
export async function seedAnnotationsDemo(db: Db, exerciseIds: readonly string[]): Promise<void> {
  for (const exerciseId of exerciseIds) {
    const bank = await db
      .insert(commentBank)
      .values(REMARKS.map((text, position) => ({ exerciseId, position, text })))
      .returning({ id: commentBank.id });
    const found = await rows(
      db,
      z.object({ id: z.string() }),
      sql`SELECT id FROM gradings WHERE exercise_id = ${exerciseId}::uuid ORDER BY id`,
    );
    for (const [seed, g] of found.entries()) {
      await db.execute(sql`UPDATE gradings SET annotations = ${JSON.stringify(marksOf(bank[0]!.id, seed))}::jsonb,
        bank_comments = ARRAY[${bank[0]!.id}]::uuid[] WHERE id = ${g.id}::uuid`);
    }
  }
}
