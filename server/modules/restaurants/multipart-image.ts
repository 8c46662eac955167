import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import { errorResponse, standardErrors } from '#common/contract/common.ts';
import { bearerAccess } from '#common/contract/openapi-security.ts';
import { AppError, badInput } from '#server/errors.ts';

/** What a multipart image form holds: the file's bytes (none if no file part came) and the text fields by name. */
export interface ImageForm {
  bytes?: Buffer;
  fields: Record<string, string>;
}

/** One staff upload of an image: where, its OpenAPI words, its limits and what stores it. */
export interface ImageUploadRoute {
  url: string;
  operationId: string;
  summary: string;
  /** The largest file taken; a larger one answers 413. */
  maxBytes: number;
  /** How many text fields may come beside the one file. */
  textFields: number;
  /** The status and body of a stored upload. */
  status: 200 | 201;
  answer: ZodType;
  /** Stores what was sent, checking its fields; its answer is sent with `status`. */
  store(request: FastifyRequest, form: ImageForm): Promise<unknown>;
}

/**
 * Registers a staff upload route. Multipart is registered in the route's own scope, so no other
 * route parses it; only restaurant staff get as far as sending a file (the check runs before the
 * body is read); uploads spend their own rate-limit budget.
 */
export async function registerImageUpload(app: FastifyInstance, route: ImageUploadRoute): Promise<void> {
  await app.register(async (uploads) => {
    const limits = { fileSize: route.maxBytes, files: 1, fields: route.textFields, parts: route.textFields + 1, fieldSize: 1024 };
    await uploads.register(multipart, { limits });
    const response: Record<number, ZodType> = { [route.status]: route.answer, 413: errorResponse, 415: errorResponse, ...standardErrors };
    uploads.post(
      route.url,
      {
        schema: {
          operationId: route.operationId,
          security: bearerAccess,
          tags: ['portal'],
          summary: route.summary,
          consumes: ['multipart/form-data'],
          response,
        },
        config: { rateLimitGroup: 'upload' },
        preHandler: async (request) => {
          app.services.restaurants.assertMayUpload(await request.principal());
        },
      },
      async (request, reply) => reply.code(route.status).send(await route.store(request, await readImageForm(request, route.maxBytes))),
    );
  });
}

/**
 * Reads a multipart request holding one image and short text fields: the file's bytes (a file
 * over the plugin's limit answers 413 with `maxBytes` in MB) and the fields by name. A body that
 * is not the complete multipart it says it is answers 400: the sender's mistake, not ours.
 */
export async function readImageForm(request: FastifyRequest, maxBytes: number): Promise<ImageForm> {
  let bytes: Buffer | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        try {
          bytes = await part.toBuffer();
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw new AppError('TOO_LARGE', `The photo is larger than ${maxBytes / 1024 / 1024} MB`);
          }
          throw error;
        }
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value.trim();
      }
    }
  } catch (error) {
    // The multipart parser's own failures ("Unexpected end of multipart data") carry no code.
    if (error instanceof AppError || (error as { code?: string }).code) throw error;
    throw badInput('The upload is not a complete multipart/form-data body: send the photo as a file part');
  }
  return { bytes, fields };
}
