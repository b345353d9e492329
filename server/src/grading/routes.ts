import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

export const gradingRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (_app, { deps: _deps }) => {};
