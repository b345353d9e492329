import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

export const sheetRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (_app, _opts) => {};
