import type { FastifyReply, FastifyRequest } from 'fastify';

/** A check run before a route's handler: it answers (and so stops the request) or lets it through. */
export type Guard = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;
