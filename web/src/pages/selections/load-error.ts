import { refusalOf } from '../../api/client';

/** What the server said when it refused (« Vous ne faites pas partie du jury… »), or that it did not answer. */
export const loadErrorText = (error: unknown) =>
  refusalOf(error)?.message ?? 'Le serveur ne répond pas : rechargez la page dans un instant.';
