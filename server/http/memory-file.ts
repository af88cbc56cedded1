import type { Request, Response } from 'express';
import multer from 'multer';
import { AppError } from '../errors.js';

export interface MemoryForm {
  /** The named file part's bytes, held in memory only; undefined when the form had none. */
  file: Buffer | undefined;
  fields: Record<string, string>;
}

/**
 * Reads a small multipart form whose one file must never touch a disk (multer's memory
 * storage): the bytes live in this request's memory and are gone with it. Other file parts are
 * read past; a file over `maxBytes` is `tooLarge` (413).
 */
export function readMemoryForm(req: Request, res: Response, field: string, maxBytes: number, tooLarge: () => AppError): Promise<MemoryForm> {
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
    return Promise.reject(new AppError('invalid_input', 'errors.http.not_multipart', { field }));
  }
  const parse = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: 1, fields: 8, fieldSize: 1024, parts: 10 },
    fileFilter: (_req, file, cb) => cb(null, file.fieldname === field),
  }).any();
  return new Promise((resolve, reject) => {
    parse(req, res, (err?: unknown) => {
      if (err) {
        const code = (err as { code?: string }).code;
        return reject(code === 'LIMIT_FILE_SIZE' ? tooLarge() : new AppError('invalid_input', 'errors.http.bad_upload', { detail: (err as Error).message }));
      }
      const files = (req.files as Express.Multer.File[] | undefined) ?? [];
      const fields: Record<string, string> = {};
      for (const [k, v] of Object.entries((req.body ?? {}) as Record<string, unknown>)) if (typeof v === 'string') fields[k] = v;
      resolve({ file: files.find((f) => f.fieldname === field)?.buffer, fields });
    });
  });
}
