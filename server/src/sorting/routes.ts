import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

export const sortingRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (_app, { deps: _deps }) => {};
