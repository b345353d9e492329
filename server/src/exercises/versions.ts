import { createHash } from 'node:crypto';

/**
 * docs/product.md#design-3 "Statement versions": each pupil gets one version per exercise, chosen by a stable
 * hash of (user, exercise), so neighbours see different numbers. The choice depends only on the
 * number of versions: editing their content keeps every pupil on the same version.
 */
export function pickVersionIndex(userId: string, exerciseId: string, count: number): number {
  if (!Number.isInteger(count) || count <= 0) return 0;
  const digest = createHash('sha256').update(`${userId}\u0000${exerciseId}`).digest();
  return digest.readUInt32BE(0) % count;
}
