import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

/** The jury's routes: selections, their board, decisions and versions (decision 155). */
export const selectionRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (_app, { deps: _deps }) => {};
