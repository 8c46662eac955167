import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standardErrors } from '#common/contract/common.ts';
import {
  adminDropDetail,
  adminDropList,
  createDropBody,
  dropDetail,
  dropDrawAudit,
  dropIdParams,
  dropList,
  enterDropBody,
} from '#common/contract/drops.ts';

/** Drops for diners (/api/drops) and for the restaurant's staff (/api/admin/drops). */
export const dropsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { drops } = app.services;
  const bearer = [{ bearer: [] }];
  const tags = ['drops'];

  app.addHook('onClose', async () => drops.stop());

  app.get('/api/drops', {
    schema: { tags, summary: 'Every drop citywide: open (closing soonest first), upcoming and past', response: { 200: dropList, ...standardErrors } },
  }, async (request) => drops.listDrops(await request.principal()));

  app.get('/api/drops/:id', {
    schema: {
      tags,
      summary: "One drop: its window (countdown targets and serverTime), slots, and with a diner token the diner's entry and result",
      params: dropIdParams,
      response: { 200: dropDetail, ...standardErrors },
    },
  }, async (request) => drops.getDrop(await request.principal(), request.params.id));

  app.post('/api/drops/:id/entries', {
    schema: {
      tags,
      summary: 'Enter the drop with a party size: inside the entry window, with a verified phone, once per account and per phone',
      security: bearer,
      params: dropIdParams,
      body: enterDropBody,
      response: { 201: dropDetail, ...standardErrors },
    },
    config: { rateLimitGroup: 'booking' },
  }, async (request, reply) => reply.code(201).send(await drops.enterDrop(await request.principal(), request.params.id, request.body)));

  app.delete('/api/drops/:id/entries', {
    schema: {
      tags,
      summary: "Withdraw the caller's entry: before the draw it is removed; after it, the caller leaves the line",
      security: bearer,
      params: dropIdParams,
      response: { 200: dropDetail, ...standardErrors },
    },
  }, async (request) => drops.leaveDrop(await request.principal(), request.params.id));

  app.get('/api/drops/:id/draw', {
    schema: {
      tags,
      summary: 'The draw, for audit: seed, algorithm and the drawn order of entry ids (recompute with drawOrder(seed, entryIds))',
      params: dropIdParams,
      response: { 200: dropDrawAudit, ...standardErrors },
    },
  }, async (request) => drops.getDrawAudit(await request.principal(), request.params.id));

  app.get('/api/admin/drops', {
    schema: { tags: ['portal', ...tags], summary: "The staff's own restaurant's drops", security: bearer, response: { 200: adminDropList, ...standardErrors } },
  }, async (request) => drops.listOwnDrops(await request.principal()));

  app.post('/api/admin/drops', {
    schema: {
      tags: ['portal', ...tags],
      summary: 'Create a drop: slots for every date from dateFrom to dateTo × times, capacity covers each, hidden until releaseAt; entries from entryOpensAt to entryClosesAt',
      security: bearer,
      body: createDropBody,
      response: { 201: adminDropDetail, ...standardErrors },
    },
  }, async (request, reply) => reply.code(201).send(await drops.createDrop(await request.principal(), request.body)));

  app.get('/api/admin/drops/:id', {
    schema: {
      tags: ['portal', ...tags],
      summary: 'One of the restaurant’s drops: slots, every entry with diner name, party size, position and result, and the seed after the draw',
      security: bearer,
      params: dropIdParams,
      response: { 200: adminDropDetail, ...standardErrors },
    },
  }, async (request) => drops.getOwnDrop(await request.principal(), request.params.id));
};
