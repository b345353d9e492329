import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

/** After the decision: publication, a pupil's qualification and letter, schools' lists, exports (decision 157). */
export const selectionAfterRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (_app, { deps: _deps }) => {};
