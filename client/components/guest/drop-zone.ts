import { useCallback, useRef, useState, type ChangeEvent, type DragEvent, type RefObject } from 'react';

/** Why a file was refused (the codes react-dropzone used, so the sentences stay the same). */
export interface FileRejection {
  file: File;
  errors: { code: 'file-invalid-type' | 'file-too-large' | 'file-too-small' | 'too-many-files'; message: string }[];
}

/** `accept` as the file input and the refusal name it: every type, then its extensions. */
export const acceptList = (accept: Record<string, string[]>): string[] => Object.entries(accept).flatMap(([type, exts]) => [type, ...exts]);

/** Whether a file is one of `accept`'s types, by its type or, when the browser gives none or another, by its extension. */
export function accepted(file: File, accept: Record<string, string[]>): boolean {
  const name = file.name.toLowerCase();
  return Object.entries(accept).some(([type, exts]) => file.type === type || exts.some((e) => name.endsWith(e)));
}

/** Every file of a drop, those inside dropped folders included. */
async function droppedFiles(dt: DataTransfer): Promise<File[]> {
  const entries = Array.from(dt.items ?? [])
    .map((i) => (i.kind === 'file' ? i.webkitGetAsEntry?.() : null))
    .filter((e): e is FileSystemEntry => !!e);
  if (!entries.length) return Array.from(dt.files);
  const out: File[] = [];
  const walk = async (e: FileSystemEntry): Promise<void> => {
    if (e.isFile) out.push(await new Promise<File>((res, rej) => (e as FileSystemFileEntry).file(res, rej)));
    else if (e.isDirectory) {
      const reader = (e as FileSystemDirectoryEntry).createReader();
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        if (!batch.length) break;
        for (const child of batch) await walk(child);
      }
    }
  };
  for (const e of entries) await walk(e);
  return out;
}

/**
 * The upload box's drop zone and file input: files dropped or chosen are sorted into accepted and
 * refused by `accept`; nothing is taken while `disabled`.
 */
export function useDropZone(o: { accept: Record<string, string[]>; disabled: boolean; onDrop: (accepted: File[], rejected: FileRejection[]) => void }) {
  const input: RefObject<HTMLInputElement | null> = useRef<HTMLInputElement>(null);
  const [isDragActive, setDragActive] = useState(false);
  const depth = useRef(0);
  const list = acceptList(o.accept);
  const take = (files: File[]) => {
    const ok: File[] = [];
    const refused: FileRejection[] = [];
    for (const file of files) {
      if (accepted(file, o.accept)) ok.push(file);
      else refused.push({ file, errors: [{ code: 'file-invalid-type', message: `File type must be one of ${list.join(', ')}` }] });
    }
    o.onDrop(ok, refused);
  };
  const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
  const rootProps = {
    onDragEnter: (e: DragEvent) => {
      e.preventDefault();
      if (o.disabled || !hasFiles(e)) return;
      depth.current++;
      setDragActive(true);
    },
    onDragOver: (e: DragEvent) => {
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = o.disabled ? 'none' : 'copy';
    },
    onDragLeave: (e: DragEvent) => {
      e.preventDefault();
      if (--depth.current <= 0) {
        depth.current = 0;
        setDragActive(false);
      }
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      depth.current = 0;
      setDragActive(false);
      if (o.disabled || !e.dataTransfer) return;
      void droppedFiles(e.dataTransfer).then(take);
    },
  };
  const inputProps = {
    ref: input,
    type: 'file',
    multiple: true,
    accept: list.join(','),
    disabled: o.disabled,
    tabIndex: -1,
    style: { display: 'none' },
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const files = Array.from(e.currentTarget.files ?? []);
      e.currentTarget.value = '';
      if (files.length) take(files);
    },
    onClick: (e: { stopPropagation(): void }) => e.stopPropagation(),
  };
  const open = useCallback(() => input.current?.click(), []);
  return { rootProps, inputProps, isDragActive, open };
}
