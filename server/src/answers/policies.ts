import type { AuthContext } from '../auth/context.js';
import { forbidden } from '../errors.js';

/** Per-record rules on answers (docs/architecture.md « Where things go »). */

/** docs/product.md#design-3: a PDF answer references a file the same user uploaded. */
export function assertMayAnswerWithFile(auth: AuthContext, file: { ownerId: string | null }): void {
  if (file.ownerId !== auth.userId) throw forbidden('Ce fichier ne vous appartient pas.');
}
