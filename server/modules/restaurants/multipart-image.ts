import type { FastifyRequest } from 'fastify';
import { AppError, badInput } from '#server/errors.ts';

/**
 * Reads a multipart request holding one image and short text fields: the file's bytes (a file
 * over the plugin's limit answers 413 with `maxBytes` in MB) and the fields by name. A body that
 * is not the complete multipart it says it is answers 400: the sender's mistake, not ours.
 */
export async function readImageForm(request: FastifyRequest, maxBytes: number): Promise<{ bytes?: Buffer; fields: Record<string, string> }> {
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
